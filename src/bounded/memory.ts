import { LRUCache } from 'lru-cache';

/**
 * The one way this process keeps anything across calls whose number or size a client can
 * influence: a least-recently-used memory with a bound it cannot exceed, in entries or in bytes
 * (as the owner counts them), each entry optionally expiring.
 *
 * A bound is required to make one, so no such memory can be made without it; an entry larger than
 * the bound allows is not kept at all. The layering check (`npm run layers`) refuses a `Map` or a
 * `Set` kept beyond one call anywhere else in `src/` unless it says why a client cannot grow it.
 */
export type MemoryBound<K, V> =
  | {
      /** Entries kept at most, the least recently used going first. */
      readonly maxEntries: number;
    }
  | {
      /** Bytes kept at most, as `sizeOf` counts them, the least recently used going first. */
      readonly maxBytes: number;
      /** About what an entry holds, key included, in bytes: a positive number. */
      readonly sizeOf: (value: V, key: K) => number;
      /** The largest entry kept; larger ones are not kept at all (default: `maxBytes`). */
      readonly maxEntryBytes?: number;
    };

export type BoundedMemoryOptions<K, V> = MemoryBound<K, V> & {
  /** How long an entry counts unless `set` gives its own time; default: until pushed out. */
  readonly ttlMs?: number;
  /** Expired entries leave when they expire (a timer each), not when next read or pushed out. */
  readonly dropExpired?: boolean;
  /** The clock of expiry times (tests); default `performance.now`. */
  readonly now?: () => number;
};

export class BoundedMemory<K extends {}, V extends {}> {
  readonly #lru: LRUCache<K, V>;
  readonly #bytes: boolean;
  readonly #now: () => number;
  /** When expired entries are next swept out, and the shortest expiry seen (half of it apart). */
  #sweepAt = -Infinity;
  #shortestTtl = Infinity;

  constructor(options: BoundedMemoryOptions<K, V>) {
    this.#now = options.now ?? (() => performance.now());
    if (options.ttlMs !== undefined) this.#shortestTtl = options.ttlMs;
    const expiry = {
      ...(options.ttlMs !== undefined ? { ttl: lruTtl(options.ttlMs) } : {}),
      ...(options.dropExpired ? { ttlAutopurge: true } : {}),
      // A clock of the owner's: read each time, as its tests move it between two reads.
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    };
    if ('maxBytes' in options) {
      if (!(options.maxBytes > 0)) throw new RangeError(`BoundedMemory: maxBytes must be positive, got ${options.maxBytes}`);
      this.#bytes = true;
      this.#lru = new LRUCache<K, V>({
        maxSize: options.maxBytes,
        maxEntrySize: options.maxEntryBytes ?? options.maxBytes,
        sizeCalculation: (value, key) => Math.max(1, Math.ceil(options.sizeOf(value, key))),
        ...expiry,
      });
    } else {
      if (!(options.maxEntries > 0)) throw new RangeError(`BoundedMemory: maxEntries must be positive, got ${options.maxEntries}`);
      this.#bytes = false;
      this.#lru = new LRUCache<K, V>({ max: options.maxEntries, ...expiry });
    }
  }

  /** The entry, which becomes the most recently used; undefined when absent or expired. */
  get(key: K): V | undefined {
    return this.#lru.get(key);
  }

  /** The entry, leaving the order of use as it is. */
  peek(key: K): V | undefined {
    return this.#lru.peek(key);
  }

  has(key: K): boolean {
    return this.#lru.has(key);
  }

  /**
   * Keeps the entry (for `ttlMs` when given, else the memory's own time), pushing out the least
   * recently used ones as the bound requires. False when it is not kept: larger than an entry may
   * be, or an expiry already past. Entries that expired leave as new ones come.
   */
  set(key: K, value: V, ttlMs?: number): boolean {
    if (ttlMs !== undefined && !(ttlMs > 0)) {
      this.#lru.delete(key);
      return false;
    }
    if (ttlMs !== undefined && ttlMs < this.#shortestTtl) this.#shortestTtl = ttlMs;
    this.#sweep();
    this.#lru.set(key, value, ttlMs === undefined ? undefined : { ttl: lruTtl(ttlMs) });
    return this.#lru.peek(key) === value;
  }

  /** Expired entries out, at most once per half the shortest expiry: a sweep reads every entry. */
  #sweep(): void {
    if (this.#shortestTtl === Infinity) return;
    const now = this.#now();
    if (now < this.#sweepAt) return;
    this.#sweepAt = now + this.#shortestTtl / 2;
    this.#lru.purgeStale();
  }

  /** The kept entry, or the one `make` gives, kept from now on (when `keep` allows). */
  remember(key: K, make: () => V, keep = true): V {
    let value = this.#lru.get(key);
    if (value === undefined) {
      value = make();
      if (keep) this.set(key, value);
    }
    return value;
  }

  /**
   * Deleting the last entry clears every slot the bound made room for (lru-cache's way), work in
   * proportion to `maxEntries`: what is kept only while some work runs belongs in `UnderWay`.
   */
  delete(key: K): boolean {
    return this.#lru.delete(key);
  }

  clear(): void {
    this.#lru.clear();
  }

  /** Entries kept now (expired ones may still count until read or pushed out). */
  get size(): number {
    return this.#lru.size;
  }

  /** Bytes kept now as `sizeOf` counts them; 0 for a memory bounded by entries. */
  get bytes(): number {
    return this.#bytes ? this.#lru.calculatedSize : 0;
  }

  /** The live entries, the most recently used first. */
  entries(): IterableIterator<[K, V]> {
    return this.#lru.entries();
  }

  values(): IterableIterator<V> {
    return this.#lru.values();
  }
}

/**
 * The time lru-cache is given for an entry kept `ms`: it counts whole milliseconds and keeps an
 * entry through its last one, where this memory (as Redis) lets it go once `ms` have passed.
 */
const lruTtl = (ms: number) => Math.max(1, Math.ceil(ms) - 1);
