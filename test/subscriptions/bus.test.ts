import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus, type StatusBus } from '../../src/subscriptions/bus.js';
import type { BusEvent } from '../../src/subscriptions/bus.js';
import { createRedisBus } from '../../src/subscriptions/redis-bus.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { until } from './support.js';
import { needs } from '../helpers/needs.js';

/** The status bus contract, for the in-memory bus and the Redis one alike. */
describe.each(['memory', 'redis'] as const)('status bus: %s', (kind) => {
  let redis: RunningRedis | undefined;
  let bus: StatusBus;
  let peer: StatusBus | undefined;
  const events: BusEvent[] = [];
  let partners = 0;
  const partner = () => `p${++partners}-${Date.now()}`;
  const at = '2026-01-01T00:00:00.000Z';
  /** The events as watchers get them: without what orders them on the bus. */
  const plain = () => events.map(({ stamp: _stamp, version: _version, ...event }) => event);
  const settle = async (count: number) => {
    await until(`${count} events`, () => events.length >= count, 500).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
  };

  beforeAll(async () => {
    if (kind === 'redis') {
      if (!needs('redis-server')) return;
      redis = await startRedis();
      bus = await createRedisBus({ url: redis.url, leaseMs: 1000 });
      peer = await createRedisBus({ url: redis.url, leaseMs: 1000 });
    } else {
      bus = createMemoryBus();
    }
    bus.onEvent((event) => events.push(event));
  });
  afterAll(async () => {
    await bus?.close();
    await peer?.close();
    await redis?.close();
  });

  it.skipIf(kind === 'redis' && !needs('redis-server'))('takes the first read as the record, then publishes what changed', async () => {
    events.length = 0;
    const p = partner();
    await bus.record(p, [{ id: 1, status: 'moderation' }, { id: 2, status: 'started' }], 1000, at, 'poll');
    await settle(0);
    expect(events).toEqual([]);
    await bus.record(p, [{ id: 1, status: 'paused' }, { id: 2, status: 'started' }, { id: 3, status: 'moderation' }], 2000, at, 'poll');
    await settle(2);
    expect(plain()).toEqual([
      { partner: p, id: 1, previousStatus: 'moderation', status: 'paused', at },
      { partner: p, id: 3, previousStatus: null, status: 'moderation', at },
    ]);
  });

  it.skipIf(kind === 'redis' && !needs('redis-server'))('publishes a mutation once, and a read begun before it does not undo it', async () => {
    events.length = 0;
    const p = partner();
    await bus.record(p, [{ id: 1, status: 'started' }], 1000, at, 'poll');
    await bus.record(p, [{ id: 1, status: 'paused' }], 3000, at, 'mutation');
    await settle(1);
    // A read that began at 2000 still saw "started"; one that began at 4000 sees "paused".
    await bus.record(p, [{ id: 1, status: 'started' }], 2000, at, 'poll');
    await bus.record(p, [{ id: 1, status: 'paused' }], 4000, at, 'poll');
    await settle(2);
    expect(plain()).toEqual([{ partner: p, id: 1, previousStatus: 'started', status: 'paused', at }]);
  });

  it.skipIf(kind === 'redis' && !needs('redis-server'))('stamps each change, and on Redis counts it in the record\'s version, which a snapshot reads back', async () => {
    events.length = 0;
    const p = partner();
    expect((await bus.lead(p)).version).toBeNull();
    await bus.record(p, [{ id: 1, status: 'moderation' }, { id: 2, status: 'started' }], 1000, at, 'poll');
    await bus.record(p, [{ id: 1, status: 'declined' }, { id: 2, status: 'started' }], 2000, at, 'poll');
    await bus.record(p, [{ id: 2, status: 'paused' }], 3000, at, 'mutation');
    await settle(2);
    expect(events.map(({ id, stamp }) => ({ id, stamp }))).toEqual([{ id: 1, stamp: 2000 }, { id: 2, stamp: 3000 }]);
    if (kind === 'memory') {
      expect(await bus.snapshot(p)).toBeNull();
      return;
    }
    const { version } = await bus.lead(p);
    const epoch = version!.split(':')[0];
    expect(events.map((e) => e.version)).toEqual([`${epoch}:1`, `${epoch}:2`]);
    expect(version).toBe(`${epoch}:2`);
    const snapshot = await bus.snapshot(p);
    expect(snapshot!.version).toBe(version);
    expect(snapshot!.entries.sort((a, b) => a.id - b.id)).toEqual([
      { id: 1, status: 'declined', stamp: 2000 },
      { id: 2, status: 'paused', stamp: 3000 },
    ]);
    // Another instance reads the same version, holding the lease or not.
    expect(await peer!.lead(p)).toEqual({ leading: false, version });
  });

  it.skipIf(kind === 'redis' && !needs('redis-server'))('ignores mutations of a partner nobody watches', async () => {
    events.length = 0;
    await bus.record(partner(), [{ id: 1, status: 'paused' }], 1000, at, 'mutation');
    await settle(1);
    expect(events).toEqual([]);
  });

  // A lease means something only between instances sharing Redis: the memory bus has no peer.
  if (kind === 'redis') it.skipIf(!needs('redis-server'))('gives the lease to one instance at a time, and to another once released', async () => {
    const p = partner();
    const leading = async (b: StatusBus) => (await b.lead(p)).leading;
    expect(await leading(bus)).toBe(true);
    expect(await leading(peer!)).toBe(false);
    expect(await leading(bus)).toBe(true);
    await bus.release(p);
    expect(await leading(peer!)).toBe(true);
    expect(await leading(bus)).toBe(false);
  });
});
