import { context, createContextKey, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from '@opentelemetry/semantic-conventions';
import { callParentContext, isRecordedOrRoot } from './graphql.js';
import { activeTracer } from './state.js';
import { traceText } from './text.js';

/** The attempt number of the backend call in flight, for the HTTP client span under it. */
const ATTEMPT = createContextKey('campaign-bff backend attempt');

export const attemptOf = (ctx: Context): number | undefined => ctx.getValue(ATTEMPT) as number | undefined;

/** Outcomes that are answers, not failures of the call: no error status on the span. */
const ANSWERS: ReadonlySet<string> = new Set(['success', 'business-error', 'unauthenticated', 'refused', 'aborted']);
/** A backend's error code is put on a span only when it looks like one (the API's are camelCase words). */
const CODE_SHAPE = /^[A-Za-z][\w.-]{0,63}$/;

export interface RestCallEnd {
  outcome: string;
  attempts: number;
  /** The business error code, for outcome business-error. */
  code?: string | undefined;
  breakerState: string;
}

/**
 * One REST call, retries included: a span around the whole call, and a context per attempt in
 * which the undici instrumentation opens the HTTP client span. The context is passed explicitly
 * rather than taken from where the attempt runs: the bulkhead starts a queued call from inside
 * whichever call freed its slot, so the async context there belongs to another call.
 */
export class RestCallTrace {
  readonly #span: Span;
  readonly #context: Context;
  #status: number | undefined;
  #responseBytes: number | undefined;

  constructor(span: Span, parent: Context) {
    this.#span = span;
    this.#context = trace.setSpan(parent, span);
  }

  attempt<T>(attempt: number, send: () => T): T {
    return context.with(this.#context.setValue(ATTEMPT, attempt), send);
  }

  answered(status: number, body: string): void {
    this.#status = status;
    if (this.#span.isRecording()) this.#responseBytes = Buffer.byteLength(body);
  }

  attemptFailed(attempt: number, errorType: string): void {
    this.#span.addEvent('attempt failed', { 'campaign_api.attempt': attempt, [ATTR_ERROR_TYPE]: errorType });
  }

  end({ outcome, attempts, code, breakerState }: RestCallEnd): void {
    const span = this.#span;
    if (span.isRecording()) {
      span.setAttributes({
        'campaign_api.outcome': outcome,
        'campaign_api.attempts': attempts,
        'campaign_api.retries': Math.max(0, attempts - 1),
        'campaign_api.breaker_state_after': breakerState,
      });
      if (this.#status !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, this.#status);
      if (this.#responseBytes !== undefined) span.setAttribute('campaign_api.response_bytes', this.#responseBytes);
      if (code !== undefined && CODE_SHAPE.test(code)) span.setAttribute('campaign_api.error_code', traceText(code));
      if (!ANSWERS.has(outcome)) {
        span.setAttribute(ATTR_ERROR_TYPE, outcome);
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      }
    }
    span.end();
  }
}

/**
 * Starts the span of one REST call under the resolver that caused it (or whatever is current),
 * or returns undefined when tracing is off or the request's trace is not sampled. Only the operation and sizes are recorded: the body
 * holds partner data and the headers the partner token.
 */
export function startRestCall(operationPath: string, requestBody: string, breakerState: string): RestCallTrace | undefined {
  const tracer = activeTracer();
  if (!tracer) return undefined;
  const parent = callParentContext();
  // Sampled out: no span, and the HTTP client span below still sends the trace on (unsampled).
  if (!isRecordedOrRoot(parent)) return undefined;
  const span = tracer.startSpan(
    `campaign-api ${operationPath}`,
    { kind: SpanKind.INTERNAL, attributes: { 'campaign_api.operation': operationPath, 'campaign_api.breaker_state': breakerState } },
    parent,
  );
  if (span.isRecording()) span.setAttribute('campaign_api.request_bytes', Buffer.byteLength(requestBody));
  return new RestCallTrace(span, parent);
}
