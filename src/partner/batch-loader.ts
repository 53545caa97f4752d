import DataLoader from 'dataloader';

/** A key of a `readAll` batch: the promise of its own value is made only if a `load` asks for it. */
class Reading<V> {
  /** Set as soon as the batch is made, in the same turn. */
  batch!: Promise<(V | Error)[]>;

  constructor(private readonly index: number) {}

  promise(): Promise<V> {
    return this.batch.then((values) => {
      const value = values[this.index]!;
      if (value instanceof Error) throw value;
      return value;
    });
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * A request's DataLoader that can also read many keys in one go (`readAll`) without a promise per
 * key. `loadMany` makes, for each key, a promise, its callbacks, a catch and a place in
 * `Promise.all`: for fifty ids, hundreds of objects that live until the last of the fifty calls
 * answers, long enough under load for young collections to copy and promote them. `readAll`
 * makes one promise for the batch, and each key's entry in the loader's cache is the batch and
 * the key's place in it, turned into a promise only if a `load` of the same request asks for
 * that key meanwhile (two fields reading one campaign still make one call).
 */
export class BatchLoader<K, V, C = K> extends DataLoader<K, V, C> {
  readonly #entries: Map<C, Promise<V> | Reading<V>>;
  readonly #keyOf: (key: K) => C;

  constructor(
    private readonly fetchAll: (keys: readonly K[]) => Promise<(V | Error)[]>,
    cacheKeyFn: ((key: K) => C) | undefined,
    /** Told of each key asked for, before it is read (tracing: which resolver asked first). */
    private readonly asked?: (key: C) => void,
  ) {
    // bounded: one request's keys, as DataLoader's own cache holds them; it goes with the request.
    const entries = new Map<C, Promise<V> | Reading<V>>();
    super(fetchAll, {
      ...(cacheKeyFn ? { cacheKeyFn } : {}),
      cacheMap: {
        get(key: C): Promise<V> | undefined {
          const entry = entries.get(key);
          if (!(entry instanceof Reading)) return entry;
          const promise = entry.promise();
          entries.set(key, promise);
          return promise;
        },
        set: (key: C, promise: Promise<V>) => void entries.set(key, promise),
        delete: (key: C) => entries.delete(key),
        clear: () => entries.clear(),
      },
    });
    this.#entries = entries;
    this.#keyOf = cacheKeyFn ?? ((key: K) => key as unknown as C);
  }

  override load(key: K): Promise<V> {
    this.asked?.(this.#keyOf(key));
    return super.load(key);
  }

  /**
   * Each key's value, or its error in its place (as `loadMany` gives them), read in one batch
   * for the keys this request has not asked for yet; keys it has are taken from the cache.
   */
  readAll(keys: readonly K[]): Promise<(V | Error)[]> {
    const entries = this.#entries;
    const fresh: K[] = [];
    const readings: Reading<V>[] = [];
    for (const key of keys) {
      const place = this.#keyOf(key);
      this.asked?.(place);
      if (entries.has(place)) continue;
      // In the cache at once, so a key given twice is read once.
      const reading = new Reading<V>(fresh.length);
      entries.set(place, reading);
      fresh.push(key);
      readings.push(reading);
    }
    if (fresh.length > 0) {
      const batch = this.fetchAll(fresh).then(undefined, (error: unknown) => fresh.map(() => asError(error)));
      for (const reading of readings) reading.batch = batch;
      if (fresh.length === keys.length) return batch;
    }
    return Promise.all(keys.map((key) => super.load(key).then(undefined, asError)));
  }
}
