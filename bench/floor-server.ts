import { createServer } from 'node:http';

/**
 * The floor: a bare node:http server that answers every request with fixed JSON bytes (the warm
 * `categories` answer of the BFF, passed in FLOOR_BODY). It reads the request body to its end, as
 * any real server must, and does nothing else: the most a Node process on this machine can serve.
 */

const port = Number(process.env.PORT ?? '0');
const bodyText = process.env.FLOOR_BODY;
if (bodyText === undefined || bodyText === '') {
  process.stderr.write('floor-server: FLOOR_BODY must hold the JSON bytes to answer with\n');
  process.exit(2);
}
const body = Buffer.from(bodyText, 'utf8');
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, headers);
    res.end(body);
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
