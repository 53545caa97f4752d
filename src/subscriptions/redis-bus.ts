import { randomUUID } from 'node:crypto';
import type { StatusBus } from './bus.js';
import type { StatusEvent } from './events.js';

/**
 * The bus on Redis, for several BFF instances.
 *
 * - Lease `bff:live:lease:<partner>` (SET NX PX): the one instance that reads a partner's
 *   statuses. Every instance with watchers of the partner tries each interval; the holder renews
 *   it. If the holder dies, another takes over within the lease time.
 * - Record `bff:live:status:<partner>` (a hash id → "status|stamp"): compared and updated by one
 *   Lua script, which publishes each change. Being atomic on Redis, a change found by a poll and
 *   the same change published by a mutation on another instance is published once.
 * - Channel `bff:live:events`: every instance subscribes once and delivers to its own watchers,
 *   so each watcher sees each event once wherever it is connected.
 *
 * Keys and messages carry the partner's hash, never a token.
 */

const CHANNEL = 'bff:live:events';
const leaseKey = (partner: string) => `bff:live:lease:${partner}`;
const recordKey = (partner: string) => `bff:live:status:${partner}`;

// KEYS[1] lease, KEYS[2] record; ARGV[1] instance, ARGV[2] lease ms, ARGV[3] record ms.
const LEAD = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
elseif not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  return 0
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// KEYS[1] record; ARGV: mode, stamp, at, partner, channel, record ms, then id, status pairs.
const RECORD = `
local stamp = tonumber(ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 0 then
  if ARGV[1] == 'mutation' then return 0 end
  redis.call('HSET', KEYS[1], '_', '1')
  for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1] .. '|' .. ARGV[2]) end
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return 0
end
local published = 0
for i = 7, #ARGV, 2 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  local previous, previousStamp = nil, -1
  if current then
    local bar = string.find(current, '|', 1, true)
    previous = string.sub(current, 1, bar - 1)
    previousStamp = tonumber(string.sub(current, bar + 1))
  end
  if previousStamp <= stamp and previous ~= ARGV[i + 1] and ARGV[1] == 'sync' then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1] .. '|' .. ARGV[2])
  elseif previousStamp <= stamp and previous ~= ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1] .. '|' .. ARGV[2])
    local event = cjson.encode({ partner = ARGV[4], id = tonumber(ARGV[i]), previousStatus = previous or cjson.null, status = ARGV[i + 1], at = ARGV[3] })
    redis.call('PUBLISH', ARGV[5], event)
    published = published + 1
  end
end
return published`;

export interface RedisBusOptions {
  url: string;
  leaseMs: number;
  onError?: (error: unknown) => void;
}

export async function createRedisBus({ url, leaseMs, onError }: RedisBusOptions): Promise<StatusBus> {
  const { createClient } = await import('@keyv/redis');
  const instance = randomUUID();
  // The record outlives a lost lease long enough for the next holder to go on from it.
  const recordMs = 2 * leaseMs;
  const options = {
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 3000) },
  };
  const client = createClient(options);
  // Pub/sub needs a connection of its own.
  const subscriber = createClient(options);
  client.on('error', (error: unknown) => onError?.(error));
  subscriber.on('error', (error: unknown) => onError?.(error));
  const listeners: ((event: StatusEvent) => void)[] = [];

  const deliver = (message: string) => {
    let event: StatusEvent;
    try {
      event = JSON.parse(message) as StatusEvent;
    } catch (error) {
      onError?.(error);
      return;
    }
    for (const listener of listeners) listener(event);
  };
  // As for the cache, start-up neither waits on nor fails with Redis: while it is away nobody
  // holds a lease, so no event is sent (none is made up), and watchers stay connected. The
  // client re-subscribes by itself after a reconnect.
  client.connect().catch((error: unknown) => onError?.(error));
  const subscribed = subscriber
    .connect()
    .then(() => subscriber.subscribe(CHANNEL, deliver))
    .catch((error: unknown) => onError?.(error));
  await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);

  return {
    kind: 'redis',
    async lead(partner) {
      const answer = await client.eval(LEAD, { keys: [leaseKey(partner), recordKey(partner)], arguments: [instance, String(leaseMs), String(recordMs)] });
      return answer === 1;
    },
    async release(partner) {
      await client.eval(RELEASE, { keys: [leaseKey(partner)], arguments: [instance] });
    },
    async record(partner, entries, stampMs, at, mode) {
      const pairs = entries.flatMap((e) => [String(e.id), e.status]);
      await client.eval(RECORD, {
        keys: [recordKey(partner)],
        arguments: [mode, String(stampMs), at, partner, CHANNEL, String(recordMs), ...pairs],
      });
    },
    // Other instances may still watch the partner: the record expires by itself once no one renews it.
    forget: async () => {},
    onEvent(listener) {
      listeners.push(listener);
    },
    async close() {
      await Promise.allSettled([subscriber.close(), client.close()]);
    },
  };
}
