import {
  BulkheadPolicy,
  CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  RetryPolicy,
  TimeoutPolicy,
  TimeoutStrategy,
  bulkhead,
  circuitBreaker,
  fullJitterGenerator,
  handleWhen,
  retry,
  timeout,
} from 'cockatiel';
import { HttpStatusError, MalformedResponseError, NetworkError, TimeoutError } from './errors.js';

export interface ResilienceSettings {
  attemptTimeoutMs: number;
  budgetMs: number;
  maxAttempts: number;
  backoff: { initialMs: number; maxMs: number };
  breaker: { consecutiveFailures: number; halfOpenAfterMs: number };
  bulkhead: { maxConcurrent: number; maxQueue: number };
}

/**
 * A failure of the backend itself (it did not answer, or answered with an outage). Business
 * errors, 401 and contract breaks are answers: they never count here.
 */
export function isBackendFailure(error: unknown): boolean {
  return (
    error instanceof TimeoutError ||
    error instanceof NetworkError ||
    error instanceof HttpStatusError ||
    error instanceof MalformedResponseError
  );
}

/** Reads and redeem: any backend failure of one attempt, except the spent call budget. */
export function isRetryableForIdempotent(error: unknown): boolean {
  if (error instanceof TimeoutError) return error.what === 'attempt';
  return error instanceof NetworkError || error instanceof HttpStatusError || error instanceof MalformedResponseError;
}

/** Writes: only when the request provably never left (connection refused and the like). */
export function isRetryableForWrite(error: unknown): boolean {
  return error instanceof NetworkError && error.beforeSend;
}

export interface Policies {
  /**
   * Aggressive on purpose: cockatiel's retry sleeps through its backoff without watching the
   * signal, so only a racing budget keeps a call within budgetMs. The abandoned inner chain sees
   * the aborted signal and stops before sending anything.
   */
  budget: TimeoutPolicy;
  bulkhead: BulkheadPolicy;
  retryIdempotent: RetryPolicy;
  retryWrite: RetryPolicy;
  /** One per client, i.e. per backend. Sees every attempt, so a failing retry loop opens it. */
  breaker: CircuitBreakerPolicy;
  /** Cooperative: the attempt's signal aborts the undici request, which frees its socket. */
  attemptTimeout: TimeoutPolicy;
  breakerState(): 'closed' | 'open' | 'half-open';
}

export function createPolicies(settings: ResilienceSettings): Policies {
  const backoff = new ExponentialBackoff({
    generator: fullJitterGenerator,
    initialDelay: settings.backoff.initialMs,
    maxDelay: settings.backoff.maxMs,
  });
  // cockatiel counts retries, the settings count attempts.
  const retries = settings.maxAttempts - 1;
  const breaker = circuitBreaker(handleWhen(isBackendFailure), {
    halfOpenAfter: settings.breaker.halfOpenAfterMs,
    breaker: new ConsecutiveBreaker(settings.breaker.consecutiveFailures),
  });
  let openedAt = 0;
  breaker.onBreak(() => {
    openedAt = Date.now();
  });

  return {
    // abortOnReturn off: aborting a finished call's signals builds a DOMException and fires
    // listeners for nothing, which measurably slowed every call (bench/client-get.ts).
    budget: timeout(settings.budgetMs, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false }),
    bulkhead: bulkhead(settings.bulkhead.maxConcurrent, settings.bulkhead.maxQueue),
    retryIdempotent: retry(handleWhen(isRetryableForIdempotent), { maxAttempts: retries, backoff }),
    retryWrite: retry(handleWhen(isRetryableForWrite), { maxAttempts: retries, backoff }),
    breaker,
    attemptTimeout: timeout(settings.attemptTimeoutMs, { strategy: TimeoutStrategy.Cooperative, abortOnReturn: false }),
    breakerState() {
      switch (breaker.state) {
        case CircuitState.Closed:
          return 'closed';
        case CircuitState.HalfOpen:
          return 'half-open';
        default:
          // cockatiel stays "open" until the next call after the wait; by then a probe would go through.
          return breaker.state === CircuitState.Open && Date.now() - openedAt >= settings.breaker.halfOpenAfterMs
            ? 'half-open'
            : 'open';
      }
    },
  };
}
