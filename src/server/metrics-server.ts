import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { listen, localUrl } from './listen.js';

export interface MetricsServer {
  /** Where Prometheus scrapes, such as http://127.0.0.1:9464/metrics. */
  url: string;
  close(): Promise<void>;
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/**
 * `/metrics` on a listener of its own, apart from the public API: operation names, error codes and
 * the breaker's state are for the operators' Prometheus, not for anyone who can reach the API
 * (the load balancer routes the API port only). GET alone: a scrape never sends anything else.
 */
export async function startMetricsServer(registry: Registry, settings: { port: number; host: string }): Promise<MetricsServer> {
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return sendText(res, 404, 'Not found: metrics are at /metrics.\n');
    if (req.method !== 'GET') return sendText(res, 405, 'Method not allowed: GET /metrics.\n', { allow: 'GET' });
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(text);
      },
      (error: unknown) => sendText(res, 500, `metrics could not be collected: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await listen(server, { port: settings.port, host: settings.host, portVariable: 'METRICS_PORT', hostVariable: 'METRICS_HOST' });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: localUrl(settings.host, port, '/metrics'),
    close() {
      closing ??= new Promise<void>((resolve) => {
        // A scraper keeps its connection open between scrapes: the idle ones close now, one under
        // way gets a moment to finish its answer.
        const backstop = setTimeout(() => server.closeAllConnections(), 1000);
        server.close(() => {
          clearTimeout(backstop);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
