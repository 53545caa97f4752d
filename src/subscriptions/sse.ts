import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult, GraphQLError, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse';
import { NOT_UTF8, NOT_UTF8_MESSAGE, charsetProblem, readBody } from '../http/body.js';
import { HttpError } from '../http/respond.js';
import { readAuthorization } from '../http/auth.js';
import { noTokenError } from '../graphql/errors.js';
import type { GraphQLContext } from '../schema/context.js';
import type { LiveStatus } from './hub.js';
import type { OperationPreparer } from './operation.js';

export interface SseOptions {
  schema: GraphQLSchema;
  live: LiveStatus;
  prepare: OperationPreparer;
  contextFor(token: string, signal: AbortSignal): GraphQLContext;
  formatError(error: GraphQLError): GraphQLFormattedError;
  limits: { connectionsPerPartner: number; maxMessageBytes: number };
  fallbackToken: string | null;
  onConnection?: (change: 1 | -1) => void;
  /** An event (a result with data) is being sent to a subscriber. */
  onEvent?: () => void;
}

interface StreamContext {
  token: string;
  signal: AbortSignal;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function refuse(res: ServerResponse, status: number, message: string, code: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** The body as text; a string is why it was refused (not UTF-8); null when over the limit. */
async function readText(req: IncomingMessage, limit: number): Promise<{ text: string } | string | null> {
  try {
    const text = await readBody(req, limit);
    return text === NOT_UTF8 ? NOT_UTF8_MESSAGE : { text };
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) return null;
    throw error;
  }
}

/**
 * GraphQL over Server-Sent Events (graphql-sse, "distinct connections" mode: one POST with
 * `Accept: text/event-stream` per subscription, the events on its response). The token is the
 * `Authorization` header, checked before the stream opens.
 */
export function createSseHandler(options: SseOptions) {
  const { live, limits } = options;
  const streams = new Set<ServerResponse>();
  let closing = false;

  const format = (result: ExecutionResult) =>
    result.errors ? { ...result, errors: result.errors.map((e) => options.formatError(e)) } : result;

  const handler = createHandler<IncomingMessage, StreamContext, Record<PropertyKey, unknown>>({
    schema: options.schema,
    // Single connection mode needs server-side reservations per client; one stream per
    // subscription is what proxies and the graphql-sse client handle best.
    authenticate: () => null,
    async onSubscribe(req, params) {
      // graphql-sse keeps only query, variables, operationName and extensions of the request;
      // GraphQL over HTTP's `documentId` (a trusted document) is read here (query is then "").
      const { token, signal } = req.context;
      const prepared = await options.prepare({ ...params, documentId: documentIdOf(req.url, req.body) }, token, 'sse', req.raw);
      if (!('document' in prepared)) {
        // Streamed as one result with the errors, then `complete`, like any refused operation
        // (graphql-sse takes a plain result only when it has `data`, which a refusal has not).
        const errors = [...prepared];
        return (async function* refused() {
          yield { errors } as ExecutionResult;
        })();
      }
      return { schema: options.schema, ...prepared, contextValue: options.contextFor(token, signal) as unknown as Record<PropertyKey, unknown> };
    },
    // Validated already, with the limit rules, by `prepare`.
    validate: () => [],
    onNext: (_ctx, _req, result) => {
      if (result.data != null) options.onEvent?.();
      return format(result as ExecutionResult) as ExecutionResult;
    },
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (closing) return refuse(res, 503, 'The server is shutting down; subscribe again to reach another instance.', 'SHUTTING_DOWN');
    if (req.method !== 'POST' && req.method !== 'GET') {
      return refuse(res, 405, `Method ${req.method} is not allowed on /graphql/stream; POST a subscription with Accept: text/event-stream.`, 'METHOD_NOT_ALLOWED', { allow: 'GET, POST' });
    }
    if (!req.headers.accept?.includes('text/event-stream')) {
      return refuse(res, 406, 'Send Accept: text/event-stream: this path streams subscription events (graphql-sse).', 'NOT_ACCEPTABLE');
    }
    // Before any token: an app must not act as the demo partner through the fallback.
    if (req.headers['x-app-key'] !== undefined) {
      return refuse(res, 403, 'An app key reaches only offerFeed and categories, not subscriptions.', 'FORBIDDEN');
    }
    const charset = req.method === 'POST' ? charsetProblem(req.headers['content-type']) : undefined;
    if (charset) return refuse(res, 415, charset, 'UNSUPPORTED_MEDIA_TYPE');
    const authorization = readAuthorization(req.headers.authorization);
    const token = authorization.kind === 'token' ? authorization.token : authorization.kind === 'missing' ? options.fallbackToken : null;
    if (!token) return refuse(res, 401, noTokenError(authorization.kind === 'malformed' ? 'malformed' : 'missing').message, 'UNAUTHENTICATED');
    if ((await live.verify(token)) === 'invalid') {
      return refuse(res, 401, 'The campaign API did not accept the partner token. Send a valid token as "Bearer <token>".', 'UNAUTHENTICATED');
    }
    const read = req.method === 'POST' ? await readText(req, limits.maxMessageBytes) : { text: '' };
    if (read === null) {
      res.setHeader('connection', 'close');
      refuse(res, 413, `Request body is over the limit of ${limits.maxMessageBytes} bytes.`, 'PAYLOAD_TOO_LARGE');
      req.destroy();
      return;
    }
    if (typeof read === 'string') return refuse(res, 400, read, 'BAD_REQUEST');
    const body = read.text;
    if (!live.admit(token, limits.connectionsPerPartner)) {
      return refuse(res, 429, `Too many connections: this partner already has ${limits.connectionsPerPartner}.`, 'SUBSCRIPTION_LIMIT_EXCEEDED');
    }
    options.onConnection?.(1);
    const abort = new AbortController();
    try {
      const [stream, init] = await handler({
        method: req.method,
        url: req.url ?? '/',
        headers: {
          get: (key: string) => {
            // graphql-sse streams only for exactly this Accept; clients and proxies add others.
            if (key === 'accept') return 'text/event-stream';
            const value = req.headers[key];
            return Array.isArray(value) ? value.join('\n') : value;
          },
        },
        body,
        raw: req,
        context: { token, signal: abort.signal },
      });
      res.writeHead(init.status, init.statusText, init.headers);
      if (!stream || typeof stream === 'string') {
        res.end(stream ?? undefined);
        return;
      }
      streams.add(res);
      // The client went away: end the subscription, which frees its watcher.
      const onClose = () => void stream.return(undefined);
      res.once('close', onClose);
      for await (const chunk of stream) {
        if (!res.writable) break;
        // Respect backpressure: a slow client holds its own queue (bounded by the watcher).
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
      res.off('close', onClose);
      res.end();
    } finally {
      streams.delete(res);
      abort.abort(new Error('the stream closed'));
      live.leave(token);
      options.onConnection?.(-1);
    }
  }

  return {
    handle,
    /** Graceful shutdown, after `live.close()` completed every subscription: ends what is left. */
    async close(): Promise<void> {
      closing = true;
      const deadline = Date.now() + 1000;
      while (streams.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      for (const res of streams) res.destroy();
    },
  };
}

/** The `documentId` of a POST body (JSON) or of a GET's search parameters, if any. */
function documentIdOf(url: string, body: unknown): string | undefined {
  if (typeof body === 'string' && body.length > 0) {
    try {
      const parsed: unknown = JSON.parse(body);
      const id = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).documentId : undefined;
      return typeof id === 'string' ? id : undefined;
    } catch {
      return undefined;
    }
  }
  return new URL(url, 'http://localhost').searchParams.get('documentId') ?? undefined;
}
