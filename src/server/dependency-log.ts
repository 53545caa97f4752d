import type { CallReport } from '../campaign-api/api.js';
import { RequestRefusedError } from '../campaign-api/index.js';
import { causeOf, failureFields } from '../observability/failures.js';
import type { Logger } from '../observability/logger.js';

/** One line per this long about a dependency that keeps failing: it fails on every call. */
const REPEAT_MS = 10_000;

/** Outcomes that say the backend is not answering as it should (a network error, a timeout, a 5xx, a body that is no answer). */
const UNAVAILABLE: ReadonlySet<CallReport['outcome']> = new Set(['timeout', 'network', 'http', 'malformed']);
/** Outcomes that say it answered (a refusal is an answer). */
const ANSWERED: ReadonlySet<CallReport['outcome']> = new Set(['success', 'business-error', 'unauthenticated', 'refused', 'contract']);

/**
 * Whether a call says the backend is not answering as it should. A refusal is the caller's, but a
 * 404 page means no operation is where the client calls: CAMPAIGN_API_URL names something else,
 * and every call will fail the same way. Only the log says so; the breaker stays out of it.
 */
function unavailable(report: CallReport): boolean {
  if (UNAVAILABLE.has(report.outcome)) return true;
  return report.outcome === 'refused' && report.error instanceof RequestRefusedError && report.error.httpStatus === 404;
}

type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * The log's account of the campaign API, from the client's reports: the cause when it stops
 * answering (a connection refused, a 404 from a wrong CAMPAIGN_API_URL), then at most one line
 * per 10 s while it keeps failing, a line when it answers again, and the circuit breaker's
 * opening and closing. Expected conditions, so the cause in words and no stack.
 */
export function backendLog(logger: Logger, now: () => number = Date.now): (report: CallReport, breaker: BreakerState) => void {
  let failingSince: number | undefined;
  let lastLine = -Infinity;
  /** A failure was logged since the backend last answered, so its recovery is worth a line too. */
  let told = false;
  let failures = 0;
  let breaker: BreakerState = 'closed';

  return (report, breakerNow) => {
    if (unavailable(report)) {
      failures++;
      failingSince ??= now();
      if (now() - lastLine >= REPEAT_MS) {
        lastLine = now();
        told = true;
        logger.warn(
          { operation: report.operation, outcome: report.outcome, attempts: report.attempts, cause: causeOf(report.error), failedCalls: failures },
          'campaign API unavailable; requests that need it fail until it answers',
        );
      }
    } else if (ANSWERED.has(report.outcome) && failingSince !== undefined) {
      if (told) logger.info({ unavailableMs: now() - failingSince, failedCalls: failures }, 'campaign API answering again');
      failingSince = undefined;
      told = false;
      failures = 0;
      // The next failure is news: say it at once.
      lastLine = -Infinity;
    }

    if (breakerNow !== breaker) {
      // Half-open is a moment between the two; the line is for opening, and for closing again.
      if (breaker === 'closed') {
        logger.warn({ operation: report.operation }, 'circuit breaker open: backend calls are refused at once until a probe succeeds');
      } else if (breakerNow === 'closed') {
        logger.info('circuit breaker closed: backend calls go through again');
      }
      breaker = breakerNow;
    }
  };
}

/**
 * The same account of a cache or bus on Redis: its failures (at most one line per 10 s, the cause
 * without a stack) and the moment it is back.
 */
export function redisLog(logger: Logger, what: { down: string; back: string }, now: () => number = Date.now) {
  let lastLine = -Infinity;
  let downSince: number | undefined;
  let suppressed = 0;
  return {
    failed(error: unknown): void {
      downSince ??= now();
      if (now() - lastLine < REPEAT_MS) {
        suppressed++;
        return;
      }
      lastLine = now();
      logger.warn({ ...failureFields(error), ...(suppressed ? { suppressedSinceLast: suppressed } : {}) }, what.down);
      suppressed = 0;
    },
    ready(): void {
      if (downSince === undefined) return;
      logger.info({ unavailableMs: now() - downSince }, what.back);
      downSince = undefined;
      suppressed = 0;
      lastLine = -Infinity;
    },
  };
}
