import { HttpStatusError, MalformedResponseError, NetworkError, TimeoutError } from './errors.js';

/**
 * The policies every backend call runs under: a bulkhead, retries with backoff, a circuit
 * breaker, and the timers of the call budget and of each attempt. They are small state machines
 * driven by each call's state machine (backend-call.ts), one timer per waiting phase, rather than a stack of
 * policy objects each wrapping the call in its own AbortController, timer and listeners: with
 * five such layers (cockatiel's), the policies cost more CPU than the HTTP exchange itself, and a
 * list of 50 cards makes 51 calls.
 */

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
 * errors, 401, any other 4xx (envelope.ts `blames`) and contract breaks are answers: they never
 * count here, so no caller can open the circuit for the others by sending what is refused.
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

/** Exponential backoff with full jitter: a uniform draw below `initialMs · 2^(retry − 1)`, capped at `maxMs`. */
export function backoffDelayMs(retry: number, backoff: ResilienceSettings['backoff'], random: () => number = Math.random): number {
  return random() * Math.min(backoff.maxMs, backoff.initialMs * 2 ** (retry - 1));
}

/** What `Breaker.admit` lets through: an ordinary attempt, or the one probe of a half-open circuit. */
export type Admission = 'closed' | 'probe';

/**
 * Consecutive-failure circuit breaker, one per client (so per backend). Closed, it counts failed
 * attempts in a row and opens at the threshold; open, it refuses every attempt until
 * `halfOpenAfterMs` has passed; then exactly one attempt goes through as a probe, and the attempts
 * that come meanwhile wait for it: its success closes the circuit and lets them go, its failure
 * opens it again and refuses them. Every attempt counts, so a failing retry loop opens it.
 */
export class Breaker {
  #failures = 0;
  #open = false;
  #openedAt = 0;
  /** Settles when the probe under way has told its outcome. */
  #probe: { told: Promise<void>; tell: () => void } | undefined;

  constructor(
    private readonly settings: ResilienceSettings['breaker'],
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether an attempt may go now, or not (undefined); while a probe is under way, a promise that
   * settles once it has told its outcome, after which the caller asks again. The caller asks, not
   * the breaker on its behalf: a caller that stopped waiting must not be handed the next probe.
   */
  admit(): Admission | undefined | Promise<void> {
    if (!this.#open) return 'closed';
    if (this.#probe) return this.#probe.told;
    if (this.now() - this.#openedAt < this.settings.halfOpenAfterMs) return undefined;
    let tell!: () => void;
    this.#probe = { told: new Promise<void>((resolve) => (tell = resolve)), tell };
    return 'probe';
  }

  /** The backend answered (a success, a refusal, or an answer that breaks the contract). */
  answered(admission: Admission): void {
    this.#failures = 0;
    if (admission === 'probe') {
      this.#open = false;
      this.#told();
    }
  }

  /** The attempt failed as a backend failure (`isBackendFailure`). */
  failed(admission: Admission): void {
    if (admission === 'probe') {
      this.#openedAt = this.now();
      this.#told();
      return;
    }
    if (++this.#failures >= this.settings.consecutiveFailures && !this.#open) {
      this.#open = true;
      this.#openedAt = this.now();
    }
  }

  /** The attempt ended without telling anything about the backend (the caller gave up on it). */
  abandoned(admission: Admission): void {
    if (admission === 'probe') this.#told();
  }

  state(): 'closed' | 'open' | 'half-open' {
    if (!this.#open) return 'closed';
    // Open until the next call after the wait; by then a probe would go through.
    return this.#probe || this.now() - this.#openedAt >= this.settings.halfOpenAfterMs ? 'half-open' : 'open';
  }

  #told(): void {
    const probe = this.#probe;
    this.#probe = undefined;
    probe?.tell();
  }
}

/** Why a waiter left the bulkhead's queue without its turn. */
export type Leave = (error: Error) => void;

/**
 * A place in the bulkhead's queue. The bulkhead links waiters through their own fields and calls
 * `admit` when the turn comes, so a queued backend call costs no promise, closure or list node.
 */
export interface QueueWaiter {
  admit(): void;
  prev: QueueWaiter | undefined;
  next: QueueWaiter | undefined;
  /** In a queue watched by QueueDeadlines: when it stops waiting (a `performance.now()` time); a waiter with one has `overdue`. */
  readonly deadline?: number;
  /** Its deadline passed while it waited: it is out of the queue and has no slot. */
  overdue?(): void;
}

/**
 * At most `maxConcurrent` holders at once and `maxQueue` waiting in order; beyond that, entry is
 * refused. A waiter that gives up (its budget ran out, its caller went away) leaves the queue at
 * once, so abandoned calls never hold a place. The queue is a linked list: under load it holds
 * thousands of calls, taken from the front and cancelled from anywhere, each in constant time.
 */
export class Bulkhead {
  #active = 0;
  #size = 0;
  #first: QueueWaiter | undefined;
  #last: QueueWaiter | undefined;
  /** Slots given back while one is being handed on: handed in a loop, not by recursion. */
  #exits = 0;
  #handing = false;

  constructor(
    private maxConcurrent: number,
    private readonly maxQueue: number,
  ) {}

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#size;
  }

  /**
   * Changes how many may hold a slot at once. A higher limit admits waiters at once; a lower one
   * takes effect as slots come back, none is taken away.
   */
  setLimit(maxConcurrent: number): void {
    const added = maxConcurrent - this.maxConcurrent;
    this.maxConcurrent = maxConcurrent;
    // Each new slot is taken and given back at once: to the first waiter if there is one.
    for (let n = 0; n < added; n++) {
      this.#active++;
      this.exit();
    }
  }

  /** Takes a slot for `waiter`: at once, or later through its `admit`, or not at all (queue full). */
  join(waiter: QueueWaiter): 'admitted' | 'queued' | 'full' {
    const taken = this.#take();
    if (taken !== undefined) return taken ? 'admitted' : 'full';
    this.#queue(waiter);
    return 'queued';
  }

  /** A slot taken at once (true), none to be had (false: the queue is full), or a place in the queue to take (undefined). */
  #take(): boolean | undefined {
    if (this.#active < this.maxConcurrent) {
      this.#active++;
      return true;
    }
    return this.#size >= this.maxQueue ? false : undefined;
  }

  #queue(waiter: QueueWaiter): void {
    waiter.prev = this.#last;
    waiter.next = undefined;
    if (this.#last) this.#last.next = waiter;
    else this.#first = waiter;
    this.#last = waiter;
    this.#size++;
  }

  /**
   * Takes out, and tells, each waiter at the head of the queue whose deadline is `now` or
   * earlier; gives the deadline of the first waiter left, if it has one.
   */
  expireOverdue(now: number): number | undefined {
    let first = this.#first;
    while (first?.deadline !== undefined && first.deadline <= now) {
      this.leave(first);
      first.overdue?.();
      first = this.#first;
    }
    return first?.deadline;
  }

  /** Takes a waiter out of the queue; false when it was not in it (any more). */
  leave(waiter: QueueWaiter): boolean {
    if (waiter.prev === undefined && this.#first !== waiter) return false;
    if (waiter.prev) waiter.prev.next = waiter.next;
    else this.#first = waiter.next;
    if (waiter.next) waiter.next.prev = waiter.prev;
    else this.#last = waiter.prev;
    waiter.prev = waiter.next = undefined;
    this.#size--;
    return true;
  }

  /**
   * Gives the slot back: to the first waiter if there is one. A waiter admitted here may end at
   * once (an open circuit) and give its slot back in turn; those come back to this loop, so a
   * queue of thousands failing together never grows the stack.
   */
  exit(): void {
    this.#exits++;
    if (this.#handing) return;
    this.#handing = true;
    try {
      while (this.#exits > 0) {
        this.#exits--;
        const first = this.#first;
        if (first && this.#active <= this.maxConcurrent) {
          this.leave(first);
          first.admit();
        } else {
          this.#active--;
        }
      }
    } finally {
      this.#handing = false;
    }
  }

  /**
   * Takes a slot: true at once, false when the queue is full, or a waiter to await. The waiter's
   * `cancel` gives up: out of the queue, its promise rejected with the error given, or, when its
   * turn had come already, the slot handed on.
   */
  enter(): true | false | { turn: Promise<void>; cancel: Leave } {
    const taken = this.#take();
    if (taken !== undefined) return taken;
    let waiter!: QueueWaiter;
    let leave!: Leave;
    const turn = new Promise<void>((admit, reject) => {
      waiter = { admit, prev: undefined, next: undefined };
      leave = reject;
    });
    this.#queue(waiter);
    return {
      turn,
      cancel: (error) => {
        if (this.leave(waiter)) leave(error);
        else this.exit();
      },
    };
  }

  /**
   * Runs `task(arg)` in a slot, waiting for one as long as it takes (an unbounded queue suits
   * per-request limits). A request's loaders run every key of a batch through this: no async
   * frame or closure per task.
   */
  run<A, T>(task: (arg: A) => Promise<T>, arg: A): Promise<T> {
    const taken = this.#take();
    if (taken) return this.#hold(task, arg);
    if (taken === false) return Promise.reject(new Error('Bulkhead.run needs a queue that can take the task'));
    return new Promise<T>((resolve) => {
      this.#queue({ admit: () => resolve(this.#hold(task, arg)), prev: undefined, next: undefined });
    });
  }

  #hold<A, T>(task: (arg: A) => Promise<T>, arg: A): Promise<T> {
    let running: Promise<T>;
    try {
      running = task(arg);
    } catch (error) {
      this.exit();
      return Promise.reject(error);
    }
    return running.then(this.#released as (value: T) => T, this.#releasedWith);
  }

  readonly #released = <T>(value: T): T => {
    this.exit();
    return value;
  };

  readonly #releasedWith = (error: unknown): never => {
    this.exit();
    throw error;
  };
}

/**
 * One timer for a bulkhead's queue, at its first waiter's deadline, rather than one per waiter:
 * under a list of cards thousands of calls wait at once, and each held a timer (and a timer list
 * per distinct delay) that every young collection copied. It is right while waiters join in the
 * order of their deadlines, as one client's calls do: each has the same budget, counted from
 * when it joins.
 */
export class QueueDeadlines {
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly bulkhead: Bulkhead) {}

  /** A waiter whose deadline is `deadline` has joined the end of the queue. */
  watch(deadline: number): void {
    if (this.#timer === undefined) this.#arm(deadline);
  }

  #arm(deadline: number): void {
    this.#timer = setTimeout(this.#fire, Math.max(0, Math.ceil(deadline - performance.now())));
    // A waiter waits for a slot that a call under way holds, and that call has a timer of its own.
    this.#timer.unref();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    const next = this.bulkhead.expireOverdue(performance.now());
    if (next !== undefined) this.#arm(next);
  };

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
