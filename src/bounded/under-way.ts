/**
 * Work under way by key, so that whoever asks for the same thing while it runs shares it: a check
 * of a token, a read of the backend, a feed's build, an answer being made. An entry joins when its
 * work starts and leaves when that work ends, so the store holds what runs at once. Past `max` a
 * new key is not kept and its work runs unshared; nothing is pushed out.
 *
 * Not a `BoundedMemory`: a least-recently-used memory clears every one of its slots when its last
 * entry leaves, work in proportion to its bound paid at the end of nearly every piece of work,
 * since little runs at once.
 */
export class UnderWay<K, V extends {}> {
  readonly #max: number;
  readonly #entries = new Map<K, V>();

  constructor(max: number) {
    if (!(max > 0)) throw new RangeError(`UnderWay: max must be positive, got ${max}`);
    this.#max = max;
  }

  /** The work under way for `key`, if any. */
  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /**
   * `value` is the work under way for `key` from now on (a later work for a key replaces the
   * earlier one, which is no longer joined). False when it is not kept: `max` keys have work under
   * way already.
   */
  enter(key: K, value: V): boolean {
    if (this.#entries.size >= this.#max && !this.#entries.has(key)) return false;
    this.#entries.set(key, value);
    return true;
  }

  /**
   * `enter` for work that is a promise, which leaves once it settles: before anyone awaiting it
   * resumes, when they awaited it after this call.
   */
  enterUntilSettled(key: K, work: V & PromiseLike<unknown>): void {
    if (!this.enter(key, work)) return;
    const leave = () => this.leave(key, work);
    work.then(leave, leave);
  }

  /** `value`'s work has ended: it leaves, unless a later work for its key replaced it. */
  leave(key: K, value: V): void {
    if (this.#entries.get(key) === value) this.#entries.delete(key);
  }

  /** Keys with work under way. */
  get size(): number {
    return this.#entries.size;
  }
}
