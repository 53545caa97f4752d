import type { CallReport } from './api.js';
import type { AnswerMemo } from './answer-memo.js';
import { interpretResponse } from './envelope.js';
import {
  AbortedError,
  BusinessError,
  CampaignApiError,
  CircuitOpenError,
  NetworkError,
  OUTCOME_BY_KIND,
  OverloadedError,
  TimeoutError,
  UnauthenticatedError,
} from './errors.js';
import { operations, type OperationName, type ResponseOf } from './operations.js';
import {
  backoffDelayMs,
  isBackendFailure,
  isRetryableForIdempotent,
  isRetryableForWrite,
  type Admission,
  type Breaker,
  type Bulkhead,
  type QueueDeadlines,
  type QueueWaiter,
  type ResilienceSettings,
} from './resilience.js';
import type { InFlightEntry } from '../bounded/index.js';
import type { RestCallTrace } from '../tracing/rest.js';
import { failedBeforeSend, networkErrorCode, type AnswerSink, type Exchange, type Transport } from './transport.js';
import { isWrite } from './writes.js';
import { redact } from './redact.js';

/** Why a call in flight was stopped from outside: its caller's signal, or close(). */
export type StopReason = 'caller' | 'client-closed';

/** What every call of one client shares. */
export interface CallHost {
  readonly settings: ResilienceSettings;
  readonly transport: Transport;
  readonly breaker: Breaker;
  readonly bulkhead: Bulkhead;
  /** Ends the calls queued in the bulkhead at their deadlines. */
  readonly queueDeadlines: QueueDeadlines;
  readonly paths: Readonly<Record<OperationName, string>>;
  /** The verdicts on reads' last answers, so an answer like the last one is not parsed again. */
  readonly answers: AnswerMemo;
  closed(): boolean;
  /** The call is under way (after its own checks): close() and its caller's signal can stop it until it leaves the entry. */
  started(call: BackendCall<OperationName>): InFlightEntry;
  answered(): void;
  report(entry: CallReport): void;
}

// A token must survive as an HTTP header value; anything else would make undici throw.
const SENDABLE_TOKEN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Where a call stands; each waiting phase but 'queued' (QueueDeadlines watches those) has at most one timer, cleared when the phase ends. */
type Phase = 'starting' | 'queued' | 'probe-wait' | 'attempt' | 'backoff' | 'last-backoff' | 'left-on-the-wire' | 'done';

/**
 * One backend call from start to end, as a state machine: the call budget (a deadline for
 * everything, time queued included) → the bulkhead → retries with backoff → the circuit breaker
 * → the attempt timeout → one HTTP exchange, whose answer envelope.ts interprets. The policies
 * are in resilience.ts; this drives them.
 *
 * It is one object with one promise, moved on by callbacks (the bulkhead's turn, the exchange's
 * sink, its timer) rather than an async function awaiting a promise per phase. Under a list of 50
 * cards, thousands of calls wait in the bulkhead at once for longer than a young-generation cycle;
 * each awaiting frame, promise, closure and timer they held was copied by every scavenge and then
 * promoted, and that garbage collection was the largest cost of the list.
 */
export class BackendCall<N extends OperationName> implements QueueWaiter, AnswerSink {
  prev: QueueWaiter | undefined;
  next: QueueWaiter | undefined;
  readonly promise: Promise<ResponseOf<N>>;
  /** The call budget's end, a `performance.now()` time: for everything, time queued included. */
  readonly deadline: number;
  #resolve!: (value: ResponseOf<N>) => void;
  #reject!: (error: unknown) => void;
  #phase: Phase = 'starting';
  #timer: NodeJS.Timeout | undefined;
  #holdsSlot = false;
  /** Its place among the client's calls in flight, from when it is under way until it ends. */
  #inFlight: InFlightEntry | undefined;
  #attempts = 0;
  #admission: Admission = 'closed';
  #exchange: Exchange | undefined;
  #attemptByBudget = false;
  #probeWait: Promise<void> | undefined;
  #stoppedBy: StopReason | undefined;

  constructor(
    private readonly host: CallHost,
    readonly name: N,
    private readonly token: string,
    private readonly body: string,
    readonly signal: AbortSignal | undefined,
    private readonly startedAt: number,
    private readonly traced: RestCallTrace | undefined,
  ) {
    this.deadline = startedAt + host.settings.budgetMs;
    this.promise = new Promise<ResponseOf<N>>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  start(): void {
    if (this.host.closed()) return this.#fail(new AbortedError(this.name, 'client-closed'));
    if (this.signal?.aborted) return this.#fail(new AbortedError(this.name, 'caller', { cause: this.signal.reason }));
    if (typeof this.token !== 'string' || !SENDABLE_TOKEN.test(this.token)) {
      return this.#fail(
        new UnauthenticatedError(this.name, undefined, 'the partner token must be a non-empty string of printable ASCII characters; the call was not made'),
      );
    }
    this.#inFlight = this.host.started(this);
    const joined = this.host.bulkhead.join(this);
    if (joined === 'full') {
      const { maxConcurrent, maxQueue } = this.host.settings.bulkhead;
      return this.#fail(new OverloadedError(this.name, maxConcurrent, maxQueue));
    }
    if (joined === 'queued') {
      this.#phase = 'queued';
      this.host.queueDeadlines.watch(this.deadline);
      return;
    }
    this.#holdsSlot = true;
    this.#tryAttempt();
  }

  /** The bulkhead's turn came. */
  admit(): void {
    this.#disarm();
    this.#holdsSlot = true;
    this.#tryAttempt();
  }

  /** From now on the call makes no new attempt; see stopAll. */
  markStopped(by: StopReason): void {
    this.#stoppedBy ??= by;
  }

  /** The budget ran out while the call waited in the bulkhead, which has taken it out. */
  overdue(): void {
    if (this.#phase === 'queued') this.#fail(this.#budgetSpent());
  }

  /** Ends whatever the call waits for, at once. */
  stop(by: StopReason): void {
    this.#stoppedBy ??= by;
    if (this.#phase === 'attempt' && by === 'caller' && !isWrite(this.name)) return this.#leaveOnTheWire();
    if (this.#phase === 'left-on-the-wire') {
      this.#exchange?.abort(new AbortedError(this.name, by));
      return this.#endedOnTheWire('abandoned');
    }
    // Starting or done: a call about to try again checks #stoppedBy first.
    if (this.#phase !== 'starting' && this.#phase !== 'done') this.#giveUp(new AbortedError(this.name, by));
  }

  /**
   * The caller left while this read was in the pool's hands: it hears so at once, and the exchange
   * ends on its own, its answer dropped. Aborting one closes its connection (or, still waiting for
   * one, the connection it is then given): each caller that left would cost as many reconnections
   * as it had reads under way. The slot and the breaker's admission are held until the exchange
   * ends; the attempt's timer still aborts it. A write is aborted: unsent, it must stay unsent.
   */
  #leaveOnTheWire(): void {
    this.#phase = 'left-on-the-wire';
    const error = new AbortedError(this.name, 'caller');
    this.#tell('aborted', undefined, error);
    this.#reject(error);
  }

  /** The exchange of a call whose caller left has ended: what it says of the backend still counts. */
  #endedOnTheWire(verdict: 'answered' | 'failed' | 'abandoned'): void {
    const { breaker } = this.host;
    if (verdict === 'answered') breaker.answered(this.#admission);
    else if (verdict === 'failed') breaker.failed(this.#admission);
    else breaker.abandoned(this.#admission);
    this.#release();
  }

  answered(status: number, text: string): void {
    if (this.#phase === 'left-on-the-wire') {
      let failed: boolean;
      try {
        failed = interpretResponse(this.name, status, text).kind === 'failed';
      } catch {
        failed = false;
      }
      return this.#endedOnTheWire(failed ? 'failed' : 'answered');
    }
    if (this.#phase !== 'attempt') return;
    this.#disarm();
    this.#phase = 'starting';
    this.traced?.answered(status, text);
    let verdict;
    try {
      verdict = this.host.answers.verdictOf(this.name, this.body, status, text);
    } catch (defect) {
      return this.#fail(defect);
    }
    if (verdict.kind === 'failed') {
      this.host.breaker.failed(this.#admission);
      this.traced?.attemptFailed(this.#attempts, verdict.error.kind);
      return this.#retryOrFail(verdict.error);
    }
    this.host.breaker.answered(this.#admission);
    if (verdict.kind === 'success') {
      this.host.answered();
      return this.#succeed(verdict.value);
    }
    if (verdict.kind === 'refused') this.host.answered();
    this.#fail(verdict.error);
  }

  broke(error: Error): void {
    if (this.#phase === 'left-on-the-wire') return this.#endedOnTheWire(isBackendFailure(this.#failureOf(error)) ? 'failed' : 'abandoned');
    if (this.#phase !== 'attempt') return;
    this.#attemptFailed(error);
  }

  /** The timer of the current phase ran out. */
  timedOut(): void {
    this.#timer = undefined;
    if (this.#phase === 'left-on-the-wire') {
      this.#exchange?.abort(new TimeoutError(this.name, this.host.settings.attemptTimeoutMs, 'attempt'));
      return this.#endedOnTheWire('failed');
    }
    if (this.#phase === 'backoff') {
      this.#phase = 'starting';
      return this.#tryAttempt();
    }
    const { attemptTimeoutMs } = this.host.settings;
    const attemptOnly = this.#phase === 'attempt' && !this.#attemptByBudget;
    this.#giveUp(attemptOnly ? new TimeoutError(this.name, attemptTimeoutMs, 'attempt') : this.#budgetSpent());
  }

  /** Leaves the current waiting phase for `error`: a failed attempt (which may be retried), else the call's end. */
  #giveUp(error: CampaignApiError): void {
    switch (this.#phase) {
      case 'queued':
        this.host.bulkhead.leave(this);
        return this.#fail(error);
      case 'attempt':
        this.#exchange?.abort(error);
        return this.#attemptFailed(error);
      case 'probe-wait':
      case 'backoff':
      case 'last-backoff':
        return this.#fail(error);
      default:
    }
  }

  #tryAttempt(): void {
    if (this.#stoppedBy) return this.#fail(new AbortedError(this.name, this.#stoppedBy));
    const admission = this.host.breaker.admit();
    if (admission instanceof Promise) {
      // Half-open with a probe under way: wait for its outcome, within the budget, then ask again.
      this.#phase = 'probe-wait';
      this.#probeWait = admission;
      this.#arm(this.deadline - performance.now());
      void admission.then(() => {
        if (this.#phase !== 'probe-wait' || this.#probeWait !== admission) return;
        this.#disarm();
        this.#phase = 'starting';
        this.#tryAttempt();
      });
      return;
    }
    if (!admission) return this.#fail(new CircuitOpenError(this.name));
    this.#send(admission);
  }

  #send(admission: Admission): void {
    const { attemptTimeoutMs } = this.host.settings;
    this.#admission = admission;
    const number = ++this.#attempts;
    const left = this.deadline - performance.now();
    this.#attemptByBudget = left <= attemptTimeoutMs;
    this.#phase = 'attempt';
    this.#arm(this.#attemptByBudget ? left : attemptTimeoutMs);
    const { transport, paths } = this.host;
    const path = paths[this.name];
    try {
      this.#exchange = this.traced
        ? this.traced.attempt(number, () => transport.post(path, this.token, this.body, this))
        : transport.post(path, this.token, this.body, this);
    } catch (error) {
      // undici refused the request outright; the sink may have heard of it already.
      if (this.#phase === 'attempt') this.#attemptFailed(error);
    }
  }

  /** The attempt under way ended without an answer: `error` is why. */
  #attemptFailed(error: unknown): void {
    this.#disarm();
    this.#phase = 'starting';
    this.#exchange = undefined;
    const failure = this.#failureOf(error);
    if (isBackendFailure(failure)) this.host.breaker.failed(this.#admission);
    else this.host.breaker.abandoned(this.#admission);
    this.traced?.attemptFailed(this.#attempts, failure.kind);
    this.#retryOrFail(failure);
  }

  #failureOf(error: unknown): CampaignApiError {
    return error instanceof CampaignApiError ? error : new NetworkError(this.name, networkErrorCode(error), failedBeforeSend(error), { cause: error });
  }

  #retryOrFail(failure: CampaignApiError): void {
    const { settings } = this.host;
    const retryable = operations[this.name].idempotent ? isRetryableForIdempotent : isRetryableForWrite;
    if (!retryable(failure) || this.#attempts >= settings.maxAttempts) return this.#fail(failure);
    // Full jitter; a backoff the budget would cut short ends the call when the budget does.
    const delay = backoffDelayMs(this.#attempts, settings.backoff);
    const left = this.deadline - performance.now();
    this.#phase = delay >= left ? 'last-backoff' : 'backoff';
    this.#arm(Math.min(delay, left));
  }

  #budgetSpent(): TimeoutError {
    return new TimeoutError(this.name, this.host.settings.budgetMs, 'budget');
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(timedOut, Math.max(0, ms), this);
  }

  #disarm(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #succeed(value: ResponseOf<N>): void {
    this.#end('success', undefined);
    this.#resolve(value);
  }

  #fail(error: unknown): void {
    let outcome: CallReport['outcome'] | undefined;
    let code: string | undefined;
    if (error instanceof CampaignApiError) {
      outcome = OUTCOME_BY_KIND[error.kind];
      if (error instanceof BusinessError) code = error.code;
      redact(error, this.token);
    }
    // Without an outcome it is not a call outcome but a defect of this module, rejected as it is.
    this.#end(outcome, code, error as Error);
    this.#reject(error);
  }

  #end(outcome: CallReport['outcome'] | undefined, code: string | undefined, error?: Error): void {
    if (this.#phase === 'done') return;
    this.#release();
    this.#tell(outcome, code, error);
  }

  /** Gives back what the call holds: its timer, its bulkhead slot, its place among the calls in flight. */
  #release(): void {
    this.#phase = 'done';
    this.#disarm();
    this.#exchange = undefined;
    if (this.#holdsSlot) {
      this.#holdsSlot = false;
      this.host.bulkhead.exit();
    }
    this.#inFlight?.leave();
  }

  /** Reports how the call ended, for its caller: the metrics' and the trace's outcome. */
  #tell(outcome: CallReport['outcome'] | undefined, code: string | undefined, error?: Error): void {
    const attempts = this.#attempts;
    if (outcome) {
      const durationMs = performance.now() - this.startedAt;
      if (error) this.host.report(code ? { operation: this.name, outcome, attempts, durationMs, code, error } : { operation: this.name, outcome, attempts, durationMs, error });
      else this.host.report({ operation: this.name, outcome, attempts, durationMs });
    }
    this.traced?.end({ outcome: outcome ?? 'defect', attempts, code, breakerState: this.host.breaker.state() });
  }
}

/**
 * Stops many calls at once (a request's signal, close()). All are marked first: a call stopped in
 * flight hands its bulkhead slot to the next queued one, which must not send a request that is
 * about to be stopped too.
 */
export function stopAll(calls: Iterable<BackendCall<OperationName>>, by: StopReason): void {
  const all = [...calls];
  for (const call of all) call.markStopped(by);
  for (const call of all) call.stop(by);
}

function timedOut(call: BackendCall<OperationName>): void {
  call.timedOut();
}
