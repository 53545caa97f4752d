import { BoundedMemory } from '../bounded/index.js';
import { refusal } from '../pipeline/rules.js';
import type { Policy, Refusal } from '../pipeline/types.js';
import type { Coordination } from '../cache/coordination.js';

/**
 * Fixed-window request limits per app key and per client address. Shared by the fleet on Redis
 * (one counter per bucket and window); in memory, or while Redis is down, each instance counts
 * on its own. The in-memory table is bounded: a flood of addresses evicts the buckets used least
 * recently rather than growing the process, and a bucket leaves once its window ends.
 */
export interface RateLimiter {
  /**
   * Undefined when the hit is allowed; else the seconds to wait (`Retry-After`). Answered at once
   * when counted in memory, so an app's request waits for no promise unless Redis counts it.
   */
  hit(bucket: string, limit: number): number | undefined | Promise<number | undefined>;
}

const MAX_BUCKETS = 100_000;

export function createRateLimiter(coordination: Coordination, windowMs: number, now: () => number = Date.now): RateLimiter {
  const local = new BoundedMemory<string, { count: number; resetAt: number }>({ maxEntries: MAX_BUCKETS, now });

  function countLocally(bucket: string): { count: number; resetInMs: number } {
    const t = now();
    let entry = local.get(bucket);
    if (!entry || entry.resetAt <= t) {
      entry = { count: 0, resetAt: t + windowMs };
      local.set(bucket, entry, windowMs);
    }
    entry.count++;
    return { count: entry.count, resetInMs: entry.resetAt - t };
  }

  const wait = (limit: number, { count, resetInMs }: { count: number; resetInMs: number }) => (count > limit ? Math.max(1, Math.ceil(resetInMs / 1000)) : undefined);
  return {
    hit(bucket, limit) {
      if (limit <= 0) return undefined;
      if (coordination.kind !== 'redis') return wait(limit, countLocally(bucket));
      return coordination.countHit(`campaign-bff:rate:${bucket}`, windowMs).then((shared) => wait(limit, shared ?? countLocally(bucket)));
    },
  };
}

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** Requests per window per app key, and per client address; 0 turns a limit off. */
  appKeyRateLimit: number;
  clientRateLimit: number;
  onRefused?: () => void;
}

const tooMany = (retryAfter: number): Refusal =>
  refusal(429, `Too many requests for this app or from this address; retry after ${retryAfter} s.`, 'RATE_LIMITED', {
    headers: { 'retry-after': String(retryAfter) },
    extensions: { retryAfterSeconds: retryAfter },
  });

/**
 * The rate limits of app requests, per key and per client address (behind trusted proxies, the
 * client they name), before the request's document is even looked up. Partner tokens are the
 * partner API's to limit.
 */
export function rateLimitPolicy(options: RateLimitOptions): Policy {
  return {
    name: 'rate limits',
    admit({ caller, client }) {
      if (caller.kind !== 'app') return undefined;
      const refuse = (retryAfter: number | undefined): Refusal | undefined => {
        if (retryAfter === undefined) return undefined;
        options.onRefused?.();
        return tooMany(retryAfter);
      };
      const byClient = (): Refusal | undefined | Promise<Refusal | undefined> => {
        const retryAfter = options.clientRateLimit > 0 ? options.limiter.hit(`client:${client}`, options.clientRateLimit) : undefined;
        return retryAfter instanceof Promise ? retryAfter.then(refuse) : refuse(retryAfter);
      };
      // The key's limit first; the address is counted only for a request the key's limit let through.
      const byKey = options.appKeyRateLimit > 0 ? options.limiter.hit(`key:${caller.app.keyHash}`, options.appKeyRateLimit) : undefined;
      if (byKey instanceof Promise) return byKey.then((retryAfter) => (retryAfter === undefined ? byClient() : refuse(retryAfter)));
      return byKey === undefined ? byClient() : refuse(byKey);
    },
  };
}
