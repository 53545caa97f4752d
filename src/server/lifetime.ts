import { setMaxListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { InFlight, InFlightEntry } from '../bounded/index.js';
import type { Admission, AdmissionTicket } from './admission.js';
/**
 * A request's deadline and cancellation. The AbortSignal, and the listener that fires it when the
 * client goes away, are made only when something asks for the signal (a backend call): a warm
 * cached read never does, and this runs for every request.
 */
export class RequestLifetime {
  /** Resolves when the request must be answered without its result: its deadline passed, or shutdown's grace period ran out. */
  readonly expired: Promise<'timeout' | 'shutdown'>;
  #expire!: (reason: 'timeout' | 'shutdown') => void;
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout;
  /** Why the request lapsed (the reason its backend calls are aborted with); undefined while it has not. */
  #lapsedWith: string | undefined;
  #onClose = () => {
    if (!this.res.writableFinished) this.#controller?.abort(new Error('client went away'));
  };

  #ticket: AdmissionTicket | undefined;
  readonly #inFlight: InFlightEntry;

  constructor(
    private readonly res: ServerResponse,
    timeoutMs: number,
    private readonly admission: Admission | undefined,
    inFlight: InFlight<RequestLifetime>,
  ) {
    this.expired = new Promise((resolve) => (this.#expire = resolve));
    this.#timer = setTimeout(() => this.#lapse('timeout', 'request deadline'), timeoutMs);
    this.#inFlight = inFlight.add(this);
  }

  /** Ends the request's work now (its backend calls are aborted) and has it answered as `reason` says. */
  #lapse(reason: 'timeout' | 'shutdown', why: string): void {
    if (this.#lapsedWith !== undefined) return;
    this.#lapsedWith = why;
    clearTimeout(this.#timer);
    this.#controller?.abort(new Error(why));
    this.#expire(reason);
  }

  /** Shutdown's grace period is over: the request is answered 503 SHUTTING_DOWN instead of having its connection cut. */
  interrupt(): void {
    this.#lapse('shutdown', 'server shutting down');
  }

  readonly signal = (): AbortSignal => {
    if (!this.#controller) {
      this.#controller = new AbortController();
      // Every backend call of the request listens on this signal, and a list's loader fans out to
      // dozens at once: past Node's default of 10 listeners each such request printed a warning.
      setMaxListeners(0, this.#controller.signal);
      if (this.#lapsedWith !== undefined) this.#controller.abort(new Error(this.#lapsedWith));
      else this.res.once('close', this.#onClose);
    }
    return this.#controller.signal;
  };

  readonly admit = (): Promise<void> | undefined => {
    if (!this.admission) return undefined;
    this.#ticket ??= this.admission.ticket(this.signal);
    return this.#ticket.wait();
  };

  end(): void {
    this.#inFlight.leave();
    clearTimeout(this.#timer);
    if (this.#controller) this.res.off('close', this.#onClose);
    this.#ticket?.release();
  }
}

