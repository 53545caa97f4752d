import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RewritingProxy {
  url: string;
  /** Where requests go; set once the emulator runs. */
  target: string;
  /** Rewrites each answer body of the named operation path (e.g. `campaigns/get`). */
  rewrite: Map<string, (body: string) => string>;
  close(): Promise<void>;
}

/**
 * A real HTTP hop between the BFF's client and the emulator that edits answers, to play a backend
 * that sends values this API does not know (a new status, a colour that is no colour).
 */
export async function startRewritingProxy(): Promise<RewritingProxy> {
  const proxy: RewritingProxy = {
    url: '',
    target: '',
    rewrite: new Map(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', proxy.target);
      const upstream = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const operation = target.pathname.replace(/^\/v1\//, '');
          const edit = proxy.rewrite.get(operation);
          const body = Buffer.concat(parts).toString('utf8');
          const out = edit ? edit(body) : body;
          res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
          res.end(out);
        });
      });
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = proxy.close;
  proxy.close = () => {
    server.closeAllConnections();
    return close();
  };
  return proxy;
}
