import { Keyv } from 'keyv';
import { BoundedMemory, checkTtl, type ExpiringStore, type ExpiringStoreBounds } from '../bounded/index.js';
import { connectRedis, type RedisConnection } from './redis-connection.js';

/**
 * The cache shared across requests, one keyv per namespace: bounded memory by default, Redis when
 * CACHE_URL is set so that several BFF instances share the category directory, the APQ store, the
 * offer feed and the token verdicts (one server, a Sentinel group's master or a Cluster: see
 * redis-url.ts).
 *
 * Each namespace is an `ExpiringStore`: every write carries its expiry (keyv hands it to the
 * store, `SET … PX` on Redis, and both stores refuse a write without one), and an entry larger than
 * the namespace allows is not kept; in memory a namespace also keeps a number of bytes at most.
 * This is the only place values are written to Redis.
 *
 * Redis is a cache here, never a dependency: commands fail fast while it is down (no offline
 * queue), a failure is reported and reads as a miss, and the client reconnects in the background.
 */
export interface CacheStore {
  kind: 'memory' | 'redis';
  /**
   * The store of one namespace, with the bounds it is kept within; the same store for the same
   * name (its first bounds hold). Namespaces never see each other's keys.
   */
  namespace<V>(name: string, bounds: ExpiringStoreBounds<V>): ExpiringStore<V>;
  /** Whether the cache answers now (for /readyz). */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Whether the client is connected and ready for commands now, without asking Redis (for metrics). */
  connected(): boolean;
  close(): Promise<void>;
}

export interface CacheStoreOptions {
  /** Called on a cache failure; the caller logs it (throttled) and counts it. */
  onError?: (error: unknown) => void;
  /** Called each time the connection is (again) ready for commands. */
  onReady?: () => void;
}

export async function createCacheStore(cacheUrl: string | undefined, options: CacheStoreOptions = {}): Promise<CacheStore> {
  if (!cacheUrl) return memoryStore();
  return redisStore(cacheUrl, options);
}

/** One store per namespace, made on first use: the namespaces are the code's own few names. */
function namespaces(make: <V>(name: string, bounds: ExpiringStoreBounds<V>) => ExpiringStore<V>) {
  // bounded: one entry per namespace the code names, a handful.
  const made = new Map<string, ExpiringStore<unknown>>();
  return <V>(name: string, bounds: ExpiringStoreBounds<V>): ExpiringStore<V> => {
    let store = made.get(name) as ExpiringStore<V> | undefined;
    if (!store) made.set(name, (store = make(name, bounds)) as ExpiringStore<unknown>);
    return store;
  };
}

/**
 * A namespace as an `ExpiringStore`, over keyv (which serialises, and reads an expired entry as
 * none): a write without a positive, finite expiry is a programming error, and an entry larger
 * than the namespace allows is not kept (and replaces the one kept before, so none is left).
 * keyv reports a store's failure as an event and a miss, never as a thrown error.
 */
function keyvNamespace<V>(keyv: Keyv<V>, bounds: ExpiringStoreBounds<V>, onError: (error: unknown) => void): ExpiringStore<V> {
  keyv.on('error', onError);
  return {
    get: (key) => keyv.get(key) as Promise<V | undefined>,
    async set(key, value, ttlMs) {
      checkTtl(ttlMs);
      const text = JSON.stringify(value);
      if (text === undefined || Buffer.byteLength(text) > bounds.maxEntryBytes) {
        await keyv.delete(key);
        return false;
      }
      return keyv.set(key, value, Math.ceil(ttlMs));
    },
    async delete(key) {
      await keyv.delete(key);
    },
  };
}

/**
 * keyv's store for a namespace in memory: a BoundedMemory by bytes (as the namespace counts its
 * values), each entry kept for the expiry keyv hands down. keyv keeps its entries unserialised here.
 */
function boundedMemoryStore<V>(bounds: ExpiringStoreBounds<V>): KeyvStoreAdapterLike {
  const memory = new BoundedMemory<string, { value: V; expires?: number }>({
    maxBytes: bounds.maxBytes,
    maxEntryBytes: bounds.maxEntryBytes,
    sizeOf: (entry, key) => bounds.sizeOf(entry.value, key),
  });
  return {
    get: async (key: string) => memory.get(key),
    async set(key: string, entry: { value: V; expires?: number }, ttl?: number) {
      checkTtl(ttl ?? Number.NaN);
      return memory.set(key, entry, ttl);
    },
    delete: async (key: string) => memory.delete(key),
    async clear() {
      memory.clear();
    },
  };
}

/**
 * keyv's store for a namespace on Redis: `SET … PX` with the expiry keyv hands down (there is no
 * write without one), `GET`, `DEL`, through whichever client serves now (after a failover, the
 * new master's), under the namespace's own prefix.
 */
function redisStoreOf(connection: RedisConnection, name: string): KeyvStoreAdapterLike {
  return {
    get: async (key: string) => (await connection.commands().get(redisKey(name, key))) ?? undefined,
    async set(key: string, text: string, ttl?: number) {
      checkTtl(ttl ?? Number.NaN);
      await connection.commands().set(redisKey(name, key), text, { expiration: { type: 'PX', value: Math.ceil(ttl!) } });
      return true;
    },
    delete: async (key: string) => (await connection.commands().del(redisKey(name, key))) > 0,
    // No namespace is ever cleared whole: the method is keyv's, for other uses.
    async clear() {},
  };
}

/** What keyv asks of a store: the Map-like methods it calls, the expiry handed to `set`. */
interface KeyvStoreAdapterLike {
  get(key: string): Promise<unknown>;
  set(key: string, value: never, ttl?: number): Promise<boolean>;
  delete(key: string): Promise<boolean>;
  clear(): Promise<void>;
}

/** A namespace in this process's memory, as `createCacheStore` without CACHE_URL makes each. */
export function memoryNamespace<V>(bounds: ExpiringStoreBounds<V>): ExpiringStore<V> {
  // keyv's own prefixing off: a namespace is a store of its own. Entries stay objects in memory.
  return keyvNamespace(new Keyv<V>({ store: boundedMemoryStore(bounds) as never, useKeyPrefix: false, serialize: undefined, deserialize: undefined }), bounds, () => {});
}

function memoryStore(): CacheStore {
  return {
    kind: 'memory',
    namespace: namespaces((_name, bounds) => memoryNamespace(bounds)),
    async ping() {
      return true;
    },
    connected: () => true,
    async close() {},
  };
}

/** The Redis key of a namespace's entry. */
export const redisKey = (namespace: string, key: string) => `campaign-bff:${namespace}:${key}`;

async function redisStore(url: string, { onError, onReady }: CacheStoreOptions): Promise<CacheStore> {
  const report = (error: unknown) => onError?.(error);
  // Start-up must not wait on, nor fail with, the cache: it connects in the background, and
  // commands go to whichever client serves now (after a failover, the new master's).
  const connection = await connectRedis(url, { onError: report, onReady: () => onReady?.() });
  return {
    kind: 'redis',
    namespace: namespaces(<V>(name: string, bounds: ExpiringStoreBounds<V>) =>
      // keyv serialises; the store adds the namespace's prefix, so keyv's own is off.
      keyvNamespace(new Keyv<V>({ store: redisStoreOf(connection, name) as never, useKeyPrefix: false }), bounds, report),
    ),
    connected: () => connection.ready(),
    ping: (timeoutMs = 500) => connection.ping(timeoutMs),
    close: () => connection.close(),
  };
}
