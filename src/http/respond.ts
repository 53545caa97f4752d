import type { IncomingMessage, ServerResponse } from 'node:http';
import { negotiate } from './negotiation.js';

/** A request this layer refuses itself, before anything GraphQL reads it. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function graphQLErrorBody(message: string, code: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { code } }] });
}

/** An error of this layer's own, as a GraphQL error body in the media type the client asked for. */
export function sendGraphQLError(req: IncomingMessage, res: ServerResponse, status: number, message: string, code: string, headers?: Record<string, string>): void {
  if (res.headersSent) return;
  const text = graphQLErrorBody(message, code);
  res.writeHead(status, { 'content-type': negotiate(req.headers.accept).type, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
