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
  /** A keyv instance under its own namespace. */
  keyv(namespace: string): Keyv;
  /** Whether the cache answers now (for /readyz). */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface CacheStoreOptions {
  /** Called on a cache failure; the caller logs it (throttled) and counts it. */
  onError?: (error: unknown) => void;
}

export async function createCacheStore(cacheUrl: string | undefined, options: CacheStoreOptions = {}): Promise<CacheStore> {
  if (!cacheUrl) return memoryStore();
  return redisStore(cacheUrl, options);
}

function memoryStore(): CacheStore {
  const instances: Keyv[] = [];
  return {
    kind: 'memory',
    keyv(namespace) {
      const keyv = new Keyv({ namespace });
      instances.push(keyv);
      return keyv;
    },
    async ping() {
      return true;
    },
    async close() {
      await Promise.all(instances.map((k) => k.disconnect()));
    },
  };
}

async function redisStore(url: string, { onError }: CacheStoreOptions): Promise<CacheStore> {
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
  // Start-up must not wait on, nor fail with, the cache: connect in the background.
  client.connect().catch((error: unknown) => onError?.(error));

  return {
    kind: 'redis',
    keyv(namespace) {
      // One adapter per namespace over the shared connection: keyv sets the namespace on its store.
      const adapter = new KeyvRedis(client, { namespace, throwOnConnectError: false, throwOnErrors: false });
      const keyv = new Keyv({ store: adapter, namespace, useKeyPrefix: false });
      keyv.on('error', (error: unknown) => onError?.(error));
      return keyv;
    },
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
