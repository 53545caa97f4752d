import { randomUUID } from 'node:crypto';
import { connectRedis } from '../cache/redis-connection.js';
import type { BusEvent, Snapshot, StatusBus } from './bus.js';

/**
 * The bus on Redis, for several BFF instances.
 *
 * - Lease `bff:live:{<partner>}:lease` (SET NX PX): the one instance that reads a partner's
 *   statuses. Every instance with watchers of the partner tries each interval; the holder renews
 *   it. If the holder dies, another takes over within the lease time.
 * - Record `bff:live:{<partner>}:status` (a hash id → "status|stamp", with `_` its epoch and `_v`
 *   the count of changes published since): compared and updated by one Lua script, which
 *   publishes each change with the record's version after it. Being atomic on Redis, a change
 *   found by a poll and the same change published by a mutation on another instance is
 *   published once.
 * - Channel `bff:live:events`: every instance subscribes once and delivers to its own watchers.
 *   The lease script answers every instance with the record's version each interval, so an
 *   instance whose subscription missed messages (a reconnect) knows it and reads the record.
 *
 * Keys and messages carry the partner token's keyed hash, never a token. The braces make a
 * partner's two keys one hash slot, as a script that names both needs on a Redis Cluster. On a
 * Cluster the channel reaches every node, so a change published by the script on one node reaches
 * subscribers on all.
 */

const CHANNEL = 'bff:live:events';
const leaseKey = (partner: string) => `bff:live:{${partner}}:lease`;
const recordKey = (partner: string) => `bff:live:{${partner}}:status`;

// KEYS[1] lease, KEYS[2] record; ARGV[1] instance, ARGV[2] lease ms, ARGV[3] record ms.
// Answers { 1 when this instance holds the lease, the record's version or '' }.
const LEAD = `
local holder = redis.call('GET', KEYS[1])
local lead = 0
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  lead = 1
elseif not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  lead = 1
end
if lead == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
local epoch = redis.call('HGET', KEYS[2], '_')
if not epoch then return { lead, '' } end
return { lead, epoch .. ':' .. (redis.call('HGET', KEYS[2], '_v') or '0') }`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// KEYS[1] record; ARGV: mode, stamp, at, partner, channel, record ms, epoch, then id, status pairs.
const RECORD = `
local stamp = tonumber(ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 0 then
  if ARGV[1] == 'mutation' then return 0 end
  redis.call('HSET', KEYS[1], '_', ARGV[7], '_v', '0')
  for i = 8, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1] .. '|' .. ARGV[2]) end
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return 0
end
local epoch = redis.call('HGET', KEYS[1], '_')
local published = 0
for i = 8, #ARGV, 2 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  local previous, previousStamp = nil, -1
  if current then
    local bar = string.find(current, '|', 1, true)
    previous = string.sub(current, 1, bar - 1)
    previousStamp = tonumber(string.sub(current, bar + 1))
  end
  if previousStamp <= stamp and previous ~= ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1] .. '|' .. ARGV[2])
    local count = redis.call('HINCRBY', KEYS[1], '_v', 1)
    local event = cjson.encode({ partner = ARGV[4], id = tonumber(ARGV[i]), previousStatus = previous or cjson.null, status = ARGV[i + 1], at = ARGV[3], stamp = ARGV[2], version = epoch .. ':' .. count })
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
  const instance = randomUUID();
  // The record outlives a lost lease long enough for the next holder to go on from it.
  const recordMs = 2 * leaseMs;
  const reportError = (error: unknown) => onError?.(error);
  const connection = await connectRedis(url, { onError: reportError });
  // Pub/sub needs a connection of its own.
  const subscriber = await connectRedis(url, { onError: reportError, subscriber: true });
  // Throws while there is no connection yet, which the hub treats as Redis being away.
  const client = () => connection.commands();
  const listeners: ((event: BusEvent) => void)[] = [];

  const deliver = (message: string) => {
    let event: BusEvent;
    try {
      const parsed = JSON.parse(message) as Omit<BusEvent, 'stamp'> & { stamp?: string | number };
      // A message without a stamp (an instance of an older version) is ordered by its time.
      event = { ...parsed, stamp: parsed.stamp === undefined ? Date.parse(parsed.at) : Number(parsed.stamp) };
    } catch (error) {
      onError?.(error);
      return;
    }
    for (const listener of listeners) listener(event);
  };
  // As for the cache, start-up neither waits on nor fails with Redis: while it is away each
  // instance reads for its own watchers (hub.ts). The subscription is made again after each
  // reconnect and on each new master; what was published meanwhile is caught up from the record.
  const subscribed = subscriber.subscribe(CHANNEL, deliver);
  await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);

  return {
    kind: 'redis',
    async lead(partner) {
      const [leading, version] = (await client().eval(LEAD, {
        keys: [leaseKey(partner), recordKey(partner)],
        arguments: [instance, String(leaseMs), String(recordMs)],
      })) as [number, string];
      return { leading: leading === 1, version: version || null };
    },
    async release(partner) {
      await client().eval(RELEASE, { keys: [leaseKey(partner)], arguments: [instance] });
    },
    async record(partner, entries, stampMs, at, mode) {
      const pairs = entries.flatMap((e) => [String(e.id), e.status]);
      await client().eval(RECORD, {
        keys: [recordKey(partner)],
        // A record made now starts an epoch of its own: versions of an earlier record say nothing of it.
        arguments: [mode, String(stampMs), at, partner, CHANNEL, String(recordMs), `${instance.slice(0, 8)}${stampMs.toString(36)}`, ...pairs],
      });
    },
    async snapshot(partner): Promise<Snapshot | null> {
      const fields = await client().hGetAll(recordKey(partner));
      const epoch = fields._;
      if (!epoch) return null;
      const entries: Snapshot['entries'] = [];
      for (const [field, value] of Object.entries(fields)) {
        if (field === '_' || field === '_v') continue;
        const bar = value.lastIndexOf('|');
        entries.push({ id: Number(field), status: value.slice(0, bar), stamp: Number(value.slice(bar + 1)) });
      }
      return { version: `${epoch}:${fields._v ?? '0'}`, entries };
    },
    // Other instances may still watch the partner: the record expires by itself once no one renews it.
    forget: async () => {},
    onEvent(listener) {
      listeners.push(listener);
    },
    connected: () => connection.ready() && subscriber.ready(),
    async close() {
      await Promise.allSettled([subscriber.close(), connection.close()]);
    },
  };
}
