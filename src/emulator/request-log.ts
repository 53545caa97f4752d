/** One call as the emulator received it: which operation, and the W3C trace context it carried. */
export interface LoggedRequest {
  operation: string;
  /** The `traceparent` header as received (at most 256 characters kept), or null when absent. */
  traceparent: string | null;
  /** Wall-clock time of arrival (not the emulator's clock). */
  at: string;
}

/**
 * The last calls' trace context, oldest first, so a test can follow one trace from the BFF into
 * the backend. A fixed ring: the emulator also serves benchmarks with millions of calls, so
 * this costs one small object per call and never grows.
 */
export class RequestLog {
  static readonly CAPACITY = 1000;
  readonly #operations: string[] = [];
  readonly #traceparents: (string | null)[] = [];
  readonly #times: number[] = [];
  #next = 0;
  #size = 0;

  record(operation: string, traceparent: string | string[] | undefined): void {
    const i = this.#next;
    this.#operations[i] = operation;
    this.#traceparents[i] = typeof traceparent === 'string' ? traceparent.slice(0, 256) : null;
    this.#times[i] = Date.now();
    this.#next = (i + 1) % RequestLog.CAPACITY;
    if (this.#size < RequestLog.CAPACITY) this.#size++;
  }

  list(): LoggedRequest[] {
    const start = (this.#next - this.#size + RequestLog.CAPACITY) % RequestLog.CAPACITY;
    const out: LoggedRequest[] = [];
    for (let n = 0; n < this.#size; n++) {
      const i = (start + n) % RequestLog.CAPACITY;
      out.push({ operation: this.#operations[i]!, traceparent: this.#traceparents[i]!, at: new Date(this.#times[i]!).toISOString() });
    }
    return out;
  }

  clear(): void {
    this.#next = 0;
    this.#size = 0;
  }
}
