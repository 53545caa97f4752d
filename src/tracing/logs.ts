import { context, trace } from '@opentelemetry/api';

/**
 * pino mixin: the current trace and span ids on every log line written inside a traced request,
 * under the names the OpenTelemetry log data model uses, so a log line leads to its trace.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  // A new object each time: pino merges the line's own fields into what the mixin returns.
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
