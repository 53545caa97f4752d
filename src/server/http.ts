import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendGraphQLError, sendJson } from '../http/respond.js';
import type { Logger } from '../observability/logger.js';
import { quote } from '../text/received-value.js';
import { corsHeaders, type CorsPolicy } from '../http/cors.js';
import type { GraphQLHandler } from './graphql-handler.js';

/**
 * The routes of the public listener: GraphQL over HTTP at /graphql (graphql-handler.ts), GraphQL
 * over SSE at /graphql/stream, liveness at /healthz, readiness at /readyz. No framework, and no
 * /metrics: metrics have a listener of their own (metrics-server.ts), which this one never reaches.
 */

export interface Readiness {
  ready: boolean;
  /** `ready`, or why not (`draining`: shutdown has begun). */
  status: string;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

export interface RoutesOptions {
  graphql: GraphQLHandler;
  /** The explorer's files (development) under `/graphql/explorer/`, and its icon at `/favicon.ico`; undefined: none. */
  explorer?: (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<void>;
  /** GraphQL over SSE (graphql-sse) at `/graphql/stream`. */
  stream?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  readiness: () => Promise<Readiness>;
  cors: CorsPolicy;
  logger: Logger;
}

/** Node's request listener, and what shutdown asks of the requests it is still answering. */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * Has every request still at work answered 503 SHUTTING_DOWN at once, its backend calls aborted
   * (shutdown's grace period is over); returns how many there were. A request still sending its
   * body, or whose answer has begun, is left to the connection's end.
   */
  interruptInFlight(): number;
}

const EXPLORER_PATH = '/graphql/explorer/';
/** Asked for by every page a browser opens here; the explorer's icon. */
const FAVICON_PATH = '/favicon.ico';

/** Read only: shared by every request to the bare /graphql. */
const GRAPHQL_URL: Readonly<URL> = new URL('http://localhost/graphql');

export function createHttpHandler(options: RoutesOptions): HttpHandler {
  const { logger } = options;

  async function route(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The GraphQL handler writes the request id with each answer's own headers, in one go (a
    // header set beforehand makes Node merge the two sets on every answer); every other route
    // has it set here.
    if (url.pathname === '/graphql') return options.graphql(req, res, url, requestId);
    res.setHeader('x-request-id', requestId);
    if (options.explorer && (url.pathname.startsWith(EXPLORER_PATH) || url.pathname === FAVICON_PATH)) return options.explorer(req, res, url.pathname);
    switch (url.pathname) {
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
      default:
        return sendJson(res, 404, { error: `No route ${quote(url.pathname)}. GraphQL is at /graphql; also /healthz, /readyz.` });
    }
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const requestId = typeof req.headers['x-request-id'] === 'string' && /^[\w.-]{1,64}$/.test(req.headers['x-request-id']) ? req.headers['x-request-id'] : randomUUID();
    // A POST to /graphql, most requests, goes to its handler straight, with no promise of the
    // router's around the handler's own.
    const answering = req.url === '/graphql' ? options.graphql(req, res, GRAPHQL_URL, requestId) : route(req, res, requestId);
    answering.catch((error: unknown) => {
      logger.error({ err: error, url: req.url?.slice(0, 200) }, 'unhandled error in the HTTP layer');
      if (!res.headersSent) sendGraphQLError(req, res, 500, 'Internal server error.', 'INTERNAL_SERVER_ERROR', res.hasHeader('x-request-id') ? undefined : { 'x-request-id': requestId });
      else res.destroy();
    });
  };
  return Object.assign(handle, { interruptInFlight: () => options.graphql.interruptInFlight() });
}
