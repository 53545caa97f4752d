import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Admission } from './admission.js';
import { InFlight } from '../bounded/index.js';
import { csrfProblem, writeAnswer } from '../http/answer.js';
import { credentialsOf } from '../http/auth.js';
import { ClientGoneError, NOT_UTF8, NOT_UTF8_MESSAGE, checkBodyHeaders, parseJsonBody, readBody, refuseBody } from '../http/body.js';
import { corsHeaders, type CorsPolicy } from '../http/cors.js';
import { RequestLifetime } from './lifetime.js';
import { negotiate, prefersHtml, type Negotiated } from '../http/negotiation.js';
import { HttpError } from '../http/respond.js';
import type { AnswerSender, Logger } from '../observability/logger.js';
import type { Executors } from '../pipeline/executors.js';
import { paramsOf, paramsOfSearch } from '../pipeline/params.js';
import type { Pipeline, Prepared } from '../pipeline/pipeline.js';
import { ResponseFacts, etagOf, type RememberedAnswer, type ResponseCache } from '../pipeline/response-cache.js';
import { refusal, tokenRefusal, type TokenStanding } from '../pipeline/rules.js';
import type { Caller, Refusal, Transport } from '../pipeline/types.js';
import type { RequestRecord, UnexecutedRecord } from '../graphql/request-log.js';
import type { CallerOf } from './callers.js';

/**
 * GraphQL over HTTP at /graphql: resolve the caller from the headers → read the parameters within
 * that caller's bounds → the pipeline (every policy) → a remembered answer, or the executor →
 * write. Every request takes this one path, whichever executor runs it; only a browser asking for
 * the explorer's page is handed its page. How an answer is written (ETags, compression) is the
 * HTTP layer's (http/answer.ts).
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
  /** The one caller resolution of every transport. */
  callerOf: CallerOf;
  /** The process's one check of a partner token: a body larger than a public one is read only for a token the API accepted. */
  checkToken(token: string): TokenStanding | Promise<TokenStanding>;
  clientAddress(req: IncomingMessage): string;
  executors: Executors<C>;
  context(info: RequestInfo): Promise<C>;
  /** The page a browser gets at the endpoint (GraphiQL or Apollo Sandbox); undefined where there is none (production). */
  landingPage: LandingPage | undefined;
  /** The largest body of a partner, and of an app or a caller without a token. */
  bodyLimits: { partner: number; public: number };
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
  /**
   * Runs what writes an answer's last bytes, now or later in the turn: given every answer whose
   * line `record` or `recordUnexecuted` writes in the same turn (the request log's `sendAnswer`).
   */
  sendAnswer: AnswerSender;
  /** Told about refusals made before the pipeline (size, type, JSON, deadline). */
  onRefused?: (reason: BodyRefusal | 'timeout') => void;
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

const PRIVATE = Object.freeze({ 'cache-control': 'private, no-store' });
const NO_STORE = Object.freeze({ 'cache-control': 'no-store' });

/** The body of an answer: errors first, then data and extensions, a newline at the end. */
function serialize(data: unknown, errors: readonly GraphQLFormattedError[] | undefined, extensions: Record<string, unknown> | undefined): string {
  if (!errors && !extensions) return `${JSON.stringify({ data })}\n`;
  return `${JSON.stringify({ ...(errors ? { errors } : {}), data, ...(extensions ? { extensions } : {}) })}\n`;
}

/** Node's request listener for /graphql, and what shutdown asks of the requests still at work. */
export interface GraphQLHandler {
  (req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void>;
  interruptInFlight(): number;
}

export function createGraphQLHandler<C>(options: GraphQLHandlerOptions<C>): GraphQLHandler {
  const { logger } = options;
  const inFlight = new InFlight<RequestLifetime>();

  /** The answer's caching headers: public and validated for an app's GET of a cacheable answer, else never stored. */
  function cachingHeaders(caller: Caller | undefined, transport: Transport, cacheable: { etag: string } | undefined): Readonly<Record<string, string>> {
    if (caller?.kind !== 'app') return PRIVATE;
    if (transport !== 'get' || !cacheable) return NO_STORE;
    // Vary names both: CORS answers vary by Origin, and a CDN must never give one app's answer to another.
    return { 'cache-control': options.publicCacheControl, etag: cacheable.etag, vary: 'Origin, X-App-Key' };
  }

  const bodyOf = (errors: readonly GraphQLError[]) => serialize(undefined, errors.map(options.format), undefined);

  /** A refusal, its errors through the one formatter; a body still unread is discarded (within bounds) before the connection closes. */
  function writeRefusal(req: IncomingMessage, res: ServerResponse, refused: Refusal, cors: Readonly<Record<string, string>>, caller: Caller | undefined): void {
    if (res.headersSent) return;
    const body = bodyOf(refused.errors);
    const headers = { ...cors, ...(caller?.kind === 'app' ? NO_STORE : PRIVATE), ...refused.headers };
    if (req.method === 'POST' && !req.complete) return refuseBody(req, res, refused, headers, body, options.sendAnswer);
    res.writeHead(refused.status, { ...headers, 'content-type': negotiate(req.headers.accept).type, 'content-length': Buffer.byteLength(body, 'utf8') });
    options.sendAnswer(() => res.end(body, 'utf8'));
  }

  const refusalOf = (error: HttpError): Refusal => refusal(error.status, error.message, error.code, { headers: error.headers });

  /**
   * The raw parameters of a request from a caller already known, as text (a POST's body within the
   * caller's bound, a GET's query string); a refusal of the body; undefined once answered (with
   * `refuseBody`, or the client left).
   */
  async function rawFrom(req: IncomingMessage, method: 'GET' | 'POST', url: URL, caller: Caller, refuseBody: (reason: BodyRefusal, refused: Refusal) => void, requestId: string): Promise<string | Refusal | undefined> {
    if (method === 'GET') return url.search;
    let raw: Awaited<ReturnType<typeof readBody>>;
    try {
      const { partner, public: small } = options.bodyLimits;
      const limit = caller.kind === 'partner' ? partner : small;
      const whose = caller.kind === 'partner' ? '' : caller.kind === 'app' ? ' for an app key' : ' for a request without a partner token';
      checkBodyHeaders(req, limit, whose);
      if (limit > small && !(Number(req.headers['content-length']) <= small)) {
        // A body larger than anybody but a partner may send is read only for a token the campaign API accepted.
        const checking = options.checkToken((caller as Caller & { kind: 'partner' }).token);
        const refused = tokenRefusal(checking instanceof Promise ? await checking : checking);
        if (refused) return refused;
      }
      raw = await readBody(req, limit, whose);
    } catch (error) {
      if (error instanceof ClientGoneError) {
        logger.debug({ requestId, reason: error.message }, 'client went away while sending its body');
        return undefined;
      }
      if (!(error instanceof HttpError)) throw error;
      refuseBody(error.status === 413 ? 'body_too_large' : 'unsupported_media_type', refusalOf(error));
      return undefined;
    }
    if (raw !== NOT_UTF8) return raw;
    // Bytes that are not UTF-8 are no text: refused as a body that is not JSON is.
    refuseBody('malformed_json', refusal(400, NOT_UTF8_MESSAGE, 'BAD_REQUEST'));
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
    const started = performance.now();
    // HEAD is answered as GET is, without the body (Node leaves it out).
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    // Every answer's own headers: CORS, and the request id (set with the rest, in one writeHead).
    const cors = { ...corsHeaders(options.cors, req), 'x-request-id': requestId };
    const answerError = (status: number, message: string, code: string, headers: Record<string, string> = {}) => {
      writeRefusal(req, res, refusal(status, message, code, { headers }), cors, undefined);
      options.recordUnexecuted({ requestId, path: 'http', errorCode: code, durationMs: performance.now() - started });
    };
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'content-length': '0' });
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'POST') {
      return answerError(405, `Method ${method} is not allowed on /graphql; use POST (or GET for queries).`, 'METHOD_NOT_ALLOWED', { allow: 'GET, HEAD, POST, OPTIONS' });
    }
    if (method === 'GET' && options.landingPage && prefersHtml(req.headers.accept)) {
      const html = await options.landingPage.render();
      res.writeHead(200, { ...cors, ...options.landingPage.headers, 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html, 'utf8') });
      res.end(html, 'utf8');
      return;
    }

    const negotiated = negotiate(req.headers.accept);
    const refuse = (refused: Refusal, caller: Caller | undefined, operation?: Refusal['operation']) => {
      options.onRefusal?.(refused);
      writeRefusal(req, res, refused, cors, caller);
      options.recordUnexecuted({
        requestId,
        path: 'gate',
        errorCode: refusalCode(refused),
        durationMs: performance.now() - started,
        ...(operation ? { operationName: operation.name, operationType: operation.type } : {}),
      });
    };
    if (!negotiated.acceptable) return answerError(406, 'The Accept header admits neither application/graphql-response+json nor application/json.', 'NOT_ACCEPTABLE');
    if (method === 'GET') {
      const csrf = csrfProblem(req);
      if (csrf) return refuse(refusal(400, csrf, 'BAD_REQUEST'), undefined);
    }

    // Who is calling, from the headers alone, before any of the body is read: it bounds the body.
    const caller = options.callerOf(credentialsOf(req.headers));
    if ('errors' in caller) return refuse(caller, undefined);
    // A body refused before the pipeline sees it: counted by its reason, answered on the HTTP path.
    const refuseBody = (reason: BodyRefusal, refused: Refusal) => {
      options.onRefused?.(reason);
      writeRefusal(req, res, refused, cors, caller);
      options.recordUnexecuted({ requestId, path: 'http', errorCode: refusalCode(refused), durationMs: performance.now() - started });
    };
    const raw = await rawFrom(req, method, url, caller, refuseBody, requestId);
    if (raw === undefined) return;
    if (typeof raw !== 'string') return refuse(raw, caller);
    const transport: Transport = method === 'GET' ? 'get' : 'post';
    // The body is read as JSON only when the pipeline has not judged the same text already.
    let unreadable = false;
    const read =
      method === 'GET'
        ? (search: string) => paramsOfSearch(new URLSearchParams(search))
        : (body: string) => {
            try {
              return paramsOf(parseJsonBody(body));
            } catch (error) {
              if (!(error instanceof HttpError)) throw error;
              unreadable = true;
              return refusalOf(error);
            }
          };
    const preparing = options.pipeline.prepareRaw(raw, read, { caller, transport, client: options.clientAddress(req) });
    const prepared = preparing instanceof Promise ? await preparing : preparing;
    if ('errors' in prepared) {
      return unreadable ? refuseBody('malformed_json', prepared) : refuse(prepared, caller, prepared.operation);
    }

    const remembered = options.responses.lookup(prepared);
    if (remembered) return sendRemembered(req, res, prepared, remembered, cors, negotiated, requestId, started);
    await execute(req, res, prepared, cors, negotiated, requestId, started);
  }

  /** A promise only while the answer is being compressed: a warm answer is sent in the turn it was found in. */
  function sendRemembered(req: IncomingMessage, res: ServerResponse, prepared: Prepared, remembered: RememberedAnswer, cors: Readonly<Record<string, string>>, negotiated: Negotiated, requestId: string, started: number): void | Promise<void> {
    const { caller, transport } = prepared.situation;
    const writing = writeAnswer(req, res, { ...cors, ...negotiated.headers, ...cachingHeaders(caller, transport, remembered) }, remembered.bytes, {
      compression: options.compression,
      owner: remembered,
      send: options.sendAnswer,
    });
    const record = () =>
      options.recordUnexecuted({ requestId, path: 'remembered', operationName: remembered.operationName, operationType: remembered.operationType, durationMs: performance.now() - started });
    if (writing) return writing.then(record);
    record();
  }

  async function execute(req: IncomingMessage, res: ServerResponse, prepared: Prepared, cors: Readonly<Record<string, string>>, negotiated: Negotiated, requestId: string, started: number): Promise<void> {
    const { caller, transport } = prepared.situation;
    const lifetime = new RequestLifetime(res, options.requestTimeoutMs, options.admission, inFlight);
    // The same answer being made by another request: wait for it, within this request's own
    // deadline. A request that waited in vain executes itself, and does not make others wait.
    const { waitFor, made } = options.responses.share(prepared);
    let remembered: RememberedAnswer | undefined;
    const facts = new ResponseFacts();
    let contextValue: C | undefined;
    let path: 'apollo' | 'compiled' = 'apollo';
    const run = async () => {
      contextValue = await options.context({ requestId, caller, signal: lifetime.signal, admit: lifetime.admit, response: facts });
      const running = options.executors.execute(prepared, contextValue);
      path = running.path;
      return running.execution;
    };
    const line = (errors: RequestRecord['errors'], hasData: boolean): ExecutedRecord => ({
      requestId,
      contextValue,
      operationName: prepared.operation.name?.value,
      operationType: prepared.operation.operation,
      errors,
      hasData,
      durationMs: performance.now() - started,
      path,
    });
    try {
      const waited = waitFor ? await Promise.race([waitFor, lifetime.expired]) : undefined;
      if (typeof waited === 'object') return await sendRemembered(req, res, prepared, waited, cors, negotiated, requestId, started);
      const outcome = waited ?? (await Promise.race([run(), lifetime.expired]));
      if (outcome === 'timeout' || outcome === 'shutdown') {
        const lapsed =
          outcome === 'timeout'
            ? refusal(503, `The request did not finish within its deadline of ${options.requestTimeoutMs} ms.`, 'REQUEST_TIMEOUT')
            : refusal(503, SHUTDOWN_MESSAGE, 'SHUTTING_DOWN', { headers: { 'retry-after': '0' } });
        if (!res.destroyed) {
          if (outcome === 'timeout') options.onRefused?.('timeout');
          writeRefusal(req, res, lapsed, cors, undefined);
        }
        // Its line says what the client got, as it is sent.
        const code = refusalCode(lapsed);
        options.record(line([{ message: code, extensions: { code } }], false));
        return;
      }
      const body = serialize(outcome.data, outcome.errors, facts.extensions);
      remembered = outcome.errors ? undefined : options.responses.remember(prepared, body, facts);
      // An app's GET is validated for HTTP caches even when the answer could not be remembered here.
      const cacheable = remembered ?? (caller.kind === 'app' && transport === 'get' && !outcome.errors && !facts.uncacheable && options.responses.policy(prepared) ? { etag: etagOf(body) } : undefined);
      const headers = { ...cors, ...negotiated.headers, ...cachingHeaders(caller, transport, cacheable) };
      const writing = writeAnswer(req, res, headers, remembered?.bytes ?? Buffer.from(body, 'utf8'), { compression: options.compression, send: options.sendAnswer, ...(remembered ? { owner: remembered } : {}) });
      if (writing) await writing;
      options.record(line(outcome.errors ?? [], outcome.data != null));
    } finally {
      made?.(remembered);
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

/** Why a body was refused before the pipeline read it, as the refusal metric counts it. */
type BodyRefusal = 'body_too_large' | 'unsupported_media_type' | 'malformed_json';

const refusalCode = (refused: Refusal): string => {
  const code = refused.errors[0]?.extensions?.code;
  return typeof code === 'string' ? code : 'BAD_REQUEST';
};
