import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createLogger } from '../src/observability/logger.js';
import { createMetrics } from '../src/observability/metrics.js';
import { createRequestRecorder } from '../src/graphql/request-log.js';

/**
 * The floor: a bare node:http server that answers every request with fixed JSON bytes (the warm
 * `categories` answer of the BFF, passed in FLOOR_BODY). It reads the request body to its end, as
 * any real server must, and does nothing else: the most a Node process on this machine can serve.
 *
 * With FLOOR_REQUEST_LINE=1 it also does what every request to the BFF must do whatever answers
 * it: parse the JSON body, make a request id and send it back in `X-Request-Id`, and write the
 * BFF's own request line with its metrics (the BFF's recorder and logger, at the default level, to
 * /dev/null as the BFF's). The most a server that keeps the shipped logs can serve.
 */

const port = Number(process.env.PORT ?? '0');
const bodyText = process.env.FLOOR_BODY;
if (bodyText === undefined || bodyText === '') {
  process.stderr.write('floor-server: FLOOR_BODY must hold the JSON bytes to answer with\n');
  process.exit(2);
}
const body = Buffer.from(bodyText, 'utf8');
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
const recorder = process.env.FLOOR_REQUEST_LINE === '1' ? createRequestRecorder(createMetrics(), createLogger('info')) : undefined;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (!recorder) {
      res.writeHead(200, headers);
      res.end(body);
      return;
    }
    const started = performance.now();
    const requestId = randomUUID();
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const request = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as { operationName?: string }) : {};
    res.setHeader('x-request-id', requestId);
    res.writeHead(200, headers);
    res.end(body);
    recorder.recordUnexecuted({ requestId, operationName: request.operationName, operationType: 'query', durationMs: performance.now() - started, path: 'remembered' });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`floor-server listening on http://127.0.0.1:${port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
