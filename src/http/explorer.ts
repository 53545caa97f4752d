import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codedEtag, codingFor, compress, COMPRESSION_THRESHOLD_BYTES, type Coding } from './compression.js';

/**
 * GraphiQL as the endpoint's page in development, from the BFF's own origin: the page, and the
 * files the build bundled (scripts/build-explorer.mjs) under `ASSETS_PATH`. Nothing is loaded
 * from anywhere else, which the page's Content-Security-Policy holds the browser to.
 */

/** Where the explorer's files are served; relative to the page (at /graphql) they are `graphql/explorer/…`. */
export const ASSETS_PATH = '/graphql/explorer/';

/**
 * Only this origin: scripts and workers from files, styles from files and the ones the editor
 * writes into the page, requests to the endpoint and its WebSocket.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The built files: next to the compiled modules (dist/), or in dist/ when the sources run (tests, `start:dev`). */
function assetsDirectory(): string | undefined {
  for (const candidate of ['../../public/explorer/', '../../dist/public/explorer/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(join(dir, 'manifest.json'))) return dir;
  }
  return undefined;
}

interface Asset {
  bytes: Buffer;
  type: string;
  etag: string;
  /** Compressed once, on the first request that admits each coding, and kept (a few files, development only). */
  coded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
}

export interface ExplorerOptions {
  /** The operation the first tab opens with. */
  query: string;
  /** The headers every tab opens with (the demo token on the embedded emulator). */
  headers: Record<string, string>;
}

export interface Explorer {
  /** The page's HTML. */
  page(): string;
  /** The page's headers (its Content-Security-Policy among them). */
  pageHeaders: Readonly<Record<string, string>>;
  /** Answers a request under `ASSETS_PATH`. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function createExplorer(options: ExplorerOptions): Explorer {
  let assets: Map<string, Asset> | undefined;
  let manifest: { script: string; style: string } | undefined;
  /** Read on first use: most processes never serve a browser. */
  function load(): Map<string, Asset> {
    if (assets) return assets;
    // bounded: the explorer's own files, read once.
    assets = new Map();
    const dir = assetsDirectory();
    if (!dir) return assets;
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { script: string; style: string };
    for (const name of readdirSync(dir)) {
      const type = TYPES[extname(name)];
      if (!type) continue;
      const bytes = readFileSync(join(dir, name));
      assets.set(name, { bytes, type, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`, coded: {} });
    }
    return assets;
  }

  const config = JSON.stringify({ query: options.query, headers: JSON.stringify(options.headers, null, 2) }).replace(/</g, '\\u003c');
  const pageHeaders = Object.freeze({ 'content-security-policy': CSP, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });

  return {
    pageHeaders,
    page() {
      load();
      if (!manifest) {
        return (
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Explorer not built</title></head><body>' +
          '<p>The explorer has not been built: run <code>npm run build</code> (or <code>npm start</code>), then reload.</p></body></html>'
        );
      }
      const base = ASSETS_PATH.slice(1);
      return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Campaign GraphQL BFF · GraphiQL</title>
<link rel="stylesheet" href="${escapeHtml(base + manifest.style)}">
</head>
<body>
<div id="explorer"></div>
<script type="application/json" id="explorer-config">${config}</script>
<script type="module" src="${escapeHtml(base + manifest.script)}"></script>
</body>
</html>
`;
    },

    async serve(req, res, pathname) {
      const asset = load().get(pathname.slice(ASSETS_PATH.length));
      if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(asset ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8', ...(asset ? { allow: 'GET, HEAD' } : {}) });
        res.end(asset ? 'Method not allowed.' : 'No such file.');
        return;
      }
      const coding: Coding = asset.bytes.length >= COMPRESSION_THRESHOLD_BYTES ? codingFor(req.headers['accept-encoding']) : 'identity';
      // Every file's name holds a hash of its content: it never changes under that name.
      const headers: Record<string, string> = {
        'content-type': asset.type,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        etag: codedEtag(asset.etag, coding),
        vary: 'Accept-Encoding',
      };
      if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === headers.etag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      let body = asset.bytes;
      if (coding !== 'identity') {
        body = await (asset.coded[coding] ??= compress(asset.bytes, coding));
        headers['content-encoding'] = coding;
      }
      if (res.destroyed) return;
      res.writeHead(200, { ...headers, 'content-length': String(body.length) });
      res.end(body);
    },
  };
}
