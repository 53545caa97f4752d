import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { pino } from 'pino';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The floor: a bare node:http server that answers every request with fixed JSON bytes (the warm
 * `categories` answer of the BFF, passed in FLOOR_BODY). It reads the request body to its end, as
 * any real server must, and does nothing else: the most a Node process on this machine can serve.
 *
 * With FLOOR_REQUEST_LINE=1 it also does what every request to the BFF must do whatever answers
 * it: parse the JSON body, make a request id and send it back in `X-Request-Id`, and write a
 * request line and metrics as the BFF ships them: the same JSON line at info (its fields, in their
 * order), written synchronously through pino's destination to standard output (/dev/null, as the
 * BFF's), and prom-client's request counter and latency histogram with the BFF's labels and
 * buckets, beside the default process metrics. Written here plainly, not with the BFF's code: the
 * most a server that keeps the shipped logs can serve.
 */

const port = Number(process.env.PORT ?? '0');
const bodyText = process.env.FLOOR_BODY;
if (bodyText === undefined || bodyText === '') {
  process.stderr.write('floor-server: FLOOR_BODY must hold the JSON bytes to answer with\n');
  process.exit(2);
}
const body = Buffer.from(bodyText, 'utf8');
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

/** The BFF's request line and metrics for an answer it sent without running anything. */
function requestLine(): (requestId: string, operationName: string | undefined, durationMs: number) => void {
  const destination = pino.destination({ dest: 1, sync: true });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['operation', 'outcome'] as const;
  const requests = new Counter({ name: 'bff_graphql_requests_total', help: 'GraphQL requests.', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'bff_graphql_request_duration_seconds',
    help: 'GraphQL request latency.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (requestId, operationName, durationMs) => {
    const operation = operationName ?? 'anonymous';
    const labels = { operation: operation === 'anonymous' ? operation : 'other', outcome: 'ok' };
    requests.inc(labels);
    duration.observe(labels, durationMs / 1000);
    destination.write(
      `{"level":30,"time":"${new Date().toISOString()}","service":"campaign-bff","requestId":"${requestId}","operation":${JSON.stringify(operation)}` +
        `,"operationType":"query","outcome":"ok","durationMs":${Math.round(durationMs * 10) / 10},"backendCalls":0,"path":"remembered","msg":"graphql request"}\n`,
    );
  };
}

const record = process.env.FLOOR_REQUEST_LINE === '1' ? requestLine() : undefined;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (!record) {
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
    record(requestId, request.operationName, performance.now() - started);
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
