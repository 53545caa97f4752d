import type { Context, TextMapGetter, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import { TRACE_PARENT_HEADER, W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * W3C trace context reduced to `traceparent`, both ways. A client's `tracestate` is its own text
 * (vendor entries of its choosing): read into our span context it would be written on every
 * backend call, so the partner API would receive what a client wrote, and exported with every
 * span. Read only the trace id, parent id and sampling flag; write only the `traceparent` of
 * our own HTTP client span. `baggage` is not read either: no propagator of it is registered.
 */
export class TraceparentPropagator implements TextMapPropagator {
  readonly #w3c = new W3CTraceContextPropagator();

  inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    this.#w3c.inject(ctx, carrier, {
      set: (into, key, value) => {
        if (key === TRACE_PARENT_HEADER) setter.set(into, key, value);
      },
    });
  }

  extract(ctx: Context, carrier: unknown, getter: TextMapGetter): Context {
    return this.#w3c.extract(ctx, carrier, {
      get: (from, key) => (key === TRACE_PARENT_HEADER ? getter.get(from, key) : undefined),
      keys: (from) => getter.keys(from).filter((key) => key === TRACE_PARENT_HEADER),
    });
  }

  fields(): string[] {
    return [TRACE_PARENT_HEADER];
  }
}
