/**
 * A store kept for other requests, and for the other instances of a fleet when it is Redis
 * (`src/cache/store.ts` makes one per namespace, in memory or on Redis). Every write names how
 * long its entry is kept: there is no write without an expiry, so nothing a client causes stays
 * for ever. An entry larger than the namespace's bound is not kept; in memory the namespace keeps
 * a number of bytes at most, the least recently used going first.
 *
 * A store is a cache, never a dependency: one that fails reads as a miss and keeps nothing.
 */
export interface ExpiringStore<V> {
  /** The value kept under `key`; undefined when there is none (expired, never kept, or the store failing). */
  get(key: string): Promise<V | undefined>;
  /** Keeps the value for `ttlMs` (positive and finite); false when it was not kept. */
  set(key: string, value: V, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/** What one namespace may hold. */
export interface ExpiringStoreBounds<V> {
  /** Bytes its entries hold at most in memory (on Redis, their expiries bound them). */
  readonly maxBytes: number;
  /** The largest entry kept, in bytes (on Redis, its JSON text). */
  readonly maxEntryBytes: number;
  /** About the bytes a value holds in memory, its key included. */
  readonly sizeOf: (value: V, key: string) => number;
}

/** A write's expiry, checked the same way by every store: a programming error is not a miss. */
export function checkTtl(ttlMs: number): void {
  if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) throw new RangeError(`an expiring store keeps an entry for a positive, finite time; got ${ttlMs} ms`);
}
