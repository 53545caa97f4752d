import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Serves the browser example: index.html and one esbuild bundle of main.ts (Apollo Client, the
 * kit, the documents), built in memory at start. The page talks to the BFF directly (CORS allows
 * localhost origins in development).
 */
export interface ExampleServer {
  url: string;
  close(): Promise<void>;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** `bffUrl` may be a function, read on each page load: a test starts the BFF after this server, with its origin allowed. */
export async function startExampleServer(options: { bffUrl: string | (() => string); port?: number; host?: string }): Promise<ExampleServer> {
  const bundle = await build({
    entryPoints: [here('./main.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Apollo Client's production build: no development-only checks and messages.
    define: { 'process.env.NODE_ENV': '"production"' },
    conditions: ['production'],
    logLevel: 'warning',
  });
  const js = bundle.outputFiles[0]!.text;
  const template = readFileSync(here('./index.html'), 'utf8');
  const given = options.bffUrl;
  const bffUrl = typeof given === 'string' ? () => given : given;
  const html = () => template.replace('%BFF_URL%', JSON.stringify(bffUrl()).replace(/</g, '\\u003c'));

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html());
    } else if (path === '/main.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(js);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host === '0.0.0.0' || !options.host ? '127.0.0.1' : options.host}:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bffUrl = process.env.BFF_URL ?? 'http://localhost:4000/graphql';
  const example = await startExampleServer({ bffUrl, port: Number(process.env.EXAMPLE_PORT ?? 5173), host: process.env.HOST ?? '127.0.0.1' });
  console.log(`example: ${example.url} (against ${bffUrl}; start the API with npm start)`);
}
