import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies above this are refused with 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** A client that keeps sending after its 413 is cut off once it has sent this much more. */
const DRAIN_LIMIT_BYTES = 8 * MAX_BODY_BYTES;

export const TOO_LARGE = Symbol('too large');

/**
 * Reads a request body up to `limit` bytes. Beyond it, resolves TOO_LARGE at once and
 * discards whatever else arrives, so an oversized body is never held in memory.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    discard(req);
    return Promise.resolve(TOO_LARGE);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > DRAIN_LIMIT_BYTES) req.destroy();
        return;
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    req.on('close', () => {
      if (!req.complete && !over) reject(new Error('the client closed the connection before sending the whole body'));
    });
    req.on('error', reject);
  });
}

function discard(req: IncomingMessage): void {
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > DRAIN_LIMIT_BYTES) req.destroy();
  });
  req.on('error', () => {});
}

export function sendJson(res: ServerResponse, status: number, body: string, extraHeaders?: Record<string, string>): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...extraHeaders,
  });
  res.end(body);
}

export function sendText(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** `Bearer <token>` and the reference samples' `Bearer: <token>`; null when neither. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer(?::\s*|\s+)(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The charset a Content-Type declares when it is not UTF-8, which this API does not read: its
 * bodies are JSON, which is UTF-8, and reading other bytes as UTF-8 would store U+FFFD in their
 * place. Undefined when the header declares UTF-8 or no charset.
 */
export function foreignCharset(contentType: string | undefined): string | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8' ? undefined : charset;
}

export function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
