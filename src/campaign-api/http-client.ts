import { z } from 'zod';
import type { CallListener, CallOptions, CallReport, CampaignApi } from './api.js';
import { interpretResponse, type Verdict } from './envelope.js';
import {
  AbortedError,
  BusinessError,
  CampaignApiError,
  CircuitOpenError,
  NetworkError,
  OverloadedError,
  TimeoutError,
  UnauthenticatedError,
} from './errors.js';
import { OPERATION_NAMES, operations, type OperationName, type RequestOf, type ResponseOf } from './operations.js';
import {
  Breaker,
  Bulkhead,
  backoffDelayMs,
  isBackendFailure,
  isRetryableForIdempotent,
  isRetryableForWrite,
  type Admission,
} from './resilience.js';
import { startRestCall, type RestCallTrace } from '../tracing/rest.js';
import { activeTracer } from '../tracing/state.js';
import { Transport, failedBeforeSend, networkErrorCode, type Exchange, type RawAnswer } from './transport.js';

export interface CampaignApiClientOptions {
  /** `{base_url}`; operations at `${baseUrl}/v1/${operations[name].path}`. */
  baseUrl: string;
  /** undici Pool size. */
  connections?: number;
  attemptTimeoutMs?: number;
  /** Total per call, including retries, backoff and time queued in the bulkhead. */
  budgetMs?: number;
  /** Attempts for reads and redeem; writes are repeated only when the request never left. */
  maxAttempts?: number;
  /** Exponential backoff with full jitter between attempts. */
  backoff?: { initialMs: number; maxMs: number };
  breaker?: { consecutiveFailures: number; halfOpenAfterMs: number };
  bulkhead?: { maxConcurrent: number; maxQueue: number };
  onCall?: CallListener;
}

export const DEFAULT_CLIENT_OPTIONS: Required<Omit<CampaignApiClientOptions, 'baseUrl' | 'onCall'>> = {
  connections: 256,
  attemptTimeoutMs: 3000,
  budgetMs: 8000,
  maxAttempts: 3,
  backoff: { initialMs: 100, maxMs: 1000 },
  breaker: { consecutiveFailures: 5, halfOpenAfterMs: 5000 },
  bulkhead: { maxConcurrent: 256, maxQueue: 10_000 },
};

export interface CampaignApiClient extends CampaignApi {
  /** Aborts the calls in flight (they reject with AbortedError) and closes every socket. */
  close(): Promise<void>;
  breakerState(): 'closed' | 'open' | 'half-open';
  /** ms timestamp of the last call the backend answered (success or business error); for /readyz */
  lastAnsweredAt(): number | undefined;
}

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const optionsSchema = z
  .object({
    baseUrl: z.url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL, such as http://127.0.0.1:4010' }),
    connections: whole(1, 1024),
    attemptTimeoutMs: whole(1, 600_000),
    budgetMs: whole(1, 3_600_000),
    maxAttempts: whole(1, 10),
    backoff: z.object({ initialMs: whole(0, 60_000), maxMs: whole(0, 600_000) }).refine((b) => b.initialMs <= b.maxMs, {
      message: 'initialMs must not exceed maxMs',
    }),
    breaker: z.object({ consecutiveFailures: whole(1, 100_000), halfOpenAfterMs: whole(1, 3_600_000) }),
    bulkhead: z.object({ maxConcurrent: whole(1, 100_000), maxQueue: whole(0, 1_000_000) }),
  })
  .strict();

type Settings = z.infer<typeof optionsSchema>;

function resolveOptions(options: CampaignApiClientOptions): Settings {
  const { onCall: _listener, ...rest } = options;
  const merged = { ...DEFAULT_CLIENT_OPTIONS, ...rest };
  const parsed = optionsSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => {
    const received = i.path.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], merged);
    return `${i.path.join('.') || '(options)'} ${i.message} (received ${JSON.stringify(received)})`;
  });
  throw new TypeError(`createCampaignApiClient: invalid options: ${problems.join('; ')}`);
}

// A token must survive as an HTTP header value; anything else would make undici throw.
const SENDABLE_TOKEN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

const OUTCOME_BY_KIND: Record<CampaignApiError['kind'], CallReport['outcome']> = {
  business: 'business-error',
  unauthenticated: 'unauthenticated',
  timeout: 'timeout',
  network: 'network',
  http: 'http',
  malformed: 'malformed',
  contract: 'contract',
  'circuit-open': 'circuit-open',
  overloaded: 'overloaded',
  aborted: 'aborted',
};

/** How a call in flight is stopped from outside: by its caller's signal, or by close(). */
type Stop = (by: 'caller' | 'client-closed') => void;

/**
 * The HTTP implementation of CampaignApi. Every call runs, from the outside in, under: the call
 * budget (a deadline for everything, time queued included) → the bulkhead → retries (reads and
 * redeem on any backend failure; writes only when the request never left) with backoff → the
 * circuit breaker (per client, so per backend; counts each failed attempt) → the attempt timeout
 * (aborts the exchange) → one HTTP exchange, whose answer envelope.ts interprets. Business
 * errors, 401 and contract breaks are answers: never retried, and they keep the breaker closed.
 * The policies are in resilience.ts; this loop drives them with one timer per waiting phase.
 */
export function createCampaignApiClient(options: CampaignApiClientOptions): CampaignApiClient {
  const settings = resolveOptions(options);
  const onCall = options.onCall;
  const transport = new Transport({
    baseUrl: settings.baseUrl,
    connections: settings.connections,
    socketTimeoutMs: settings.budgetMs + 1000,
  });
  const breaker = new Breaker(settings.breaker);
  const bulkhead = new Bulkhead(settings.bulkhead.maxConcurrent, settings.bulkhead.maxQueue);
  const paths = Object.fromEntries(OPERATION_NAMES.map((n) => [n, transport.pathOf(operations[n].path)])) as Record<OperationName, string>;
  /** How to stop each call in flight, for close(). */
  const inFlight = new Set<Stop>();
  /**
   * The calls in flight per caller signal. A request's signal is shared by every call it makes (51
   * for a list of cards): one listener per signal stops them all, instead of one per call.
   */
  const bySignal = new WeakMap<AbortSignal, Set<Stop>>();
  let closing: Promise<void> | undefined;
  let lastAnswered: number | undefined;

  function watch(signal: AbortSignal, stop: Stop): void {
    let stops = bySignal.get(signal);
    if (!stops) {
      const set = (stops = new Set());
      bySignal.set(signal, set);
      signal.addEventListener('abort', () => {
        for (const s of set) s('caller');
      }, { once: true });
    }
    stops.add(stop);
  }

  async function call<N extends OperationName>(
    name: N,
    token: string,
    request: RequestOf<N>,
    callOptions: CallOptions | undefined,
  ): Promise<ResponseOf<N>> {
    // Outside the report on purpose: a request the types allow always serialises, so a throw
    // here is a caller's bug (a BigInt, a cycle), not a backend call.
    const body = JSON.stringify(request ?? {});
    const startedAt = performance.now();
    const traced = activeTracer() ? startRestCall(operations[name].path, body, breaker.state()) : undefined;
    const attempts = { count: 0 };
    let outcome: CallReport['outcome'] | undefined = 'success';
    let code: string | undefined;
    try {
      return await run(name, token, body, callOptions?.signal, startedAt, attempts, traced);
    } catch (error) {
      if (error instanceof CampaignApiError) {
        outcome = OUTCOME_BY_KIND[error.kind];
        if (error instanceof BusinessError) code = error.code;
        redact(error, token);
      } else {
        // Not a call outcome but a defect of this module; it surfaces as the thrown error.
        outcome = undefined;
      }
      throw error;
    } finally {
      if (outcome) report({ operation: name, outcome, attempts: attempts.count, durationMs: performance.now() - startedAt, ...(code ? { code } : {}) });
      traced?.end({ outcome: outcome ?? 'defect', attempts: attempts.count, code, breakerState: breaker.state() });
    }
  }

  async function run<N extends OperationName>(
    name: N,
    token: string,
    body: string,
    callerSignal: AbortSignal | undefined,
    startedAt: number,
    attempts: { count: number },
    traced: RestCallTrace | undefined,
  ): Promise<ResponseOf<N>> {
    if (closing) throw new AbortedError(name, 'client-closed');
    if (callerSignal?.aborted) throw new AbortedError(name, 'caller', { cause: callerSignal.reason });
    if (typeof token !== 'string' || !SENDABLE_TOKEN.test(token)) {
      throw new UnauthenticatedError(
        name,
        undefined,
        'the partner token must be a non-empty string of printable ASCII characters; the call was not made',
      );
    }
    const path = paths[name];
    const retryable = operations[name].idempotent ? isRetryableForIdempotent : isRetryableForWrite;
    const deadline = startedAt + settings.budgetMs;
    const budgetSpent = () => new TimeoutError(name, settings.budgetMs, 'budget');

    // Whatever the call is waiting for (a place in the bulkhead, an exchange, a backoff) is
    // given up through `interrupt`; a stop from outside ends that wait at once.
    let stoppedBy: 'caller' | 'client-closed' | undefined;
    let interrupt: ((error: Error) => void) | undefined;
    const stop: Stop = (by) => {
      stoppedBy ??= by;
      interrupt?.(new AbortedError(name, by));
    };
    if (callerSignal) watch(callerSignal, stop);
    inFlight.add(stop);

    /**
     * Waits for `promise` (or, without one, for `ms` to pass) until `ms` have passed, which is
     * `onTimeout`'s error, or the call is stopped; `cancel` hears why a wait was given up.
     */
    const waitFor = <T>(promise: Promise<T> | undefined, ms: number, onTimeout?: () => Error, cancel?: (error: Error) => void) =>
      new Promise<T | undefined>((resolve, reject) => {
        let done = false;
        const finish = () => {
          if (done) return false;
          done = true;
          clearTimeout(timer);
          interrupt = undefined;
          return true;
        };
        const give = (error: Error) => {
          if (!finish()) return;
          cancel?.(error);
          reject(error);
        };
        const timer = setTimeout(() => (onTimeout ? give(onTimeout()) : finish() && resolve(undefined)), Math.max(0, ms));
        interrupt = give;
        promise?.then(
          (value) => finish() && resolve(value),
          (error: unknown) => finish() && reject(error),
        );
      });

    const attempt = async (admission: Admission): Promise<Verdict<N>> => {
      const number = ++attempts.count;
      const left = deadline - performance.now();
      const byBudget = left <= settings.attemptTimeoutMs;
      let exchange: Exchange | undefined;
      let answer;
      try {
        exchange = traced ? traced.attempt(number, () => transport.post(path, token, body)) : transport.post(path, token, body);
        answer = await waitFor(
          exchange.answer,
          byBudget ? left : settings.attemptTimeoutMs,
          () => (byBudget ? budgetSpent() : new TimeoutError(name, settings.attemptTimeoutMs, 'attempt')),
          (error) => exchange!.abort(error),
        ) as RawAnswer;
      } catch (error) {
        const failure =
          error instanceof CampaignApiError ? error : new NetworkError(name, networkErrorCode(error), failedBeforeSend(error), { cause: error });
        if (isBackendFailure(failure)) breaker.failed(admission);
        else breaker.abandoned(admission);
        traced?.attemptFailed(number, failure.kind);
        throw failure;
      }
      traced?.answered(answer.status, answer.text);
      const verdict = interpretResponse(name, answer.status, answer.text);
      if (verdict.kind === 'failed') {
        breaker.failed(admission);
        traced?.attemptFailed(number, verdict.error.kind);
        throw verdict.error;
      }
      breaker.answered(admission);
      return verdict;
    };

    try {
      const entry = bulkhead.enter();
      if (entry === false) throw new OverloadedError(name, settings.bulkhead.maxConcurrent, settings.bulkhead.maxQueue);
      if (entry !== true) await waitFor(entry.turn, deadline - performance.now(), budgetSpent, entry.cancel);
      try {
        for (let retry = 1; ; retry++) {
          if (stoppedBy) throw new AbortedError(name, stoppedBy);
          let admission = breaker.admit();
          // Half-open with a probe under way: wait for its outcome, within the budget, then ask again.
          while (admission instanceof Promise) {
            await waitFor(admission, deadline - performance.now(), budgetSpent);
            admission = breaker.admit();
          }
          if (!admission) throw new CircuitOpenError(name);
          let verdict: Verdict<N>;
          try {
            verdict = await attempt(admission);
          } catch (error) {
            if (!retryable(error) || attempts.count >= settings.maxAttempts) throw error;
            // Full jitter; a backoff the budget would cut short ends the call when the budget does.
            const delay = backoffDelayMs(retry, settings.backoff);
            const left = deadline - performance.now();
            await waitFor(undefined, Math.min(delay, left));
            if (delay >= left) throw budgetSpent();
            continue;
          }
          if (verdict.kind === 'success') {
            lastAnswered = Date.now();
            return verdict.value;
          }
          if (verdict.kind === 'refused') lastAnswered = Date.now();
          throw verdict.error;
        }
      } finally {
        bulkhead.exit();
      }
    } finally {
      if (callerSignal) bySignal.get(callerSignal)?.delete(stop);
      inFlight.delete(stop);
    }
  }

  function report(entry: CallReport): void {
    if (!onCall) return;
    try {
      onCall(entry);
    } catch (error) {
      // A broken listener must not turn a good call into a failed one.
      process.emitWarning(`campaign-api onCall listener threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const methods = Object.fromEntries(
    OPERATION_NAMES.map((name) => [
      name,
      (token: string, request: RequestOf<typeof name>, callOptions?: CallOptions) => call(name, token, request, callOptions),
    ]),
  ) as CampaignApi;

  return {
    ...methods,
    close() {
      closing ??= (async () => {
        for (const stop of inFlight) stop('client-closed');
        await transport.close();
      })();
      return closing;
    },
    breakerState: () => breaker.state(),
    lastAnsweredAt: () => lastAnswered,
  };
}

/** Defence in depth: whatever a backend echoed back, the token never leaves in an error's text. */
function redact(error: CampaignApiError, token: string): void {
  if (token.length < 4) return;
  const scrub = (text: string) => (text.includes(token) ? text.split(token).join('[redacted]') : text);
  error.message = scrub(error.message);
  if (error.stack) error.stack = scrub(error.stack);
  if (error instanceof BusinessError) {
    const mutable = error as { -readonly [K in 'detail' | 'fields']: BusinessError[K] };
    mutable.detail = scrub(error.detail);
    mutable.fields = error.fields.map((f) => ({ field: scrub(f.field), message: scrub(f.message) }));
  }
}
