/** One call as the emulator received it: which operation, the W3C trace context and the header names it carried. */
export interface LoggedRequest {
  operation: string;
  /** The `traceparent` header as received (at most 256 characters kept), or null when absent. */
  traceparent: string | null;
  /** The names of the headers received, lower case, in their order (at most 32, each cut to 64 characters). */
  headers: string[];
  /** Wall-clock time of arrival (not the emulator's clock). */
  at: string;
}

/**
 * The last calls' trace context and header names, oldest first, so a test can follow one trace from the BFF into
 * the backend. A fixed ring: the emulator also serves benchmarks with millions of calls, so
 * this costs one small object per call and never grows.
 */
export class RequestLog {
  static readonly CAPACITY = 1000;
  readonly #operations: string[] = [];
  readonly #traceparents: (string | null)[] = [];
  /** Header names joined by newlines, which no name can hold: one string per call. */
  readonly #headerNames: string[] = [];
  readonly #times: number[] = [];
  #next = 0;
  #size = 0;

  /** `rawHeaders` as node gives them: name, value, name, value... */
  record(operation: string, traceparent: string | string[] | undefined, rawHeaders: readonly string[]): void {
    const i = this.#next;
    this.#operations[i] = operation;
    this.#traceparents[i] = typeof traceparent === 'string' ? traceparent.slice(0, 256) : null;
    const names: string[] = [];
    for (let n = 0; n < rawHeaders.length && names.length < 32; n += 2) names.push(rawHeaders[n]!.slice(0, 64).toLowerCase());
    this.#headerNames[i] = names.join('\n');
    this.#times[i] = Date.now();
    this.#next = (i + 1) % RequestLog.CAPACITY;
    if (this.#size < RequestLog.CAPACITY) this.#size++;
  }

  list(): LoggedRequest[] {
    const start = (this.#next - this.#size + RequestLog.CAPACITY) % RequestLog.CAPACITY;
    const out: LoggedRequest[] = [];
    for (let n = 0; n < this.#size; n++) {
      const i = (start + n) % RequestLog.CAPACITY;
      const names = this.#headerNames[i]!;
      out.push({
        operation: this.#operations[i]!,
        traceparent: this.#traceparents[i]!,
        headers: names ? names.split('\n') : [],
        at: new Date(this.#times[i]!).toISOString(),
      });
    }
    return out;
  }

  clear(): void {
    this.#next = 0;
    this.#size = 0;
  }
}
