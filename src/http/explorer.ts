import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codedEtag, codingFor, compress, COMPRESSION_THRESHOLD_BYTES, type Coding } from './compression.js';

/**
 * The endpoint's page in development, from the BFF's own origin: Apollo Sandbox (embedded from
 * Apollo's CDN, turning to the bundled GraphiQL by itself when Sandbox cannot load) or the bundled
 * GraphiQL alone; and the files the build bundled (scripts/build-explorer.mjs) under
 * `ASSETS_PATH`. The page's Content-Security-Policy allows this origin, and for Sandbox Apollo's
 * script and frame, nothing else; no other site may frame the page.
 */

/** Where the explorer's files are served; relative to the page (at /graphql) they are `graphql/explorer/…`. */
export const ASSETS_PATH = '/graphql/explorer/';

/** Apollo's embeddable Sandbox: its script, and the origin of the frame it opens. */
export const SANDBOX_SCRIPT = 'https://embeddable-sandbox.cdn.apollographql.com/_latest/embeddable-sandbox.umd.production.min.js';
const SANDBOX_FRAME = 'https://sandbox.embed.apollographql.com';
/** A Sandbox script that has not loaded by then is taken as held by a proxy: the page opens GraphiQL. */
const SANDBOX_TIMEOUT_MS = 8000;

/**
 * Only this origin (and for Sandbox, Apollo's script and frame): scripts and workers from files,
 * styles from files and the ones the editor writes into the page, requests to the endpoint and
 * its WebSocket.
 */
function policy(kind: ExplorerKind): string {
  return [
    "default-src 'none'",
    kind === 'sandbox' ? `script-src 'self' ${new URL(SANDBOX_SCRIPT).origin}` : "script-src 'self'",
    ...(kind === 'sandbox' ? [`frame-src ${SANDBOX_FRAME}`] : []),
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
}

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

export type ExplorerKind = 'sandbox' | 'graphiql';

export interface ExplorerOptions {
  /** Apollo Sandbox, with the bundled GraphiQL when it cannot load; or GraphiQL alone. */
  kind: ExplorerKind;
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

/** The icon browsers ask for at `/favicon.ico`: GraphQL's mark, drawn small. */
const FAVICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#e10098"/>' +
    '<path d="M16 5l9.5 5.5v11L16 27l-9.5-5.5v-11z" fill="none" stroke="#fff" stroke-width="2"/><circle cx="16" cy="16" r="3" fill="#fff"/></svg>',
);

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function createExplorer(options: ExplorerOptions): Explorer {
  const favicon: Asset = { bytes: FAVICON, type: 'image/svg+xml', etag: `"${createHash('sha1').update(FAVICON).digest('base64url')}"`, coded: {} };
  let assets: Map<string, Asset> | undefined;
  let manifest: { script: string; style: string; sandbox: string } | undefined;
  /** Read on first use: most processes never serve a browser. */
  function load(): Map<string, Asset> {
    if (assets) return assets;
    // bounded: the explorer's own files, read once.
    assets = new Map();
    const dir = assetsDirectory();
    if (!dir) return assets;
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { script: string; style: string; sandbox: string };
    for (const name of readdirSync(dir)) {
      const type = TYPES[extname(name)];
      if (!type) continue;
      const bytes = readFileSync(join(dir, name));
      assets.set(name, { bytes, type, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`, coded: {} });
    }
    return assets;
  }

  const sandbox = options.kind === 'sandbox';
  const configOf = (files: { script: string }) =>
    JSON.stringify({
      query: options.query,
      headers: JSON.stringify(options.headers, null, 2),
      ...(sandbox ? { sandbox: { script: SANDBOX_SCRIPT, fallback: files.script, timeoutMs: SANDBOX_TIMEOUT_MS } } : {}),
    }).replace(/</g, '\\u003c');
  const pageHeaders = Object.freeze({ 'content-security-policy': policy(options.kind), 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });

  return {
    pageHeaders,
    page() {
      load();
      if (!manifest) {
        return (
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Explorer not built</title></head><body>' +
          '<p>This build has no explorer: <code>npm run build</code> (or <code>npm start</code>) bundles it from a checkout, then reload. ' +
          'The image leaves it out, since production never serves it; with the image, <code>EXPLORER=sandbox</code> serves Apollo Sandbox instead.</p></body></html>'
        );
      }
      const base = ASSETS_PATH.slice(1);
      const title = sandbox ? 'Apollo Sandbox' : 'GraphiQL';
      return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Campaign GraphQL BFF · ${title}</title>
<link rel="stylesheet" href="${escapeHtml(base + manifest.style)}">
</head>
<body>
${sandbox ? '<div id="sandbox"></div>\n' : ''}<div id="explorer"></div>
<script type="application/json" id="explorer-config">${configOf(manifest)}</script>
<script type="module" src="${escapeHtml(base + (sandbox ? manifest.sandbox : manifest.script))}"></script>
</body>
</html>
`;
    },

    async serve(req, res, pathname) {
      const asset = pathname === '/favicon.ico' ? favicon : load().get(pathname.slice(ASSETS_PATH.length));
      if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(asset ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8', ...(asset ? { allow: 'GET, HEAD' } : {}) });
        res.end(asset ? 'Method not allowed.' : 'No such file.');
        return;
      }
      const coding: Coding = asset.bytes.length >= COMPRESSION_THRESHOLD_BYTES ? codingFor(req.headers['accept-encoding']) : 'identity';
      // Every file's name holds a hash of its content: it never changes under that name. The
      // icon's name is the browsers', so it is kept a day.
      const headers: Record<string, string> = {
        'content-type': asset.type,
        'cache-control': asset === favicon ? 'public, max-age=86400' : 'public, max-age=31536000, immutable',
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
