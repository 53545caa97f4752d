import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: SeenRequest, response: http.ServerResponse) => void;

/**
 * A scriptable backend on port 0 for shapes the emulator does not produce on purpose (other
 * error envelope shapes, a proxy's HTML page, slow or vanishing answers).
 */
export interface TestServer {
  url: string;
  seen: SeenRequest[];
  /** Replaces the handler for the requests that follow. */
  respond(handler: Handler): void;
  /** Sockets currently open towards this server. */
  openSockets(): number;
  /** Connections accepted since start, and the most requests ever handled at once. */
  /** Connections accepted; most requests in flight at once; responses whose connection the client closed before they were sent. */
  stats: { connections: number; maxInFlight: number; cut: number };
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler = json(200, { status: 'success', result: {} })): Promise<TestServer> {
  let current = handler;
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const stats = { connections: 0, maxInFlight: 0, cut: 0 };
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    res.on('close', () => {
      inFlight--;
      if (!res.writableFinished) stats.cut++;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(request);
      current(request, res);
    });
  });
  server.on('connection', (socket) => {
    stats.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    respond(next) {
      current = next;
    },
    openSockets: () => sockets.size,
    stats,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

export function json(status: number, body: unknown): Handler {
  const text = JSON.stringify(body);
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  };
}

export function text(status: number, body: string, contentType = 'text/plain'): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  };
}

/** Never answers; the socket stays open until the client gives up or the server closes. */
export const hang: Handler = () => {};

/** Destroys the connection after the request arrived: the request was sent, no answer came. */
export const reset: Handler = (_req, res) => {
  res.socket?.destroy();
};

export function delayed(ms: number, then: Handler): Handler {
  return (req, res) => {
    const timer = setTimeout(() => then(req, res), ms);
    res.on('close', () => clearTimeout(timer));
  };
}

/** A port that refuses connections: bound once to learn a free number, then released. */
export async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
