import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Admission } from './admission.js';
import { ClientGoneError, NOT_UTF8, checkBodyHeaders, parseJsonBody, readBody, refuseBody } from '../http/body.js';
import { corsHeaders, type CorsPolicy } from '../http/cors.js';
import { RequestLifetime } from './lifetime.js';
import { negotiate, prefersHtml, type Negotiated } from '../http/negotiation.js';
import { COMPRESSION_THRESHOLD_BYTES, codedEtag, coded, codingFor } from '../http/compression.js';
import { HttpError, sendGraphQLError } from '../http/respond.js';
import type { Logger } from '../observability/logger.js';
import type { Executor } from '../pipeline/executors.js';
import { paramsOf, paramsOfSearch, type GraphQLParams } from '../pipeline/params.js';
import type { Pipeline, Prepared } from '../pipeline/pipeline.js';
import { ResponseFacts, etagOf, type RememberedAnswer, type ResponseCache } from '../pipeline/response-cache.js';
import type { Caller, Refusal, Transport } from '../pipeline/types.js';
import type { RequestRecord, UnexecutedRecord } from '../graphql/request-log.js';

/**
 * GraphQL over HTTP at /graphql: read the parameters → resolve the caller → the pipeline (every
 * policy) → a remembered answer, or an executor → write. Every request takes this one path,
 * whichever executor runs it; only a browser asking for the explorer's page is handed to Apollo
 * as it is.
 */

/** The endpoint's page for a browser, and the headers it goes with. */
export interface LandingPage {
  render(): Promise<string> | string;
  headers: Readonly<Record<string, string>>;
}

/** What the context factory is given for a request that runs. */
export interface RequestInfo {
  requestId: string;
  caller: Caller;
  /** Aborted at the request deadline or when the client goes away; made on first call. */
  signal: () => AbortSignal;
  /** Asked before each backend call (admission control while the process is saturated). */
  admit: () => Promise<void> | undefined;
  /** What the execution tells the response stage (freshness of what it read, extensions). */
  response: ResponseFacts;
}

/** The request line of a request that ran: the recorder's record, with what it reads its meta from. */
export type ExecutedRecord = Omit<RequestRecord, 'meta'> & { requestId: string; contextValue: unknown };

export interface GraphQLHandlerOptions<C> {
  pipeline: Pipeline;
  responses: ResponseCache;
  callerOf(req: IncomingMessage): Caller | Refusal;
  clientAddress(req: IncomingMessage): string;
  apollo: Executor<C>;
  /** Runs documents already run once (undefined: Apollo runs every request). */
  compiled: Executor<C> | undefined;
  context(info: RequestInfo): Promise<C>;
  /** The page a browser gets at the endpoint (GraphiQL or Apollo Sandbox); undefined where there is none (production). */
  landingPage: LandingPage | undefined;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  cors: CorsPolicy;
  admission: Admission | undefined;
  /** `Cache-Control` of an app's cacheable GET answer. */
  publicCacheControl: string;
  /** Answers worth it go out in brotli or gzip when the client accepts one. */
  compression: boolean;
  logger: Logger;
  /** How every error leaves (src/graphql/errors.ts). */
  format(error: GraphQLError): GraphQLFormattedError;
  record(record: ExecutedRecord): void;
  recordUnexecuted(record: UnexecutedRecord): void;
  /** Told about refusals made before the pipeline (size, type, JSON, deadline). */
  onRefused?: (reason: 'body_too_large' | 'unsupported_media_type' | 'malformed_json' | 'timeout') => void;
  /** Told about the pipeline's refusals. */
  onRefusal?: (refusal: Refusal) => void;
}

/**
 * Said to a request still at work when shutdown's grace period ends. A mutation's backend call was
 * under way and is abandoned: the backend may have done it, and only reading the data tells.
 */
const SHUTDOWN_MESSAGE =
  'The server shut down before this request finished. Send a query again (another instance will answer it); ' +
  'a mutation may or may not have taken effect, so read the data before sending it again.';

const CSRF_MESSAGE =
  'This GET request has been blocked as a potential cross-site request forgery: send it with a header a browser form cannot set ' +
  '(apollo-require-preflight: true, or x-apollo-operation-name), or send the operation as a POST with Content-Type: application/json.';

const PRIVATE = Object.freeze({ 'cache-control': 'private, no-store' });
const NO_STORE = Object.freeze({ 'cache-control': 'no-store' });

/** Whether `If-None-Match` names this ETag (weak or strong, or `*`). */
function matches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** The body of an answer: errors first, then data and extensions, a newline at the end. */
function serialize(data: unknown, errors: readonly GraphQLFormattedError[] | undefined, extensions: Record<string, unknown> | undefined, json: string | undefined): string {
  if (!errors && !extensions) return `${json ?? JSON.stringify({ data })}\n`;
  return `${JSON.stringify({ ...(errors ? { errors } : {}), data, ...(extensions ? { extensions } : {}) })}\n`;
}

/** Node's request listener for /graphql, and what shutdown asks of the requests still at work. */
export interface GraphQLHandler {
  (req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void>;
  interruptInFlight(): number;
}

export function createGraphQLHandler<C>(options: GraphQLHandlerOptions<C>): GraphQLHandler {
  const { logger } = options;
  const inFlight = new Set<RequestLifetime>();

  /** The answer's caching headers: public and validated for an app's GET of a cacheable answer, else never stored. */
  function cachingHeaders(caller: Caller | undefined, transport: Transport, cacheable: RememberedAnswer | undefined): Readonly<Record<string, string>> {
    if (caller?.kind !== 'app') return PRIVATE;
    if (transport !== 'get' || !cacheable) return NO_STORE;
    // Vary names both: CORS answers vary by Origin, and a CDN must never give one app's answer to another.
    return { 'cache-control': options.publicCacheControl, etag: cacheable.etag, vary: 'Origin, X-App-Key' };
  }

  function writeRefusal(res: ServerResponse, refusal: Refusal, cors: Readonly<Record<string, string>>, caller: Caller | undefined, negotiated: Negotiated): void {
    const body = serialize(undefined, refusal.errors.map(options.format), undefined, undefined);
    res.writeHead(refusal.status, {
      ...cors,
      ...(caller?.kind === 'app' ? NO_STORE : PRIVATE),
      ...negotiated.headers,
      'content-length': Buffer.byteLength(body, 'utf8'),
      ...refusal.headers,
    });
    res.end(body, 'utf8');
  }

  /**
   * A complete answer: a 304 where the client holds it already; compressed when the client
   * accepts it and the body is worth it, each coding its own representation (its own ETag). A
   * remembered answer keeps its compressed copies, so a warm answer is compressed once.
   */
  /** `headers` is the answer's own (made for it): the coding and length are added to it. */
  function write(req: IncomingMessage, res: ServerResponse, headers: Record<string, string | number>, body: string, remembered?: RememberedAnswer): void | Promise<void> {
    const bytes = remembered?.bytes ?? Buffer.from(body, 'utf8');
    const coding = options.compression && bytes.length >= COMPRESSION_THRESHOLD_BYTES ? codingFor(req.headers['accept-encoding']) : undefined;
    if (coding) {
      headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
      if (headers.etag) headers.etag = codedEtag(String(headers.etag), coding);
    }
    if (headers.etag && matches(req.headers['if-none-match'], String(headers.etag))) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    if (!coding || coding === 'identity') {
      headers['content-length'] = bytes.length;
      res.writeHead(200, headers);
      res.end(bytes);
      return;
    }
    const send = (encoded: Buffer) => {
      // The client may have gone while its answer was compressed.
      if (res.destroyed || res.headersSent) return;
      headers['content-encoding'] = coding;
      headers['content-length'] = encoded.length;
      res.writeHead(200, headers);
      res.end(encoded);
    };
    const encoded = coded(bytes, coding, remembered);
    return Buffer.isBuffer(encoded) ? send(encoded) : encoded.then(send);
  }

  async function paramsFrom(req: IncomingMessage, res: ServerResponse, method: 'GET' | 'POST', url: URL, cors: Readonly<Record<string, string>>, requestId: string, started: number): Promise<GraphQLParams | Refusal | undefined> {
    if (method === 'GET') {
      if (req.headers['apollo-require-preflight'] === undefined && req.headers['x-apollo-operation-name'] === undefined && req.headers['x-app-key'] === undefined) {
        return { status: 400, errors: [new GraphQLError(CSRF_MESSAGE, { extensions: { code: 'BAD_REQUEST' } })] };
      }
      return paramsOfSearch(url.searchParams);
    }
    let raw: string | typeof NOT_UTF8;
    try {
      checkBodyHeaders(req, options.bodyLimitBytes);
      raw = await readBody(req, options.bodyLimitBytes);
    } catch (error) {
      if (error instanceof ClientGoneError) {
        logger.debug({ requestId, reason: error.message }, 'client went away while sending its body');
        return undefined;
      }
      if (!(error instanceof HttpError)) throw error;
      options.onRefused?.(error.status === 413 ? 'body_too_large' : 'unsupported_media_type');
      refuseBody(req, res, error, cors);
      options.recordUnexecuted({ requestId, path: 'http', errorCode: error.code, durationMs: performance.now() - started });
      return undefined;
    }
    let body: unknown;
    try {
      body = parseJsonBody(raw);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      options.onRefused?.('malformed_json');
      sendGraphQLError(req, res, error.status, error.message, error.code, cors);
      options.recordUnexecuted({ requestId, path: 'http', errorCode: error.code, durationMs: performance.now() - started });
      return undefined;
    }
    return paramsOf(body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
    const started = performance.now();
    // HEAD is answered as GET is, without the body (Node leaves it out).
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const cors = corsHeaders(options.cors, req);
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'content-length': '0' });
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'POST') {
      sendGraphQLError(req, res, 405, `Method ${method} is not allowed on /graphql; use POST (or GET for queries).`, 'METHOD_NOT_ALLOWED', { ...cors, allow: 'GET, HEAD, POST, OPTIONS' });
      options.recordUnexecuted({ requestId, path: 'http', errorCode: 'METHOD_NOT_ALLOWED', durationMs: performance.now() - started });
      return;
    }
    if (method === 'GET' && options.landingPage && prefersHtml(req.headers.accept)) {
      const html = await options.landingPage.render();
      res.writeHead(200, { ...cors, ...options.landingPage.headers, 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html, 'utf8') });
      res.end(html, 'utf8');
      return;
    }

    const negotiated = negotiate(req.headers.accept);
    const refuse = (refusal: Refusal, caller: Caller | undefined, operation?: Refusal['operation']) => {
      options.onRefusal?.(refusal);
      writeRefusal(res, refusal, cors, caller, negotiated);
      options.recordUnexecuted({
        requestId,
        path: 'gate',
        errorCode: refusalCode(refusal),
        durationMs: performance.now() - started,
        ...(operation ? { operationName: operation.name, operationType: operation.type } : {}),
      });
    };
    if (!negotiated.acceptable) {
      sendGraphQLError(req, res, 406, 'The Accept header admits neither application/graphql-response+json nor application/json.', 'NOT_ACCEPTABLE', cors);
      options.recordUnexecuted({ requestId, path: 'http', errorCode: 'NOT_ACCEPTABLE', durationMs: performance.now() - started });
      return;
    }

    const params = await paramsFrom(req, res, method, url, cors, requestId, started);
    if (params === undefined) return;
    const caller = options.callerOf(req);
    if ('errors' in caller) return refuse(caller, undefined);
    if ('errors' in params) return refuse(params, caller);
    const transport: Transport = method === 'GET' ? 'get' : 'post';
    const preparing = options.pipeline.prepare(params, { caller, transport, client: options.clientAddress(req) });
    const prepared = preparing instanceof Promise ? await preparing : preparing;
    if ('errors' in prepared) return refuse(prepared, caller, prepared.operation);

    const remembered = options.responses.lookup(prepared);
    if (remembered) {
      const writing = write(req, res, { ...cors, ...negotiated.headers, ...cachingHeaders(caller, transport, remembered) }, remembered.body, remembered);
      if (writing) await writing;
      options.recordUnexecuted({ requestId, path: 'remembered', operationName: remembered.operationName, operationType: remembered.operationType, durationMs: performance.now() - started });
      return;
    }
    await execute(req, res, prepared, cors, negotiated, requestId, started);
  }

  async function execute(req: IncomingMessage, res: ServerResponse, prepared: Prepared, cors: Readonly<Record<string, string>>, negotiated: Negotiated, requestId: string, started: number): Promise<void> {
    const { caller, transport } = prepared.situation;
    const lifetime = new RequestLifetime(res, options.requestTimeoutMs, options.admission, inFlight);
    const facts = new ResponseFacts();
    // The first run of a document is Apollo's; the same document again runs compiled.
    const runs = prepared.document.memo(`runs:${prepared.operationName ?? ''}`, () => ({ count: 0 }));
    const executor = options.compiled && runs.count++ > 0 ? options.compiled : options.apollo;
    let contextValue: C | undefined;
    const run = async () => {
      contextValue = await options.context({ requestId, caller, signal: lifetime.signal, admit: lifetime.admit, response: facts });
      return executor.execute(prepared, contextValue);
    };
    try {
      const outcome = await Promise.race([run(), lifetime.expired]);
      if (outcome === 'timeout' || outcome === 'shutdown') {
        const code = outcome === 'timeout' ? 'REQUEST_TIMEOUT' : 'SHUTTING_DOWN';
        if (!res.destroyed) {
          if (outcome === 'timeout') {
            options.onRefused?.('timeout');
            sendGraphQLError(req, res, 503, `The request did not finish within its deadline of ${options.requestTimeoutMs} ms.`, 'REQUEST_TIMEOUT', cors);
          } else {
            sendGraphQLError(req, res, 503, SHUTDOWN_MESSAGE, 'SHUTTING_DOWN', { ...cors, 'retry-after': '0' });
          }
        }
        // Its line says what the client got, as it is sent.
        options.record({
          requestId,
          contextValue,
          operationName: prepared.operation.name?.value,
          operationType: prepared.operation.operation,
          errors: [{ message: code, extensions: { code } }],
          hasData: false,
          durationMs: performance.now() - started,
          path: executor.name,
        });
        return;
      }
      const body = serialize(outcome.data, outcome.errors, facts.extensions, outcome.json);
      const remembered = outcome.errors ? undefined : options.responses.remember(prepared, body, facts);
      // An app's GET is validated for HTTP caches even when the answer could not be remembered here.
      const cacheable = remembered ?? (caller.kind === 'app' && transport === 'get' && !outcome.errors && !facts.uncacheable && options.responses.policy(prepared) ? { etag: etagOf(body) } : undefined);
      const writing = write(req, res, { ...cors, ...negotiated.headers, ...cachingHeaders(caller, transport, cacheable as RememberedAnswer | undefined) }, body, remembered);
      if (writing) await writing;
      options.record({
        requestId,
        contextValue,
        operationName: prepared.operation.name?.value,
        operationType: prepared.operation.operation,
        errors: outcome.errors ?? [],
        hasData: outcome.data != null,
        durationMs: performance.now() - started,
        path: executor.name,
      });
    } finally {
      lifetime.end();
    }
  }

  return Object.assign(handle, {
    interruptInFlight(): number {
      // Each leaves the set only once its answer is sent, a turn later at the soonest.
      for (const lifetime of inFlight) lifetime.interrupt();
      return inFlight.size;
    },
  });
}

const refusalCode = (refusal: Refusal): string => {
  const code = refusal.errors[0]?.extensions?.code;
  return typeof code === 'string' ? code : 'BAD_REQUEST';
};
