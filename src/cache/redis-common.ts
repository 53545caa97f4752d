import type { RedisClientType, RedisClusterType } from '@keyv/redis';
import type { RedisTarget } from './redis-url.js';

/**
 * What every kind of Redis connection (one server, a Sentinel group's master, a Cluster) has in
 * common: the interface the shared features use, and the client settings they all share.
 *
 * Redis is a cache here, never a dependency, on every kind alike: start-up neither waits on nor
 * fails with it, a command fails at once while the connection is not ready (no offline queue),
 * and the connection comes back by itself in the background.
 */

export type RedisModule = typeof import('@keyv/redis');
export type NodeClient = RedisClientType;
export type ClusterClient = RedisClusterType;

/**
 * The commands the shared features send, the same on a client and a cluster (which routes each by
 * its first key). A `set` names its expiry: no key is written to be kept for ever.
 */
export interface RedisCommands {
  set(key: string, value: string, options: { condition?: 'NX'; expiration: { type: 'PX'; value: number } }): Promise<string | null>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<number>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  publish(channel: string, message: string): Promise<number>;
  hGetAll(key: string): Promise<Record<string, string>>;
}

export interface RedisConnection {
  readonly kind: RedisTarget['kind'];
  /**
   * Where commands go now. Throws (an error the caller treats as Redis being away) until the
   * Sentinels have named a master or a node of the Cluster has told its slots.
   */
  commands(): RedisCommands;
  /** Resolves once the connection is first ready (subscribed, for a subscriber); never rejects. */
  readonly connected: Promise<void>;
  /** Ready for commands now (every master of a Cluster; the subscription of a subscriber), without asking Redis. */
  ready(): boolean;
  /** Whether Redis answers a PING within `timeoutMs` (the master, or every master of a Cluster). */
  ping(timeoutMs: number): Promise<boolean>;
  /**
   * Messages published on `channel`, from now on, again after each reconnect and on each new
   * master. Only a connection made with `subscriber: true` subscribes; it sends nothing else.
   * Resolves once subscribed.
   */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

export interface RedisConnectionOptions {
  /** A connection failure or a lost connection; the caller logs it (throttled) and counts it. */
  onError: (error: unknown) => void;
  /** The connection is (again) ready for commands. */
  onReady?: () => void;
  /** This connection receives messages (a subscribed connection can send nothing else). */
  subscriber?: boolean;
}

export const CONNECT_TIMEOUT_MS = 1000;
/** The wait before the next attempt: doubling from 100 ms up to 3 s. */
export const backoff = (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 3000);
/** Socket settings, a fresh object each time: node-redis writes the host and port of a URL into the one it is given. */
export const socket = () => ({ connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: backoff });

/** Redis is away (not reached yet): the callers' fallbacks apply, as when it is down. */
export class RedisNotConnectedError extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'RedisNotConnectedError';
  }
}

export async function closeClient(client: { isOpen: boolean; close(): Promise<unknown>; destroy(): unknown }): Promise<void> {
  try {
    if (client.isOpen) await client.close();
  } catch {
    if (client.isOpen) client.destroy();
  }
}

/** Whether `ping` answers true within `timeoutMs`; false on any failure. */
export async function pingWithin(ping: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('redis ping timed out')), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

type Listener = (message: string) => void;
interface Subscribable {
  subscribe(channel: string, listener: Listener): Promise<unknown>;
}

/** Channels and their listeners, subscribed again on each client that takes over. */
export function subscriptions(onError: (error: unknown) => void) {
  // bounded: the channels the code subscribes to, a handful.
  const channels = new Map<string, Listener>();
  let waiting: (() => void)[] = [];
  const done = () => {
    const resolved = waiting;
    waiting = [];
    for (const resolve of resolved) resolve();
  };
  return {
    /** Subscribes every channel on a client that is ready now. */
    async onto(client: Subscribable): Promise<void> {
      try {
        for (const [channel, listener] of channels) await client.subscribe(channel, listener);
        done();
      } catch (error) {
        onError(error);
      }
    },
    /** Adds a channel, subscribed at once on `now` when given; resolves once a client has subscribed to it. */
    add(channel: string, listener: Listener, now?: Subscribable): Promise<void> {
      channels.set(channel, listener);
      const subscribed = new Promise<void>((resolve) => waiting.push(resolve));
      if (now) now.subscribe(channel, listener).then(done, onError);
      return subscribed;
    },
  };
}
