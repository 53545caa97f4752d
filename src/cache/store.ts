import { Keyv } from 'keyv';

/**
 * The cache shared across requests: in-memory keyv by default, Redis when CACHE_URL is set so
 * that several BFF instances share the category directory and the APQ store.
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

async function redisStore(url: string, { onError, onReady }: CacheStoreOptions): Promise<CacheStore> {
  // Loaded only when Redis is configured: the client is a sizeable module most runs never need.
  const { default: KeyvRedis, createClient } = await import('@keyv/redis');
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 1000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 3000),
    },
  });
  client.on('error', (error: unknown) => onError?.(error));
  client.on('ready', () => onReady?.());
  // Start-up must not wait on, nor fail with, the cache: connect in the background.
  client.connect().catch((error: unknown) => onError?.(error));

  // One keyv per namespace: each adapter adds its listeners to the shared client.
  const namespaces = new Map<string, Keyv>();
  return {
    kind: 'redis',
    keyv(namespace) {
      const existing = namespaces.get(namespace);
      if (existing) return existing;
      // Keyv hands its namespace to the adapter, which prefixes every key ("apq::<key>") the same
      // way for single and batched reads; keyv's own prefixing is off so the namespace is applied once.
      const adapter = new KeyvRedis(client, { throwOnConnectError: false, throwOnErrors: false });
      const keyv = new Keyv({ store: adapter, namespace, useKeyPrefix: false });
      keyv.on('error', (error: unknown) => onError?.(error));
      namespaces.set(namespace, keyv);
      return keyv;
    },
    connected: () => client.isReady,
    async ping(timeoutMs = 500) {
      if (!client.isReady) return false;
      let timer: NodeJS.Timeout | undefined;
      try {
        const answer = await Promise.race([
          client.ping(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('redis ping timed out')), timeoutMs);
          }),
        ]);
        return answer === 'PONG';
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      try {
        if (client.isOpen) await client.close();
      } catch {
        client.destroy();
      }
    },
  };
}
