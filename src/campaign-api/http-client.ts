import { BrokenCircuitError, BulkheadRejectedError, IsolatedCircuitError, TaskCancelledError } from 'cockatiel';
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
import { createPolicies } from './resilience.js';
import { startRestCall, type RestCallTrace } from '../tracing/rest.js';
import { activeTracer } from '../tracing/state.js';
import { Transport, failedBeforeSend, networkErrorCode } from './transport.js';

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
  connections: 64,
  attemptTimeoutMs: 3000,
  budgetMs: 8000,
  maxAttempts: 3,
  backoff: { initialMs: 100, maxMs: 1000 },
  breaker: { consecutiveFailures: 5, halfOpenAfterMs: 5000 },
  bulkhead: { maxConcurrent: 128, maxQueue: 10_000 },
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

/** Thrown inside the policies when the call's signal fired before an attempt could start. */
class NotAttempted extends Error {}

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

/**
 * The HTTP implementation of CampaignApi. Every call runs through, from the outside in:
 * call budget (aggressive timeout; also bounds time queued) → bulkhead → retry (reads and
 * redeem on any backend failure; writes only when the request never left) → circuit breaker
 * (per client, so per backend; counts each failed attempt) → attempt timeout (aborts the undici
 * request) → one HTTP exchange, whose answer envelope.ts interprets. Business errors, 401 and
 * contract breaks are answers: never retried, and they keep the breaker closed.
 */
export function createCampaignApiClient(options: CampaignApiClientOptions): CampaignApiClient {
  const settings = resolveOptions(options);
  const onCall = options.onCall;
  const transport = new Transport({
    baseUrl: settings.baseUrl,
    connections: settings.connections,
    socketTimeoutMs: settings.budgetMs + 1000,
  });
  const policies = createPolicies(settings);
  const paths = Object.fromEntries(OPERATION_NAMES.map((n) => [n, transport.pathOf(operations[n].path)])) as Record<OperationName, string>;
  /** How to abort each call in flight, for close(). */
  const inFlight = new Set<() => void>();
  let closing: Promise<void> | undefined;
  let lastAnswered: number | undefined;

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
    const traced = activeTracer() ? startRestCall(operations[name].path, body, policies.breakerState()) : undefined;
    let attempts = 0;
    let outcome: CallReport['outcome'] | undefined = 'success';
    let code: string | undefined;
    try {
      return await run(name, token, body, callOptions?.signal, () => ++attempts, traced);
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
      if (outcome) report({ operation: name, outcome, attempts, durationMs: performance.now() - startedAt, ...(code ? { code } : {}) });
      traced?.end({ outcome: outcome ?? 'defect', attempts, code, breakerState: policies.breakerState() });
    }
  }

  async function run<N extends OperationName>(
    name: N,
    token: string,
    body: string,
    callerSignal: AbortSignal | undefined,
    /** Counts an attempt and returns its number (1 for the first). */
    countAttempt: () => number,
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
    const retry = operations[name].idempotent ? policies.retryIdempotent : policies.retryWrite;

    // One controller per call, linked by hand to the caller's signal and to close().
    const controller = new AbortController();
    let abortedBy: 'caller' | 'client-closed' | undefined;
    const onCallerAbort = () => {
      abortedBy ??= 'caller';
      controller.abort();
    };
    const onClientClose = () => {
      abortedBy ??= 'client-closed';
      controller.abort();
    };
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    inFlight.add(onClientClose);
    const callSignal = controller.signal;

    const abortCause = (budgetSignal: AbortSignal, attemptSignal: AbortSignal): CampaignApiError | undefined => {
      if (abortedBy) return new AbortedError(name, abortedBy);
      if (budgetSignal.aborted) return new TimeoutError(name, settings.budgetMs, 'budget');
      if (attemptSignal.aborted) return new TimeoutError(name, settings.attemptTimeoutMs, 'attempt');
      return undefined;
    };

    const attempt = async (budgetSignal: AbortSignal, attemptSignal: AbortSignal): Promise<Verdict<N>> => {
      const early = abortCause(budgetSignal, attemptSignal);
      if (early) throw early;
      const number = countAttempt();
      let answer;
      try {
        answer = await (traced
          ? traced.attempt(number, () => transport.post(path, token, body, attemptSignal))
          : transport.post(path, token, body, attemptSignal));
      } catch (error) {
        const failure = abortCause(budgetSignal, attemptSignal) ?? new NetworkError(name, networkErrorCode(error), failedBeforeSend(error), { cause: error });
        traced?.attemptFailed(number, failure.kind);
        throw failure;
      }
      traced?.answered(answer.status, answer.text);
      const verdict = interpretResponse(name, answer.status, answer.text);
      if (verdict.kind === 'failed') {
        traced?.attemptFailed(number, verdict.error.kind);
        throw verdict.error;
      }
      return verdict;
    };

    try {
      const verdict = await policies.budget.execute(
        ({ signal: budgetSignal }) =>
          // No signal for the bulkhead itself: cockatiel 3 drops a queued task whose signal has
          // fired without passing its turn on, so every abandoned call would leak a slot (after
          // a burst of cancelled requests the client crawled). The task checks the signal itself.
          policies.bulkhead.execute(() => {
            if (budgetSignal.aborted) throw new NotAttempted();
            return retry.execute(({ signal }) => {
              // Reached after a backoff the budget cut short: no attempt, and no word to the breaker.
              if (signal.aborted) throw new NotAttempted();
              return policies.breaker.execute(
                () => policies.attemptTimeout.execute(({ signal: attemptSignal }) => attempt(budgetSignal, attemptSignal), signal),
                signal,
              );
            }, budgetSignal);
          }),
        callSignal,
      );
      if (verdict.kind === 'success') {
        lastAnswered = Date.now();
        return verdict.value;
      }
      if (verdict.kind === 'refused') lastAnswered = Date.now();
      throw verdict.error;
    } catch (error) {
      if (error instanceof CampaignApiError) throw error;
      if (error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError) throw new CircuitOpenError(name);
      if (error instanceof BulkheadRejectedError) {
        throw new OverloadedError(name, settings.bulkhead.maxConcurrent, settings.bulkhead.maxQueue);
      }
      if (error instanceof TaskCancelledError || error instanceof NotAttempted) {
        throw abortedBy ? new AbortedError(name, abortedBy) : new TimeoutError(name, settings.budgetMs, 'budget');
      }
      throw error;
    } finally {
      callerSignal?.removeEventListener('abort', onCallerAbort);
      inFlight.delete(onClientClose);
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
        for (const abort of inFlight) abort();
        await transport.close();
      })();
      return closing;
    },
    breakerState: () => policies.breakerState(),
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
