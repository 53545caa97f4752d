import { BoundedMemory } from '../bounded/index.js';
import type { CallerKind, Transport } from './types.js';

/**
 * What the pipeline made of a request's raw parameters (a POST's body, a GET's query string), kept
 * with that text for the kind of caller and the transport it came by: a request repeated byte for
 * byte (an app's feed, a dashboard's poll, every warm read) is neither read as JSON nor judged
 * again. The judgement depends on nothing else (the policies that do, the rate limits, run for
 * every request before it), so what is kept is the same judgement the request would get.
 *
 * Only short texts are kept (a hash of a long one each time would cost what reading it does),
 * at most `MAX_ENTRIES` of them for each kind of caller on each transport, and no mutation's (the
 * pipeline offers none: a write is rarely sent twice alike).
 */
export const MAX_REPEATED_TEXT = 4096;
const MAX_ENTRIES = 2000;

export class Repeats<T extends {}> {
  /** One memory per kind of caller and transport, both of fixed lists: read without making a key. */
  readonly #memories: Partial<Record<CallerKind, Partial<Record<Transport, BoundedMemory<string, T>>>>> = {};

  #memory(callerKind: CallerKind, transport: Transport): BoundedMemory<string, T> {
    const byTransport = (this.#memories[callerKind] ??= {});
    return (byTransport[transport] ??= new BoundedMemory<string, T>({ maxEntries: MAX_ENTRIES }));
  }

  get(callerKind: CallerKind, transport: Transport, raw: string): T | undefined {
    return raw.length <= MAX_REPEATED_TEXT ? this.#memory(callerKind, transport).get(raw) : undefined;
  }

  set(callerKind: CallerKind, transport: Transport, raw: string, value: T): void {
    if (raw.length <= MAX_REPEATED_TEXT) this.#memory(callerKind, transport).set(raw, value);
  }
}
