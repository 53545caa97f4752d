import { randomUUID } from 'node:crypto';
import { connectRedis } from './redis-connection.js';

/**
 * What instances sharing a cache agree on beyond its namespaces: a short build lock (so a fleet
 * builds a feed once per window) and invalidation messages (so a change made through one
 * instance reaches what every instance serves at once). On one instance (memory cache) both are
 * local: the lock always succeeds (the feed's own single-flight collapses builds) and messages go
 * to this process's own listeners.
 */
export interface Coordination {
  kind: 'local' | 'redis';
  /** True when this instance now holds `name` for `ms` (Redis `SET NX PX`). */
  tryLock(name: string, ms: number): Promise<boolean>;
  /** Frees a lock this instance holds (only its own: compare and delete). */
  unlock(name: string): Promise<void>;
  /**
   * Counts a hit in a fixed window shared by the instances: the count so far in this window and
   * the milliseconds until it ends; undefined when the shared counter cannot be reached.
   */
  countHit(name: string, windowMs: number): Promise<{ count: number; resetInMs: number } | undefined>;
  publish(message: string): Promise<void>;
  /** Every message published by any instance, this one included. */
  subscribe(listener: (message: string) => void): void;
  /** Whether both connections are ready now (a subscriber that is not misses messages). */
  connected(): boolean;
  close(): Promise<void>;
}

export function localCoordination(): Coordination {
  const listeners: ((message: string) => void)[] = [];
  return {
    kind: 'local',
    tryLock: async () => true,
    unlock: async () => {},
    countHit: async () => undefined,
    async publish(message) {
      for (const listener of listeners) listener(message);
    },
    subscribe: (listener) => void listeners.push(listener),
    connected: () => true,
    close: async () => {},
  };
}

const CHANNEL = 'campaign-bff:feed:invalidate';
// The window's expiry is set whenever the counter has none (its first hit), so no counter outlives its window.
const COUNT_SCRIPT =
  "local n = redis.call('incr', KEYS[1]) if redis.call('pttl', KEYS[1]) < 0 then redis.call('pexpire', KEYS[1], ARGV[1]) end return {n, redis.call('pttl', KEYS[1])}";
const UNLOCK_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * Two connections of their own (a subscribed Redis connection can run nothing else). Like the
 * cache, Redis is never a dependency here: while it is down a lock attempt reads as granted (each
 * instance then collapses only its own builds), rate limits count per instance, and a
 * message that cannot be sent leaves other instances on their copy until its freshness ends.
 */
export async function redisCoordination(url: string, onError: (error: unknown) => void): Promise<Coordination> {
  const connection = await connectRedis(url, { onError });
  const subscriber = await connectRedis(url, { onError, subscriber: true });
  const owner = randomUUID();
  const listeners: ((message: string) => void)[] = [];
  // Start-up must not wait on, nor fail with, Redis: it connects in the background, and the
  // subscription is made again after each reconnect and on each new master.
  const subscribed = subscriber.subscribe(CHANNEL, (message: string) => {
    for (const listener of listeners) listener(message);
  });
  // In a healthy fleet, be connected and subscribed before serving: a lock attempt before the
  // connection reads as granted (two builds), a missed message leaves a stale copy.
  await Promise.race([Promise.all([connection.connected, subscribed]), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  // Throws while there is no connection yet, which the callers treat as Redis being down.
  const commands = () => connection.commands();

  return {
    kind: 'redis',
    async tryLock(name, ms) {
      try {
        return (await commands().set(name, owner, { condition: 'NX', expiration: { type: 'PX', value: ms } })) === 'OK';
      } catch (error) {
        // Redis is down: act alone (this process still collapses its own builds).
        onError(error);
        return true;
      }
    },
    async unlock(name) {
      try {
        await commands().eval(UNLOCK_SCRIPT, { keys: [name], arguments: [owner] });
      } catch (error) {
        onError(error);
      }
    },
    async countHit(name, windowMs) {
      try {
        const [count, ttl] = (await commands().eval(COUNT_SCRIPT, { keys: [name], arguments: [String(windowMs)] })) as [number, number];
        return { count, resetInMs: ttl > 0 ? ttl : windowMs };
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    async publish(message) {
      try {
        await commands().publish(CHANNEL, message);
      } catch (error) {
        onError(error);
      }
    },
    subscribe: (listener) => void listeners.push(listener),
    connected: () => connection.ready() && subscriber.ready(),
    async close() {
      await subscriber.close();
      await connection.close();
    },
  };
}
