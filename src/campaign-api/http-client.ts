import { z } from 'zod';
import type { CallListener, CallOptions, CallReport, CampaignApi } from './api.js';
import { InFlight, type InFlightEntry } from '../bounded/index.js';
import { AnswerMemo } from './answer-memo.js';
import { BackendCall, stopAll, type CallHost } from './backend-call.js';
import { OPERATION_NAMES, operations, type OperationName, type RequestOf, type ResponseOf } from './operations.js';
import { Breaker, Bulkhead, QueueDeadlines } from './resilience.js';
import { startRestCall } from '../tracing/rest.js';
import { activeTracer } from '../tracing/state.js';
import { Transport } from './transport.js';
import { isWrite, WriteAnnouncer, type WriteEvents } from './writes.js';

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
  /** Bytes kept of reads' last answers and their checked values (answer-memo.ts); 0 keeps none. */
  answerMemoBytes?: number;
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
  answerMemoBytes: 4 * 1024 * 1024,
};

/**
 * The client is the one object every part of the server calls the campaign API through: the
 * resolvers of mutations, the feed, live status. What must follow a write (a feed rebuilt, a
 * status published) subscribes to its write events, so that whoever writes, it follows.
 */
export interface CampaignApiClient extends CampaignApi, WriteEvents {
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
    answerMemoBytes: whole(0, 1024 * 1024 * 1024),
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

/** A call's place among the calls in flight and among its caller's signal's calls: it leaves both when it ends. */
class SignalledCall implements InFlightEntry {
  constructor(
    private readonly inFlight: InFlightEntry,
    private readonly calls: Set<BackendCall<OperationName>>,
    private readonly call: BackendCall<OperationName>,
  ) {}

  leave(): void {
    this.inFlight.leave();
    this.calls.delete(this.call);
  }
}

/**
 * The HTTP implementation of CampaignApi. Every call runs, from the outside in, under: the call
 * budget (a deadline for everything, time queued included) → the bulkhead → retries (reads and
 * redeem on any backend failure; writes only when the request never left) with backoff → the
 * circuit breaker (per client, so per backend; counts each failed attempt) → the attempt timeout
 * (aborts the exchange) → one HTTP exchange, whose answer envelope.ts interprets. Business
 * errors, 401, any other 4xx and contract breaks are answers: never retried, and they keep the
 * breaker closed.
 * The policies are in resilience.ts; each call is a BackendCall (backend-call.ts) that drives
 * them; this factory holds what the calls share and stops them on close() or their caller's signal.
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
  const queueDeadlines = new QueueDeadlines(bulkhead);
  const answers = new AnswerMemo(settings.answerMemoBytes);
  const paths = Object.fromEntries(OPERATION_NAMES.map((n) => [n, transport.pathOf(operations[n].path)])) as Record<OperationName, string>;
  /** The calls in flight, for close(); each leaves when it settles. */
  const inFlight = new InFlight<BackendCall<OperationName>>();
  /**
   * The calls in flight per caller signal. A request's signal is shared by every call it makes (51
   * for a list of cards): one listener per signal stops them all, instead of one per call.
   */
  const bySignal = new WeakMap<AbortSignal, Set<BackendCall<OperationName>>>();
  let closing: Promise<void> | undefined;
  let lastAnswered: number | undefined;
  const writes = new WriteAnnouncer();

  const host: CallHost = {
    settings,
    transport,
    breaker,
    bulkhead,
    queueDeadlines,
    paths,
    answers,
    closed: () => closing !== undefined,
    started(call) {
      const entry = inFlight.add(call);
      const signal = call.signal;
      if (!signal) return entry;
      let calls = bySignal.get(signal);
      if (!calls) {
        const set = (calls = new Set());
        bySignal.set(signal, set);
        signal.addEventListener('abort', () => stopAll(set, 'caller'), { once: true });
      }
      calls.add(call);
      return new SignalledCall(entry, calls, call);
    },
    answered() {
      lastAnswered = Date.now();
    },
    report(entry: CallReport) {
      if (!onCall) return;
      try {
        onCall(entry);
      } catch (error) {
        // A broken listener must not turn a good call into a failed one.
        process.emitWarning(`campaign-api onCall listener threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };

  function call<N extends OperationName>(name: N, token: string, request: RequestOf<N>, callOptions: CallOptions | undefined): Promise<ResponseOf<N>> {
    let body: string;
    try {
      body = JSON.stringify(request ?? {});
    } catch (error) {
      // Not a backend call: a request the types allow always serialises, so this is a caller's bug (a BigInt, a cycle).
      return Promise.reject(error);
    }
    const startedAt = performance.now();
    const traced = activeTracer() ? startRestCall(operations[name].path, body, breaker.state()) : undefined;
    const backendCall = new BackendCall(host, name, token, body, callOptions?.signal, startedAt, traced);
    backendCall.start();
    return isWrite(name) ? writes.announce(name, token, request, backendCall.promise) : backendCall.promise;
  }

  const methods = Object.fromEntries(
    OPERATION_NAMES.map((name) => [
      name,
      (token: string, request: RequestOf<typeof name>, callOptions?: CallOptions) => call(name, token, request, callOptions),
    ]),
  ) as CampaignApi;

  return {
    ...methods,
    onWrite: (listener) => writes.onWrite(listener),
    close() {
      closing ??= (async () => {
        stopAll(inFlight, 'client-closed');
        queueDeadlines.close();
        await transport.close();
      })();
      return closing;
    },
    breakerState: () => breaker.state(),
    lastAnsweredAt: () => lastAnswered,
  };
}
