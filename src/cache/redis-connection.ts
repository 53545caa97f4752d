import { clusterConnection } from './redis-cluster.js';
import { closeClient, pingWithin, socket, subscriptions, type RedisCommands, type RedisConnection, type RedisConnectionOptions, type RedisModule } from './redis-common.js';
import { sentinelConnection } from './redis-sentinel.js';
import { parseRedisUrl } from './redis-url.js';

export type { RedisCommands, RedisConnection, RedisConnectionOptions } from './redis-common.js';

/**
 * One connection to the shared Redis, whatever `CACHE_URL` names: one server, the master a group
 * of Sentinels names, or a Redis Cluster. Every shared feature (the cache's namespaces, the feed's
 * lock and messages, rate limits, live status) goes through one of these, the same way on each.
 */
export async function connectRedis(url: string, options: RedisConnectionOptions): Promise<RedisConnection> {
  // Loaded only when Redis is configured: the client is a sizeable module most runs never need.
  const redis = await import('@keyv/redis');
  const target = parseRedisUrl(url);
  switch (target.kind) {
    case 'single':
      return oneServer(redis, target.url, options);
    case 'sentinel':
      return sentinelConnection(redis, target, options);
    case 'cluster':
      return clusterConnection(redis, target, options);
  }
}

/** One server: node-redis's client, as it has always been used here. */
function oneServer(redis: RedisModule, url: string, { onError, onReady }: RedisConnectionOptions): RedisConnection {
  const client = redis.createClient({ url, disableOfflineQueue: true, socket: socket() });
  client.on('error', (error: unknown) => onError(error));
  client.on('ready', () => onReady?.());
  // Resolves once connected: the client retries until it is, or until it is closed.
  const connecting = client.connect().then(
    () => {},
    (error: unknown) => onError(error),
  );
  const subs = subscriptions(onError);
  return {
    kind: 'single',
    commands: () => client as unknown as RedisCommands,
    connected: connecting,
    ready: () => client.isReady,
    ping: (timeoutMs) => (client.isReady ? pingWithin(async () => (await client.ping()) === 'PONG', timeoutMs) : Promise.resolve(false)),
    async subscribe(channel, listener) {
      // Once subscribed, node-redis subscribes again by itself after a reconnect.
      const subscribed = subs.add(channel, listener);
      await connecting;
      await subs.onto(client);
      await subscribed;
    },
    close: () => closeClient(client),
  };
}
