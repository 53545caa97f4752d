import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { Logger } from '../observability/logger.js';
import type { Registry } from 'prom-client';
import { corsHeaders, type CorsPolicy } from './cors.js';
import { readBearerToken } from './auth.js';
import type { FastPathAnswer, FastPathRequest } from '../graphql/operation-cache.js';

/**
 * The thin HTTP layer in front of Apollo: routing, CORS, body limits and content types, the
 * per-request deadline, health and metrics. No framework: Apollo's own `executeHTTPGraphQLRequest`
 * does the GraphQL-over-HTTP work.
 */

export interface RequestInfo {
  requestId: string;
  /** The partner token from `Authorization`, or the demo token where allowed; null when absent. */
  token: string | null;
  /** Aborted at the request deadline or when the client goes away; made on first call. */
  signal: () => AbortSignal;
  /** What the gate attached to this request (the app it came from, for one). */
  gate?: unknown;
}

/** A /graphql request as the gate sees it, once its body is read. */
export interface GateRequest {
  req: IncomingMessage;
  method: 'GET' | 'POST';
  url: URL;
  body: unknown;
}

/** The gate answers the request itself: a refusal, or a 304. */
export interface GateAnswer {
  /** A Buffer body is sent as it is (an answer the gate remembered, encoded once). */
  answer: { status: number; headers?: Record<string, string>; body?: string | Buffer };
}

/** The gate lets the request run, possibly rewritten. */
export interface GatePass {
  /** Replaces the POST body (a document named by id, resolved to its text). */
  body?: unknown;
  /** Replaces the query string Apollo sees (GET). */
  search?: string;
  /** Headers added to what Apollo sees. */
  headers?: Record<string, string>;
  /** A GET the compiled path may answer (the gate knows it is a query). */
  fastGet?: FastPathRequest;
  /** Replaces the token read from Authorization (null: the request acts without one). */
  token?: string | null;
  /** Handed to the context factory as `RequestInfo.gate`. */
  state?: unknown;
  /** Sees a complete answer before it is sent: may add headers, rewrite it, or make it a 304 (body null). */
  finish?: (answer: { status: number; body: string }) => { status: number; headers: Record<string, string>; body: string | null };
}

export type Gate = (request: GateRequest) => Promise<GateAnswer | GatePass> | GateAnswer | GatePass;

export interface Readiness {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

export interface HttpHandlerOptions<C extends BaseContext> {
  apollo: ApolloServer<C>;
  /** Answers operations Apollo accepted before, or returns undefined to leave them to Apollo. */
  fastPath?: ((request: FastPathRequest, context: () => Promise<C>, gate: unknown) => Promise<FastPathAnswer | undefined>) | undefined;
  /** Sees each /graphql request before it runs (app keys, trusted documents, rate limits, caching). */
  gate?: Gate;
  context: (info: RequestInfo) => Promise<C>;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  cors: CorsPolicy;
  readiness: () => Promise<Readiness>;
  metrics: Registry;
  logger: Logger;
  /** Token used when a request carries none (development on the embedded emulator only). */
  fallbackToken: string | null;
  /** Told about refusals made before Apollo (size, type, JSON). */
  onRefused?: (reason: 'body_too_large' | 'unsupported_media_type' | 'malformed_json' | 'timeout') => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendGraphQLError(res: ServerResponse, status: number, message: string, code: string, headers?: Record<string, string>): void {
  sendJson(res, status, { errors: [{ message, extensions: { code } }] }, headers);
}

/** Reads the body up to `limit` bytes; beyond it, stops reading and answers 413. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new HttpError(413, `Request body of ${declared} bytes is over the limit of ${limit} bytes.`, 'PAYLOAD_TOO_LARGE'));
  }
  // Plain events rather than an async iterator: this runs for every request.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(new HttpError(413, `Request body is over the limit of ${limit} bytes.`, 'PAYLOAD_TOO_LARGE'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A plain POST that Apollo would answer as `application/json`: no persisted-query extension, no
 * batch, and an Accept header that does not ask for another response type.
 */
function fastPathRequest(body: unknown, accept: string | undefined): FastPathRequest | undefined {
  if (!isPlainObject(body) || typeof body.query !== 'string') return undefined;
  if (body.extensions !== undefined && !(isPlainObject(body.extensions) && body.extensions.persistedQuery === undefined)) return undefined;
  if (body.variables != null && !isPlainObject(body.variables)) return undefined;
  if (body.operationName != null && typeof body.operationName !== 'string') return undefined;
  if (accept && (accept.includes('graphql-response+json') || !/application\/json|\*\/\*/.test(accept))) return undefined;
  return body as unknown as FastPathRequest;
}

function parseJsonBody(req: IncomingMessage, raw: Buffer): unknown {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && type !== 'application/graphql-response+json') {
    throw new HttpError(
      415,
      `Content-Type must be application/json for POST, got ${type ? JSON.stringify(type) : 'none'}.`,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  }
  if (raw.length === 0) throw new HttpError(400, 'Request body is empty; expected a JSON object with a "query".', 'BAD_REQUEST');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new HttpError(400, `Request body is not valid JSON: ${(error as Error).message}`, 'BAD_REQUEST');
  }
}

/**
 * A request's deadline and cancellation. The AbortSignal, and the listener that fires it when the
 * client goes away, are made only when something asks for the signal (a backend call): a warm
 * cached read never does, and this runs for every request.
 */
class RequestLifetime {
  readonly expired: Promise<'timeout'>;
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout;
  #lapsed = false;
  #onClose = () => {
    if (!this.res.writableFinished) this.#controller?.abort(new Error('client went away'));
  };

  constructor(
    private readonly res: ServerResponse,
    timeoutMs: number,
  ) {
    let expire!: (value: 'timeout') => void;
    this.expired = new Promise((resolve) => (expire = resolve));
    this.#timer = setTimeout(() => {
      this.#lapsed = true;
      this.#controller?.abort(new Error('request deadline'));
      expire('timeout');
    }, timeoutMs);
  }

  readonly signal = (): AbortSignal => {
    if (!this.#controller) {
      this.#controller = new AbortController();
      // Every backend call of the request listens on this signal, and a list's loader fans out to
      // dozens at once: past Node's default of 10 listeners each such request printed a warning.
      setMaxListeners(0, this.#controller.signal);
      if (this.#lapsed) this.#controller.abort(new Error('request deadline'));
      else this.res.once('close', this.#onClose);
    }
    return this.#controller.signal;
  };

  end(): void {
    clearTimeout(this.#timer);
    if (this.#controller) this.res.off('close', this.#onClose);
  }
}

export function createHttpHandler<C extends BaseContext>(options: HttpHandlerOptions<C>) {
  const { apollo, logger } = options;

  async function graphql(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
    const method = req.method ?? 'GET';
    const cors = corsHeaders(options.cors, req);
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'content-length': '0' });
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'POST') {
      sendGraphQLError(res, 405, `Method ${method} is not allowed on /graphql; use POST (or GET for queries).`, 'METHOD_NOT_ALLOWED', {
        ...cors,
        allow: 'GET, POST, OPTIONS',
      });
      return;
    }

    let body: unknown;
    try {
      if (method === 'POST') body = parseJsonBody(req, await readBody(req, options.bodyLimitBytes));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      options.onRefused?.(error.status === 413 ? 'body_too_large' : error.status === 415 ? 'unsupported_media_type' : 'malformed_json');
      // Past a size limit, stop reading: close the connection rather than draining megabytes.
      const close: Record<string, string> = error.status === 413 ? { connection: 'close' } : {};
      sendGraphQLError(res, error.status, error.message, error.code, { ...cors, ...close });
      if (error.status === 413) req.destroy();
      return;
    }

    const gated = options.gate ? await options.gate({ req, method, url, body }) : {};
    if ('answer' in gated) {
      const { status, headers = {}, body: text } = gated.answer;
      const bytes = text === undefined ? undefined : typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      res.writeHead(status, { ...cors, ...(bytes ? { 'content-type': JSON_TYPE, 'content-length': bytes.length } : {}), ...headers });
      res.end(bytes);
      return;
    }
    if (gated.body !== undefined) body = gated.body;

    const lifetime = new RequestLifetime(res, options.requestTimeoutMs);
    const token =
      gated.token !== undefined
        ? gated.token
        : (readBearerToken(req.headers.authorization) ?? (req.headers.authorization ? null : options.fallbackToken));
    const context = () => options.context({ requestId, token, signal: lifetime.signal, gate: gated.state });
    const fast = options.fastPath ? (method === 'POST' ? fastPathRequest(body, req.headers.accept) : gated.fastGet) : undefined;
    const answer = async () => {
      const compiled = fast && (await options.fastPath!(fast, context, gated.state));
      if (compiled) return compiled;
      const headers = new HeaderMap();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
      }
      for (const [key, value] of Object.entries(gated.headers ?? {})) headers.set(key, value);
      return apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method, headers, search: gated.search ?? url.search, body }, context });
    };
    /** A complete answer, through the gate's finish when it has one. */
    const send = (status: number, headers: Record<string, string>, text: string) => {
      const finished = gated.finish ? gated.finish({ status, body: text }) : { status, headers: {}, body: text };
      if (finished.body === null) {
        res.writeHead(finished.status, { ...cors, ...headers, ...finished.headers });
        res.end();
        return;
      }
      // Encoded once: measuring the string and then writing it would encode it twice.
      const bytes = Buffer.from(finished.body, 'utf8');
      res.writeHead(finished.status, { ...cors, ...headers, ...finished.headers, 'content-length': bytes.length });
      res.end(bytes);
    };

    try {
      const result = await Promise.race([answer(), lifetime.expired]);
      if (result === 'timeout') {
        if (res.destroyed) return;
        options.onRefused?.('timeout');
        sendGraphQLError(res, 503, `The request did not finish within its deadline of ${options.requestTimeoutMs} ms.`, 'REQUEST_TIMEOUT', cors);
        return;
      }
      if (!('headers' in result)) {
        send(result.status, { 'content-type': JSON_TYPE }, result.body);
        return;
      }
      if (result.body.kind === 'complete') {
        send(result.status ?? 200, Object.fromEntries(result.headers), result.body.string);
        return;
      }
      res.statusCode = result.status ?? 200;
      for (const [key, value] of Object.entries(cors)) res.setHeader(key, value);
      for (const [key, value] of result.headers) res.setHeader(key, value);
      for await (const chunk of result.body.asyncIterator) res.write(chunk);
      res.end();
    } finally {
      lifetime.end();
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = (typeof req.headers['x-request-id'] === 'string' && /^[\w.-]{1,64}$/.test(req.headers['x-request-id']) ? req.headers['x-request-id'] : randomUUID());
    res.setHeader('x-request-id', requestId);
    const url = new URL(req.url ?? '/', 'http://localhost');
    switch (url.pathname) {
      case '/graphql':
        return graphql(req, res, url, requestId);
      case '/healthz':
        return sendJson(res, 200, { status: 'ok' });
      case '/readyz': {
        const readiness = await options.readiness();
        return sendJson(res, readiness.ready ? 200 : 503, { status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks });
      }
      case '/metrics': {
        const text = await options.metrics.metrics();
        res.writeHead(200, { 'content-type': options.metrics.contentType });
        res.end(text);
        return;
      }
      default:
        return sendJson(res, 404, { error: `No route ${url.pathname}. GraphQL is at /graphql; also /healthz, /readyz, /metrics.` });
    }
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    route(req, res).catch((error: unknown) => {
      logger.error({ err: error, url: req.url }, 'unhandled error in the HTTP layer');
      if (!res.headersSent) sendGraphQLError(res, 500, 'Internal server error.', 'INTERNAL_SERVER_ERROR');
      else res.destroy();
    });
  };
}
