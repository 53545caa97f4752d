import { checkTtl, memoryExpiringStore, type ExpiringStore, type ExpiringStoreBounds } from '../bounded/index.js';
import { connectRedis, type RedisConnection } from './redis-connection.js';

/**
 * The cache shared across requests: bounded memory by default, Redis when CACHE_URL is set so
 * that several BFF instances share the category directory, the APQ store, the offer feed and the
 * token verdicts (one server, a Sentinel group's master or a Cluster: see redis-url.ts).
 *
 * Each namespace is an `ExpiringStore`: every write carries its expiry (`SET … PX` on Redis), and
 * an entry larger than the namespace allows is not kept; in memory a namespace also keeps a number
 * of bytes at most. This is the only place values are written to Redis.
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

function memoryStore(): CacheStore {
  return {
    kind: 'memory',
    namespace: namespaces((_, bounds) => memoryExpiringStore(bounds)),
    async ping() {
      return true;
    },
    connected: () => true,
    async close() {},
  };
}

/** The Redis key of a namespace's entry. */
export const redisKey = (namespace: string, key: string) => `campaign-bff:${namespace}:${key}`;

function redisNamespace<V>(connection: RedisConnection, name: string, bounds: ExpiringStoreBounds<V>, onError: (error: unknown) => void): ExpiringStore<V> {
  return {
    async get(key) {
      try {
        const text = await connection.commands().get(redisKey(name, key));
        return text === null ? undefined : (JSON.parse(text) as V);
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    async set(key, value, ttlMs) {
      checkTtl(ttlMs);
      const text = JSON.stringify(value);
      try {
        // A value too large to keep replaces the one kept before all the same: none is left.
        if (text === undefined || Buffer.byteLength(text) > bounds.maxEntryBytes) {
          await connection.commands().del(redisKey(name, key));
          return false;
        }
        await connection.commands().set(redisKey(name, key), text, { expiration: { type: 'PX', value: Math.ceil(ttlMs) } });
        return true;
      } catch (error) {
        onError(error);
        return false;
      }
    },
    async delete(key) {
      try {
        await connection.commands().del(redisKey(name, key));
      } catch (error) {
        onError(error);
      }
    },
  };
}

async function redisStore(url: string, { onError, onReady }: CacheStoreOptions): Promise<CacheStore> {
  const report = (error: unknown) => onError?.(error);
  // Start-up must not wait on, nor fail with, the cache: it connects in the background, and
  // commands go to whichever client serves now (after a failover, the new master's).
  const connection = await connectRedis(url, { onError: report, onReady: () => onReady?.() });
  return {
    kind: 'redis',
    namespace: namespaces((name, bounds) => redisNamespace(connection, name, bounds, report)),
    connected: () => connection.ready(),
    ping: (timeoutMs = 500) => connection.ping(timeoutMs),
    close: () => connection.close(),
  };
}
