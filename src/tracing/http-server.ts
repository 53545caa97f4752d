import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import { SpanBudget, withSpanBudget } from './budget.js';

const ROUTE = '/graphql';
const KNOWN_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'OPTIONS', 'HEAD', 'PUT', 'PATCH', 'DELETE']);

const isGraphqlRoute = (url: string | undefined) => url === ROUTE || (url !== undefined && url.startsWith(`${ROUTE}?`));

/**
 * The server span of every request to /graphql, made here with the API and the W3C propagator
 * rather than by @opentelemetry/instrumentation-http. That instrumentation patches node:http when
 * the module is first required, which for the compiled ES modules `npm start` runs would need a
 * loader hook (`node --import`) ahead of the entry point; it would also record the full URL,
 * whose query string carries a GET request's GraphQL document and variables. Health, readiness
 * and metrics requests get no span: probes every few seconds would bury the traces that matter.
 *
 * A `traceparent` from the client is continued (same trace id); nothing else of the trace context
 * it sends is read (sdk.ts registers a propagator of `traceparent` alone). Only the method, route,
 * protocol and status are recorded; the GraphQL layer adds the operation (tracing/graphql.ts).
 * Every span of the request draws on its SpanBudget; the request span says how many were dropped.
 */
export function traceGraphqlRequests(handler: RequestListener, tracer: Tracer): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!isGraphqlRoute(req.url)) {
      handler(req, res);
      return;
    }
    const budget = new SpanBudget();
    const parent = withSpanBudget(propagation.extract(ROOT_CONTEXT, req.headers), budget);
    const method = req.method && KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
    const span = tracer.startSpan(
      `${method} ${ROUTE}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: method,
          [ATTR_HTTP_ROUTE]: ROUTE,
          [ATTR_URL_PATH]: ROUTE,
          [ATTR_URL_SCHEME]: 'http',
          [ATTR_NETWORK_PROTOCOL_VERSION]: req.httpVersion,
        },
      },
      parent,
    );
    res.once('close', () => {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
      if (budget.dropped > 0) span.setAttribute('bff.spans_dropped', budget.dropped);
      if (!res.writableFinished) {
        // The client went away, or the connection was cut, before the answer was sent.
        span.setAttribute(ATTR_ERROR_TYPE, 'connection_closed');
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed before the response was sent' });
      } else if (res.statusCode >= 500) {
        span.setAttribute(ATTR_ERROR_TYPE, String(res.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${res.statusCode}` });
      }
      span.end();
    });
    context.with(trace.setSpan(parent, span), handler, undefined, req, res);
  };
}
