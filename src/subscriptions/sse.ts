import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import { print } from 'graphql-sse';
import { credentialsOf } from '../http/auth.js';
import { ClientGoneError, checkBodyHeaders, parseJsonBody, readBody, refuseBody } from '../http/body.js';
import { HttpError } from '../http/respond.js';
import type { Execution } from '../pipeline/executors.js';
import { paramsOf, paramsOfSearch, type GraphQLParams } from '../pipeline/params.js';
import { refusal } from '../pipeline/rules.js';
import type { Refusal } from '../pipeline/types.js';
import type { OpenStreams } from './streams.js';

export interface SseOptions {
  open: OpenStreams;
  formatError(error: GraphQLError): GraphQLFormattedError;
  limits: { maxMessageBytes: number };
  onConnection?: (change: 1 | -1) => void;
  /** An event (a result with data) is being sent to a subscriber. */
  onEvent?: () => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The headers of an event stream, as graphql-sse's own handler sends them. */
const STREAM_HEADERS = Object.freeze({
  connection: 'keep-alive',
  'cache-control': 'no-cache',
  'content-encoding': 'none',
  'content-type': 'text/event-stream; charset=utf-8',
});

/** A comment line every so often keeps proxies from closing a quiet stream. */
const PING_INTERVAL_MS = 12_000;

/**
 * GraphQL over Server-Sent Events, graphql-sse's "distinct connections" mode (one POST, or GET,
 * with `Accept: text/event-stream` per subscription, the events on its response; what graphql-sse's
 * client speaks): the protocol alone, its messages printed by graphql-sse. The caller is resolved
 * from the headers before the body is read, by the same reading as any request, and admitted by
 * the pipeline; the body is read as a POST to /graphql is (JSON, UTF-8, within its bounds); the
 * operation is judged by the pipeline and run by the one executor. Every refusal is answered with
 * its status and its errors through the one formatter; a refused operation, once the stream is
 * for its partner, is streamed as one result with the errors, then `complete`, as graphql-sse's
 * clients expect.
 */
export function createSseHandler(options: SseOptions) {
  const streams = new Set<ServerResponse>();
  let closing = false;

  const bodyOf = (refused: Refusal) => JSON.stringify({ errors: refused.errors.map((error) => options.formatError(error)) });

  /** A refusal with its status; a body still unread is discarded (within bounds) before the connection closes. */
  function refuse(res: ServerResponse, refused: Refusal, req?: IncomingMessage): void {
    const body = bodyOf(refused);
    if (req && req.method === 'POST' && !req.complete) return refuseBody(req, res, refused, {}, body);
    res.writeHead(refused.status, { ...refused.headers, 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  const refusalOf = (error: HttpError): Refusal => refusal(error.status, error.message, error.code, { headers: error.headers });

  /** The request's parameters: a GET's search, or a POST's JSON body; undefined once answered (a malformed request: 400). */
  async function paramsFrom(req: IncomingMessage, res: ServerResponse): Promise<GraphQLParams | undefined> {
    let params: GraphQLParams | Refusal;
    if (req.method === 'GET') params = paramsOfSearch(new URL(req.url ?? '/', 'http://localhost').searchParams);
    else {
      try {
        params = paramsOf(parseJsonBody(await readBody(req, options.limits.maxMessageBytes)));
      } catch (error) {
        if (error instanceof ClientGoneError) return undefined;
        if (!(error instanceof HttpError)) throw error;
        refuse(res, refusalOf(error), error.status === 413 ? req : undefined);
        return undefined;
      }
    }
    if (!('errors' in params)) return params;
    refuse(res, params);
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (closing) return refuse(res, refusal(503, 'The server is shutting down; subscribe again to reach another instance.', 'SHUTTING_DOWN'), req);
    if (req.method !== 'POST' && req.method !== 'GET') {
      return refuse(res, refusal(405, `Method ${req.method} is not allowed on /graphql/stream; POST a subscription with Accept: text/event-stream.`, 'METHOD_NOT_ALLOWED', { headers: { allow: 'GET, POST' } }), req);
    }
    if (!req.headers.accept?.includes('text/event-stream')) {
      return refuse(res, refusal(406, 'Send Accept: text/event-stream: this path streams subscription events (graphql-sse).', 'NOT_ACCEPTABLE'), req);
    }
    if (req.method === 'POST') {
      try {
        // A JSON body, as a POST to /graphql: a form a browser sends across sites is refused unread.
        checkBodyHeaders(req, options.limits.maxMessageBytes);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return refuse(res, refusalOf(error), req);
      }
    }
    const stream = await options.open(credentialsOf(req.headers), 'sse', req);
    // Answered before the body is read: the rest of it is thrown away as for a refused body.
    if ('errors' in stream) return refuse(res, stream, req);
    options.onConnection?.(1);
    const abort = new AbortController();
    try {
      const params = await paramsFrom(req, res);
      if (params === undefined) return;
      const prepared = await stream.prepare(params);
      const result: AsyncIterableIterator<Execution> | Execution =
        'errors' in prepared ? { data: undefined, errors: prepared.errors.map((error) => options.formatError(error)) } : await stream.subscribe(prepared, abort.signal);
      await send(res, result);
    } finally {
      abort.abort(new Error('the stream closed'));
      stream.close();
      options.onConnection?.(-1);
    }
  }

  /** The stream: its events as they come (each respecting the client's pace), then `complete`. */
  async function send(res: ServerResponse, result: AsyncIterableIterator<Execution> | Execution): Promise<void> {
    const events = Symbol.asyncIterator in result ? result : undefined;
    res.writeHead(200, STREAM_HEADERS);
    // Some browsers show nothing of a stream until its first bytes.
    res.write(':\n\n');
    streams.add(res);
    const ping = setInterval(() => res.write(':\n\n'), PING_INTERVAL_MS);
    // The client went away: end the subscription, which frees its watcher.
    const onClose = () => void events?.return?.(undefined);
    res.once('close', onClose);
    const write = async (execution: Execution) => {
      if (execution.data != null) options.onEvent?.();
      const { data, errors } = execution;
      // Respect backpressure: a slow client holds its own queue (bounded by the watcher).
      // Formatted already: graphql-sse's printer writes the result as JSON, as its handler would.
      const next = (errors ? { errors, data } : { data }) as unknown as ExecutionResult;
      if (!res.write(print({ event: 'next', data: next }))) {
        await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
    };
    try {
      if (events) {
        for await (const execution of events) {
          if (!res.writable) break;
          await write(execution);
        }
      } else {
        await write(result as Execution);
      }
      if (res.writable) res.end(print({ event: 'complete', data: null }));
    } finally {
      clearInterval(ping);
      res.off('close', onClose);
      streams.delete(res);
      if (!res.writableEnded) res.end();
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
