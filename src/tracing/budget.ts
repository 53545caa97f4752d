import { createContextKey, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-node';

/**
 * Spans one request may hand to the export queue. A page of a hundred campaigns with its cards
 * makes about three hundred; a request beyond this (many aliases, each calling the backend) keeps
 * its first spans and drops the rest, so one request cannot fill the queue that every request
 * shares, nor hold memory for it.
 */
export const SPANS_PER_REQUEST = 512;

const BUDGET = createContextKey('campaign-bff span budget');

/** What is left of one request's span allowance, and how many spans it dropped past it. */
export class SpanBudget {
  #left: number;
  #dropped = 0;

  constructor(spans: number = SPANS_PER_REQUEST) {
    this.#left = spans;
  }

  /** True while the request may still export a span; otherwise counts the span dropped. */
  take(): boolean {
    if (this.#left > 0) {
      this.#left--;
      return true;
    }
    this.#dropped++;
    return false;
  }

  get dropped(): number {
    return this.#dropped;
  }
}

/** The context a request's spans start in: every span under it draws on `budget`. */
export const withSpanBudget = (ctx: Context, budget: SpanBudget): Context => ctx.setValue(BUDGET, budget);

export const spanBudgetOf = (ctx: Context): SpanBudget | undefined => ctx.getValue(BUDGET) as SpanBudget | undefined;

/**
 * Passes on to `next` (the batch processor) only the spans their request's budget allows; the
 * others are recorded, so the code that made them works as ever, and never queued. Spans outside
 * any request (none started in a budget's context) pass.
 */
export class BudgetedSpanProcessor implements SpanProcessor {
  readonly #dropped = new WeakSet<object>();

  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    const budget = spanBudgetOf(parentContext);
    if (budget && !budget.take()) {
      this.#dropped.add(span);
      return;
    }
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (this.#dropped.has(span)) return;
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
