import { performance } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';
import { Bulkhead } from '../campaign-api/resilience.js';

/**
 * Admission of requests to backend work while the process is saturated.
 *
 * Under more load than one core can serve, every request in flight advances a little on each
 * turn of the event loop, so all of them hold their half-done state (an execution, fifty pending
 * cards, their backend answers) for as long as the slowest: with fifty clients listing cards,
 * long enough to outlive a young collection. That state outlives the young generation and is promoted, and collecting it
 * was the largest cost of a saturated BFF. Letting only a few requests start backend work while
 * the event loop is saturated makes them finish one after another instead: the same throughput
 * (the core was the limit anyway) with less garbage, so more of it.
 *
 * A request asks for a place with its first backend call and keeps it until its answer is sent.
 * Requests that call no backend (cached reads, the app feed) never wait. The limit follows the
 * event loop's utilisation: above `busyAbove` it falls to a fraction of the places in use (not
 * below `min`); below `idleBelow` it grows again, up to `max`, where it rests while the process
 * is not saturated. So a slow backend, which leaves the loop idle, never meets a limit. The
 * price: a loop saturated by requests that never call the backend lowers the limit too, and the
 * requests that do call it are then the ones that wait.
 *
 * Only calls made through a request's own partner binding ask (`GraphQLContext.partner`); shared
 * work (the category directory, feed builds, live-status readers) calls the client directly. So a
 * request holding a place never waits on a call that waits for a place, which would deadlock
 * until deadlines: the one queue between requests, pin uploads to one campaign, is entered only
 * after the campaign was read, with a place held.
 */
export interface AdmissionSettings {
  min: number;
  max: number;
  /** How often the limit follows the loop's utilisation. */
  intervalMs: number;
  busyAbove: number;
  idleBelow: number;
}

export const ADMISSION_DEFAULTS: AdmissionSettings = { min: 8, max: 1024, intervalMs: 100, busyAbove: 0.9, idleBelow: 0.75 };

/** Why a request stopped waiting for its place. */
export class AdmissionLeft extends Error {
  constructor(reason: string) {
    super(`left the admission queue: ${reason}`);
    this.name = 'AdmissionLeft';
  }
}

export class Admission {
  readonly #places: Bulkhead;
  #limit: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: AdmissionSettings = ADMISSION_DEFAULTS,
    /** The loop's utilisation since the last reading, 0 to 1; replaceable in tests. */
    utilization: () => number = loopUtilization(),
  ) {
    if (!(settings.min >= 1 && settings.max >= settings.min)) {
      throw new RangeError(`Admission: need 1 <= min <= max, got min ${settings.min} and max ${settings.max}`);
    }
    this.#limit = settings.max;
    this.#places = new Bulkhead(settings.max, Number.POSITIVE_INFINITY);
    if (settings.intervalMs > 0) {
      this.#timer = setInterval(() => this.follow(utilization()), settings.intervalMs);
      this.#timer.unref();
    }
  }

  /** One request's place: asked for by its first backend call, given back when it has answered. */
  ticket(signal: () => AbortSignal): AdmissionTicket {
    return new AdmissionTicket(this.#places, signal);
  }

  /** Moves the limit after a reading of the loop's utilisation. */
  follow(utilization: number): void {
    const { min, max, busyAbove, idleBelow } = this.settings;
    if (utilization > busyAbove) {
      this.#limit = Math.max(min, Math.floor(Math.min(this.#limit, this.#places.active) * 0.8));
    } else if (utilization < idleBelow) {
      this.#limit = Math.min(max, Math.ceil(this.#limit * 1.25) + 1);
    } else {
      return;
    }
    this.#places.setLimit(this.#limit);
  }

  get limit(): number {
    return this.#limit;
  }

  get active(): number {
    return this.#places.active;
  }

  get waiting(): number {
    return this.#places.waiting;
  }

  /** bff_admission_limit, bff_admission_active and bff_admission_waiting, read at scrape time. */
  register(registry: Registry): void {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });
    gauge('bff_admission_limit', 'Requests that may have backend work under way at once; lowered while the event loop is saturated.', () => this.limit);
    gauge('bff_admission_active', 'Requests with backend work under way.', () => this.active);
    gauge('bff_admission_waiting', 'Requests waiting to start backend work.', () => this.waiting);
  }

  close(): void {
    clearInterval(this.#timer);
  }
}

type TicketState = 'idle' | 'waiting' | 'holding' | 'done';

export class AdmissionTicket {
  #state: TicketState = 'idle';
  #waiting: Promise<void> | undefined;
  #cancel: ((error: Error) => void) | undefined;

  constructor(
    private readonly places: Bulkhead,
    private readonly signal: () => AbortSignal,
  ) {}

  /** Undefined when the request may call now; else a promise of its place, rejected if it leaves first. */
  wait(): Promise<void> | undefined {
    if (this.#state === 'waiting') return this.#waiting;
    if (this.#state !== 'idle') return undefined;
    const entry = this.places.enter();
    if (entry === true) {
      this.#state = 'holding';
      return undefined;
    }
    if (entry === false) throw new Error('an admission queue without bound refused a request');
    this.#state = 'waiting';
    this.#cancel = entry.cancel;
    const signal = this.signal();
    const onAbort = () => this.#leave(new AdmissionLeft(String((signal.reason as Error | undefined)?.message ?? signal.reason)));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    this.#waiting = entry.turn.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        if (this.#state === 'waiting') this.#state = 'holding';
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        throw error;
      },
    );
    return this.#waiting;
  }

  /** The request has answered: its place goes to the next, or it leaves the queue. */
  release(): void {
    if (this.#state === 'holding') {
      this.#state = 'done';
      this.places.exit();
    } else {
      this.#leave(new AdmissionLeft('the request has answered'));
    }
  }

  #leave(error: Error): void {
    if (this.#state === 'waiting') {
      this.#state = 'done';
      // Out of the queue (the wait rejects), or, when the turn had come already, the place handed on.
      this.#cancel!(error);
    } else if (this.#state === 'idle') {
      this.#state = 'done';
    }
  }
}

/** The event loop's utilisation since the previous call. */
function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    return utilization;
  };
}
