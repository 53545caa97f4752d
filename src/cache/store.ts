import { Keyv } from 'keyv';
import { connectRedis, type KeyvRedisClient } from './redis-connection.js';

/**
 * The cache shared across requests: in-memory keyv by default, Redis when CACHE_URL is set so
 * that several BFF instances share the category directory and the APQ store (one server, a
 * Sentinel group's master or a Cluster: see redis-url.ts).
 *
 * Redis is a cache here, never a dependency: commands fail fast while it is down (no offline
 * queue), keyv turns a failure into a miss, and the client reconnects in the background.
 */
export interface CacheStore {
  kind: 'memory' | 'redis';
  /** The keyv of one namespace (the same instance for the same name); namespaces never see each other's keys. */
  keyv(namespace: string): Keyv;
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

function memoryStore(): CacheStore {
  // A Map per namespace keeps namespaces apart, so keyv's own key prefixing stays off: with it on,
  // its batched get (which Apollo's APQ store uses) prefixes "apq:<hash>" again while its single
  // set does not, and every persisted query missed.
  const namespaces = new Map<string, Keyv>();
  return {
    kind: 'memory',
    keyv(namespace) {
      let keyv = namespaces.get(namespace);
      if (!keyv) namespaces.set(namespace, (keyv = new Keyv({ store: new Map(), namespace, useKeyPrefix: false })));
      return keyv;
    },
    async ping() {
      return true;
    },
    connected: () => true,
    async close() {
      await Promise.all([...namespaces.values()].map((k) => k.disconnect()));
    },
  };
}

/** Keeps nothing: a namespace's store until Redis has a client (the Sentinels named a master, a Cluster node answered). */
class NothingKept<K, V> extends Map<K, V> {
  override set(): this {
    return this;
  }
}

async function redisStore(url: string, { onError, onReady }: CacheStoreOptions): Promise<CacheStore> {
  const { default: KeyvRedis } = await import('@keyv/redis');
  // Start-up must not wait on, nor fail with, the cache: it connects in the background.
  const connection = await connectRedis(url, { onError: (error) => onError?.(error), onReady: () => onReady?.() });
  const adapter = (client: KeyvRedisClient) => new KeyvRedis(client, { throwOnConnectError: false, throwOnErrors: false });

  // One keyv per namespace: each adapter adds its listeners to the shared client.
  const namespaces = new Map<string, Keyv>();
  // A new master (after a failover) or the first client: every namespace moves to it. The old
  // client is closed, and an adapter left on it would open it again to the old master.
  connection.onClient((client) => {
    for (const keyv of namespaces.values()) keyv.store = adapter(client);
  });
  return {
    kind: 'redis',
    keyv(namespace) {
      const existing = namespaces.get(namespace);
      if (existing) return existing;
      // Keyv hands its namespace to the adapter, which prefixes every key ("apq::<key>") the same
      // way for single and batched reads; keyv's own prefixing is off so the namespace is applied once.
      const client = connection.client();
      const keyv = new Keyv({ store: client ? adapter(client) : new NothingKept(), namespace, useKeyPrefix: false });
      keyv.on('error', (error: unknown) => onError?.(error));
      namespaces.set(namespace, keyv);
      return keyv;
    },
    connected: () => connection.ready(),
    ping: (timeoutMs = 500) => connection.ping(timeoutMs),
    close: () => connection.close(),
  };
}
