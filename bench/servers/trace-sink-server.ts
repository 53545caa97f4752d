import { createServer } from 'node:http';

/**
 * A stand-in for an OpenTelemetry Collector in the bench's `--tracing` runs: accepts OTLP/HTTP
 * exports at /v1/traces, reads each body to its end and answers `{}` as a collector does, without
 * decoding or storing anything. What the BFF spends on tracing (spans, serialising, sending) is
 * then measured on the BFF; the sink's own cost stays on the driver's core. `GET /stats` tells how
 * many exports and bytes arrived.
 */

const port = Number(process.env.PORT ?? '0');
let exports = 0;
let bytes = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ exports, bytes }));
    return;
  }
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`trace-sink listening on http://127.0.0.1:${port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
