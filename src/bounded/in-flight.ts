/** An entry of an `InFlight`: what was added leaves it with `leave()`; leaving twice is nothing. */
export interface InFlightEntry {
  leave(): void;
}

/** One link of the ring; the ring's own head is a link that holds no item. */
class Link<T> implements InFlightEntry {
  constructor(
    public item: T | undefined,
    public prev: Link<T> | undefined,
    public next: Link<T> | undefined,
    private count: { size: number } | undefined,
  ) {}

  leave(): void {
    const count = this.count;
    if (!count) return;
    this.prev!.next = this.next;
    this.next!.prev = this.prev;
    this.item = this.prev = this.next = this.count = undefined;
    count.size--;
  }
}

/**
 * What is under way: answers being written, executions, backend calls. Each joins when it starts
 * and leaves when it ends, as often as requests come, and shutdown walks whatever is left. Its
 * size is what is in flight, which the admission and the bulkheads bound.
 *
 * Not a Set. A Set kept for the life of the process has its table in the old generation, and V8
 * then makes every table replacing it (grown, or rid of removed entries) in the old generation
 * too, the replaced one still holding the entries it had. Until the next full collection every
 * young collection keeps those entries alive from there and then promotes them, whole requests
 * long answered with them: the old generation fills with garbage, and full collections follow
 * one another under load. A ring of small links leaves nothing behind: an entry that leaves is
 * unlinked and its link emptied.
 */
export class InFlight<T> implements Iterable<T> {
  readonly #count = { size: 0 };
  readonly #head: Link<T> = new Link<T>(undefined, undefined, undefined, undefined);

  constructor() {
    this.#head.prev = this.#head.next = this.#head;
  }

  get size(): number {
    return this.#count.size;
  }

  add(item: T): InFlightEntry {
    const head = this.#head;
    const link = new Link(item, head.prev, head, this.#count);
    head.prev!.next = link;
    head.prev = link;
    this.#count.size++;
    return link;
  }

  /** Adds work that is a promise, which leaves once it settles. */
  addUntilSettled(work: T & PromiseLike<unknown>): void {
    const entry = this.add(work);
    const leave = () => entry.leave();
    work.then(leave, leave);
  }

  /** Over the entries as they are now: any may leave while this runs (stopping one often ends it). */
  [Symbol.iterator](): Iterator<T> {
    const items: T[] = [];
    for (let link = this.#head.next!; link !== this.#head; link = link.next!) items.push(link.item as T);
    return items[Symbol.iterator]();
  }
}
