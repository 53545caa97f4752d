import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { Logger } from '../observability/logger.js';
import type { Admission, AdmissionTicket } from './admission.js';
import { corsHeaders, type CorsPolicy } from './cors.js';
import { readAuthorization } from './auth.js';
import type { TokenProblem } from '../graphql/errors.js';
import type { FastPathAnswer, FastPathRequest } from '../graphql/operation-cache.js';
import type { UnexecutedRecord } from '../graphql/plugins/observability.js';
import type { SharedAnswer } from '../graphql/shared-answers.js';
import { quote } from '../campaign-api/index.js';
import { charsetProblem, encodingProblem } from '../http/body.js';

/**
 * The thin HTTP layer in front of Apollo: routing, CORS, body limits and content types, the
 * per-request deadline, health and metrics. No framework: Apollo's own `executeHTTPGraphQLRequest`
 * does the GraphQL-over-HTTP work.
 */

export interface RequestInfo {
  requestId: string;
  /** The partner token from `Authorization`, or the demo token where allowed; null when absent. */
  token: string | null;
  /** Why `token` is null: no Authorization header, or one that is not "Bearer <token>". */
  tokenProblem: TokenProblem | undefined;
  /** Aborted at the request deadline or when the client goes away; made on first call. */
  signal: () => AbortSignal;
  /**
   * Asked before each backend call: undefined when the request may call now, else a promise of
   * its place (see admission.ts); the place is given back when the request has answered.
   */
  admit: () => Promise<void> | undefined;
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

/** The gate answers the request itself: a refusal, an answer it remembered, or a 304. */
export interface GateAnswer {
  /** A Buffer body is sent as it is (an answer the gate remembered, encoded once). */
  answer: { status: number; headers?: Record<string, string>; body?: string | Buffer };
  /** What the request was, for its log line and metrics: nothing else sees a request the gate answers. */
  facts: AnswerFacts;
}

/** What a request answered without an execution was, for its request line (see UnexecutedRecord). */
export type AnswerFacts = Omit<UnexecutedRecord, 'requestId' | 'durationMs'>;

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
  /** Whether this instance should get traffic (200), or not (503). */
  ready: boolean;
  /** Said in the body: `ready`, or why not (`draining`). */
  status: string;
  /** What the instance knows of what it depends on; informative, not what `ready` follows. */
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
  logger: Logger;
  /** Token used when a request carries none (development on the embedded emulator only). */
  fallbackToken: string | null;
  /** GraphQL over SSE (graphql-sse) at `/graphql/stream`. */
  stream?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Admission of requests to backend work while the process is saturated; none lets all in. */
  admission?: Admission | undefined;
  /**
   * An answer remembered for a request that acts with a partner token, sent without executing
   * anything (graphql/shared-answers.ts); undefined to execute it.
   */
  sharedAnswer?: ((request: FastPathRequest, token: string) => SharedAnswer | undefined) | undefined;
  /**
   * The document registered under an automatic persisted query's hash (cache/apq-cache.ts), so
   * that a POST naming a document by its hash alone, as Apollo Client's persisted-query link
   * sends it, can take the compiled path; undefined leaves the request to Apollo as it came.
   */
  persistedQuery?: ((hash: string) => Promise<string | undefined>) | undefined;
  /** Records a request answered without an execution (the request line and metrics an executed request gets). */
  recordUnexecuted?: (requestId: string, facts: AnswerFacts, durationMs: number) => void;
  /** Told about refusals made before Apollo (size, type, JSON). */
  onRefused?: (reason: 'body_too_large' | 'unsupported_media_type' | 'malformed_json' | 'timeout') => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Read only: shared by every request to the bare /graphql. */
const GRAPHQL_URL: Readonly<URL> = new URL('http://localhost/graphql');
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';

/**
 * Said to a request still at work when shutdown's grace period ends. A mutation's backend call was
 * under way and is abandoned: the backend may have done it, and only reading the data tells.
 */
const SHUTDOWN_MESSAGE =
  'The server shut down before this request finished. Send a query again (another instance will answer it); ' +
  'a mutation may or may not have taken effect, so read the data before sending it again.';

/**
 * A refused body is still read and thrown away, up to these bounds, before the connection
 * closes: closing a socket with request bytes unread makes the kernel send a reset, which can
 * reach a client still sending before it has read the answer. Discarding costs little; the
 * bounds stop a client from holding the connection with an endless body.
 */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
const DISCARD_MAX_MS = 5000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The client closed the connection before it had sent its body: there is nobody left to answer. */
class ClientGoneError extends Error {}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  order: number;
  /** It has parameters other than q and charset=utf-8. */
  parameters: boolean;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part, order) => {
    const [range, ...params] = part.split(';');
    const [type, subtype] = range!.trim().toLowerCase().split('/');
    if (!type || !subtype) return [];
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    // The charset Apollo's own media types name matches them; any other parameter is Apollo's to judge.
    const parameters = params.some((p) => !/^\s*(q\s*=\s*[\d.]+|charset\s*=\s*"?utf-8"?)\s*$/i.test(p));
    return [{ type, subtype, q: q === undefined ? 1 : Math.min(Number(q) || 0, 1), order, parameters }];
  });
}

/** How much the Accept ranges want `application/<subtype>`: the most specific range that matches decides. */
function preference(ranges: MediaRange[], subtype: string): { q: number; specificity: number; order: number } {
  let best = { q: 0, specificity: -1, order: Infinity };
  for (const range of ranges) {
    const matches = (range.type === '*' || range.type === 'application') && (range.subtype === '*' || range.subtype === subtype);
    if (!matches) continue;
    const specificity = (range.type === 'application' ? 2 : 0) + (range.subtype === subtype ? 1 : 0);
    if (specificity > best.specificity || (specificity === best.specificity && range.q > best.q)) best = { q: range.q, specificity, order: range.order };
  }
  return best;
}

/** What an Accept header asks for, as far as this layer answers it (see `negotiate`). */
interface Negotiated {
  /** The media type Apollo answers a complete result in, and this layer its own answers. */
  type: string;
  /** `type` as this layer's answers send it (read only: shared by every request with that Accept header). */
  headers: Readonly<Record<string, string>>;
  /** Whether Apollo would answer in `type` at all (else 406) and this layer is sure to choose as it does. */
  answerable: boolean;
}

const negotiation = (type: string, answerable: boolean): Negotiated => ({ type, headers: Object.freeze({ 'content-type': type }), answerable });
const PLAIN_JSON = negotiation(JSON_TYPE, true);

/**
 * The media type of an answer, chosen as Apollo chooses it for its own (by quality, then
 * specificity, then the client's order): application/graphql-response+json where the Accept
 * header prefers it (as Apollo Client's does), else application/json, also for this layer's own
 * refusals when it accepts neither.
 */
function negotiate(accept: string | undefined): Negotiated {
  if (!accept) return PLAIN_JSON;
  let negotiated = mediaTypes.get(accept);
  if (negotiated === undefined) {
    negotiated = chooseMediaType(accept);
    // Accept headers come from clients: a bounded memory of the few that real clients send.
    if (mediaTypes.size >= 64) mediaTypes.clear();
    mediaTypes.set(accept, negotiated);
  }
  return negotiated;
}

const errorMediaType = (accept: string | undefined): string => negotiate(accept).type;

const mediaTypes = new Map<string, Negotiated>();

function chooseMediaType(accept: string): Negotiated {
  const ranges = parseAccept(accept);
  const json = preference(ranges, 'json');
  const graphql = preference(ranges, 'graphql-response+json');
  // Other parameters (rare) are matched by Apollo's negotiator, not here: Apollo answers those.
  const answerable = (json.q > 0 || graphql.q > 0) && !ranges.some((range) => range.parameters);
  if (graphql.q <= 0) return negotiation(JSON_TYPE, answerable);
  const prefersGraphql =
    graphql.q !== json.q ? graphql.q > json.q : graphql.specificity !== json.specificity ? graphql.specificity > json.specificity : graphql.order < json.order;
  return negotiation(prefersGraphql ? GRAPHQL_RESPONSE_TYPE : JSON_TYPE, answerable);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function graphQLErrorBody(message: string, code: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { code } }] });
}

function sendGraphQLError(req: IncomingMessage, res: ServerResponse, status: number, message: string, code: string, headers?: Record<string, string>): void {
  if (res.headersSent) return;
  const text = graphQLErrorBody(message, code);
  res.writeHead(status, { 'content-type': errorMediaType(req.headers.accept), 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Answers a request whose body is refused before it was read (too large, of a type or encoding
 * this server does not take). The answer goes out at once and says `Connection: close`, but it
 * is ended only once the client has sent its body, or past the discard bounds: Node closes a
 * `Connection: close` socket as soon as the answer ends.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, error: HttpError, headers: Record<string, string>): void {
  const text = graphQLErrorBody(error.message, error.code);
  res.writeHead(error.status, {
    ...headers,
    ...error.headers,
    'content-type': errorMediaType(req.headers.accept),
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  if (req.complete || req.destroyed) {
    res.end(text);
    return;
  }
  res.write(text);
  let discarded = 0;
  const done = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('error', done);
    res.end();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) done();
  };
  const timer = setTimeout(done, DISCARD_MAX_MS);
  req.on('data', onData);
  req.once('end', done);
  req.once('error', done);
  req.resume();
}

/** Refuses, before any of the body is read, what this server will not read: too large, another type or encoding. */
function checkBodyHeaders(req: IncomingMessage, limit: number): void {
  const header = req.headers['content-type'];
  // What clients send, checked without taking the header apart.
  const usual = header === 'application/json' || header === 'application/json; charset=utf-8';
  const type = usual ? 'application/json' : (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && type !== 'application/graphql-response+json') {
    throw new HttpError(
      415,
      `Content-Type must be application/json for POST, got ${type ? quote(type) : 'none'}.`,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  }
  if (!usual) {
    const charset = charsetProblem(header);
    if (charset) throw new HttpError(415, charset, 'UNSUPPORTED_MEDIA_TYPE');
  }
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new HttpError(
      415,
      `Content-Encoding ${quote(encoding)} is not supported; send the body uncompressed (without Content-Encoding).`,
      'UNSUPPORTED_MEDIA_TYPE',
      // RFC 7694: the encodings this server does take.
      { 'accept-encoding': 'identity' },
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, `Request body of ${declared} bytes is over the limit of ${limit} bytes.`, 'PAYLOAD_TOO_LARGE');
  }
}

/** Reads the body up to `limit` bytes; beyond it, stops keeping it and answers 413. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // Plain events rather than an async iterator: this runs for every request.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Paused, so the rest waits for refuseBody to discard it rather than flowing to nobody.
        req.pause();
        req.off('data', onData);
        reject(new HttpError(413, `Request body is over the limit of ${limit} bytes.`, 'PAYLOAD_TOO_LARGE'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    // `on`, not `once`: each of these comes at most once for the promise that matters, and `once`
    // wraps each listener in two more objects, for every request.
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', (error) => reject(new ClientGoneError(error.message)));
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A plain POST body: no persisted-query extension, no batch. */
function fastPathRequest(body: unknown): FastPathRequest | undefined {
  if (!isPlainObject(body) || typeof body.query !== 'string') return undefined;
  if (body.extensions !== undefined && !(isPlainObject(body.extensions) && body.extensions.persistedQuery === undefined)) return undefined;
  if (body.variables != null && !isPlainObject(body.variables)) return undefined;
  if (body.operationName != null && typeof body.operationName !== 'string') return undefined;
  return body as unknown as FastPathRequest;
}

/** The hash of an automatic persisted query (version 1) sent by its hash alone, without its text. */
function persistedQueryHash(body: unknown): string | undefined {
  if (!isPlainObject(body) || body.query !== undefined || !isPlainObject(body.extensions)) return undefined;
  const persisted = body.extensions.persistedQuery;
  return isPlainObject(persisted) && persisted.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : undefined;
}

/** The same answer for every token the campaign API accepts (an empty one is none), so only a request with one gets it. */
function sharedAnswerFor(
  lookup: ((request: FastPathRequest, token: string) => SharedAnswer | undefined) | undefined,
  request: FastPathRequest | undefined,
  token: string | null,
): SharedAnswer | undefined {
  return request && token && lookup ? lookup(request, token) : undefined;
}

/** The request line of a request answered from a shared answer. */
const rememberedFacts = (shared: SharedAnswer): AnswerFacts => ({ path: 'remembered', operationName: shared.operationName, operationType: 'query' });

/** The same request with its registered document in place of the persisted-query extension. */
function withDocument(body: Record<string, unknown>, query: string): Record<string, unknown> {
  const { persistedQuery: _named, ...extensions } = body.extensions as Record<string, unknown>;
  return { ...body, query, extensions };
}

function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) throw new HttpError(400, 'Request body is empty; expected a JSON object with a "query".', 'BAD_REQUEST');
  const encoding = encodingProblem(raw);
  if (encoding) throw new HttpError(400, encoding, 'BAD_REQUEST');
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
  /** Resolves when the request must be answered without its result: its deadline passed, or shutdown's grace period ran out. */
  readonly expired: Promise<'timeout' | 'shutdown'>;
  #expire!: (reason: 'timeout' | 'shutdown') => void;
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout;
  /** Why the request lapsed (the reason its backend calls are aborted with); undefined while it has not. */
  #lapsedWith: string | undefined;
  #onClose = () => {
    if (!this.res.writableFinished) this.#controller?.abort(new Error('client went away'));
  };

  #ticket: AdmissionTicket | undefined;

  constructor(
    private readonly res: ServerResponse,
    timeoutMs: number,
    private readonly admission: Admission | undefined,
    private readonly inFlight: Set<RequestLifetime>,
  ) {
    this.expired = new Promise((resolve) => (this.#expire = resolve));
    this.#timer = setTimeout(() => this.#lapse('timeout', 'request deadline'), timeoutMs);
    inFlight.add(this);
  }

  /** Ends the request's work now (its backend calls are aborted) and has it answered as `reason` says. */
  #lapse(reason: 'timeout' | 'shutdown', why: string): void {
    if (this.#lapsedWith !== undefined) return;
    this.#lapsedWith = why;
    clearTimeout(this.#timer);
    this.#controller?.abort(new Error(why));
    this.#expire(reason);
  }

  /** Shutdown's grace period is over: the request is answered 503 SHUTTING_DOWN instead of having its connection cut. */
  interrupt(): void {
    this.#lapse('shutdown', 'server shutting down');
  }

  readonly signal = (): AbortSignal => {
    if (!this.#controller) {
      this.#controller = new AbortController();
      // Every backend call of the request listens on this signal, and a list's loader fans out to
      // dozens at once: past Node's default of 10 listeners each such request printed a warning.
      setMaxListeners(0, this.#controller.signal);
      if (this.#lapsedWith !== undefined) this.#controller.abort(new Error(this.#lapsedWith));
      else this.res.once('close', this.#onClose);
    }
    return this.#controller.signal;
  };

  readonly admit = (): Promise<void> | undefined => {
    if (!this.admission) return undefined;
    this.#ticket ??= this.admission.ticket(this.signal);
    return this.#ticket.wait();
  };

  end(): void {
    this.inFlight.delete(this);
    clearTimeout(this.#timer);
    if (this.#controller) this.res.off('close', this.#onClose);
    this.#ticket?.release();
  }
}

/** Node's request listener, and what shutdown asks of the requests it is still answering. */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * Has every request still at work answered 503 SHUTTING_DOWN at once, its backend calls aborted
   * (shutdown's grace period is over); returns how many there were. A request still sending its
   * body or before the gate, or whose answer has begun, is left to the connection's end.
   */
  interruptInFlight(): number;
}

export function createHttpHandler<C extends BaseContext>(options: HttpHandlerOptions<C>): HttpHandler {
  const { apollo, logger } = options;
  const inFlight = new Set<RequestLifetime>();

  /** A request answered without an execution (refused here or by the gate, or remembered) gets the request line of any other. */
  function recordUnexecuted(requestId: string, started: number, facts: AnswerFacts): void {
    options.recordUnexecuted?.(requestId, facts, performance.now() - started);
  }

  async function graphql(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const cors = corsHeaders(options.cors, req);
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'content-length': '0' });
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'POST') {
      sendGraphQLError(req, res, 405, `Method ${method} is not allowed on /graphql; use POST (or GET for queries).`, 'METHOD_NOT_ALLOWED', {
        ...cors,
        allow: 'GET, POST, OPTIONS',
      });
      recordUnexecuted(requestId, started, { path: 'http', errorCode: 'METHOD_NOT_ALLOWED' });
      return;
    }

    let body: unknown;
    if (method === 'POST') {
      let raw: Buffer;
      try {
        checkBodyHeaders(req, options.bodyLimitBytes);
        raw = await readBody(req, options.bodyLimitBytes);
      } catch (error) {
        if (error instanceof ClientGoneError) {
          logger.debug({ requestId, reason: error.message }, 'client went away while sending its body');
          return;
        }
        if (!(error instanceof HttpError)) throw error;
        options.onRefused?.(error.status === 413 ? 'body_too_large' : 'unsupported_media_type');
        refuseBody(req, res, error, cors);
        recordUnexecuted(requestId, started, { path: 'http', errorCode: error.code });
        return;
      }
      try {
        body = parseJsonBody(raw);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        options.onRefused?.('malformed_json');
        sendGraphQLError(req, res, error.status, error.message, error.code, cors);
        recordUnexecuted(requestId, started, { path: 'http', errorCode: error.code });
        return;
      }
    }

    // Most gates answer at once (partner requests): awaiting only a promise saves a turn of the queue.
    const gating = options.gate ? options.gate({ req, method, url, body }) : {};
    const gated = gating instanceof Promise ? await gating : gating;
    if ('answer' in gated) {
      const { status, headers = {}, body: text } = gated.answer;
      const length = text === undefined ? 0 : typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : text.length;
      // Refusals are GraphQL error bodies: in the media type the client asked for, as Apollo's are.
      res.writeHead(status, { ...cors, ...(text !== undefined ? { 'content-type': errorMediaType(req.headers.accept), 'content-length': length } : {}), ...headers });
      res.end(text);
      recordUnexecuted(requestId, started, gated.facts);
      return;
    }
    if (gated.body !== undefined) body = gated.body;

    const authorization = readAuthorization(req.headers.authorization);
    // A malformed header never falls back to the demo token: the client meant to send one.
    const headerToken = authorization.kind === 'token' ? authorization.token : authorization.kind === 'missing' ? options.fallbackToken : null;
    const token = gated.token !== undefined ? gated.token : headerToken;
    const tokenProblem = token === null ? (authorization.kind === 'malformed' ? 'malformed' : 'missing') : undefined;
    // Answered in the media type Apollo would choose (Apollo Client prefers application/graphql-response+json).
    const negotiated = negotiate(req.headers.accept);
    let fast = options.fastPath && negotiated.answerable ? (method === 'POST' ? fastPathRequest(body) : gated.fastGet) : undefined;
    // Named by its hash alone: looked up under the request's deadline, below.
    const persistedHash =
      options.fastPath && options.persistedQuery && negotiated.answerable && method === 'POST' && fast === undefined ? persistedQueryHash(body) : undefined;
    /** A complete answer, through the gate's finish when it has one; `bytes`, when given, are `text` encoded once. */
    const send = (status: number, headers: Readonly<Record<string, string>>, text: string, bytes?: Buffer) => {
      const finished = gated.finish ? gated.finish({ status, body: text }) : { status, headers: {}, body: text };
      if (finished.body === null) {
        res.writeHead(finished.status, { ...cors, ...headers, ...finished.headers });
        res.end();
        return;
      }
      if (bytes !== undefined && finished.body === text) {
        res.writeHead(finished.status, { ...cors, ...headers, ...finished.headers, 'content-length': bytes.length });
        res.end(bytes);
        return;
      }
      // Written as a string: the socket encodes it straight into its write. A Buffer made here
      // is off-heap memory that lives until V8 collects its small handle, under load often only
      // at a full collection once the handle has been promoted (bench/README.md, issue 15).
      res.writeHead(finished.status, { ...cors, ...headers, ...finished.headers, 'content-length': Buffer.byteLength(finished.body, 'utf8') });
      res.end(finished.body, 'utf8');
    };

    const shared = sharedAnswerFor(options.sharedAnswer, fast, token);
    if (shared) {
      send(200, negotiated.headers, shared.body, shared.bytes);
      recordUnexecuted(requestId, started, rememberedFacts(shared));
      return;
    }

    const lifetime = new RequestLifetime(res, options.requestTimeoutMs, options.admission, inFlight);
    const context = () => options.context({ requestId, token, tokenProblem, signal: lifetime.signal, admit: lifetime.admit, gate: gated.state });
    const answer = async () => {
      if (persistedHash !== undefined) {
        const query = await options.persistedQuery!(persistedHash);
        if (query !== undefined) {
          // Apollo too gets the document itself should the compiled path leave it: one lookup per request.
          fast = fastPathRequest((body = withDocument(body as Record<string, unknown>, query)));
          const remembered = sharedAnswerFor(options.sharedAnswer, fast, token);
          if (remembered) return remembered;
        }
      }
      const compiled = fast && (await options.fastPath!(fast, context, gated.state));
      if (compiled) return compiled;
      const headers = new HeaderMap();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
      }
      for (const [key, value] of Object.entries(gated.headers ?? {})) headers.set(key, value);
      return apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method, headers, search: gated.search ?? url.search, body }, context });
    };

    try {
      const result = await Promise.race([answer(), lifetime.expired]);
      if (result === 'timeout') {
        if (res.destroyed) return;
        options.onRefused?.('timeout');
        sendGraphQLError(req, res, 503, `The request did not finish within its deadline of ${options.requestTimeoutMs} ms.`, 'REQUEST_TIMEOUT', cors);
        return;
      }
      if (result === 'shutdown') {
        if (res.destroyed) return;
        sendGraphQLError(req, res, 503, SHUTDOWN_MESSAGE, 'SHUTTING_DOWN', { ...cors, 'retry-after': '0' });
        return;
      }
      if ('bytes' in result) {
        send(200, negotiated.headers, result.body, result.bytes);
        recordUnexecuted(requestId, started, rememberedFacts(result));
        return;
      }
      if (!('headers' in result)) {
        send(result.status, negotiated.headers, result.body);
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
    // The URL a POST to /graphql always has, parsed once: it is most requests.
    const url = req.url === '/graphql' ? GRAPHQL_URL : new URL(req.url ?? '/', 'http://localhost');
    switch (url.pathname) {
      case '/graphql':
        return graphql(req, res, url, requestId);
      case '/graphql/stream': {
        if (!options.stream) return sendJson(res, 404, { error: 'No route /graphql/stream: subscriptions over SSE are off.' });
        const cors = corsHeaders(options.cors, req);
        if (req.method === 'OPTIONS') {
          res.writeHead(204, { ...cors, 'content-length': '0' });
          res.end();
          return;
        }
        for (const [key, value] of Object.entries(cors)) res.setHeader(key, value);
        return options.stream(req, res);
      }
      case '/healthz':
        return sendJson(res, 200, { status: 'ok' });
      case '/readyz': {
        const readiness = await options.readiness();
        return sendJson(res, readiness.ready ? 200 : 503, { status: readiness.status, checks: readiness.checks });
      }
      // No /metrics here: metrics have a listener of their own (server/metrics-server.ts), which the
      // public one never reaches.
      default:
        return sendJson(res, 404, { error: `No route ${url.pathname}. GraphQL is at /graphql; also /healthz, /readyz.` });
    }
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    route(req, res).catch((error: unknown) => {
      logger.error({ err: error, url: req.url }, 'unhandled error in the HTTP layer');
      if (!res.headersSent) sendGraphQLError(req, res, 500, 'Internal server error.', 'INTERNAL_SERVER_ERROR');
      else res.destroy();
    });
  };
  return Object.assign(handle, {
    interruptInFlight(): number {
      // Each leaves the set only once its answer is sent, a turn later at the soonest.
      for (const lifetime of inFlight) lifetime.interrupt();
      return inFlight.size;
    },
  });
}
