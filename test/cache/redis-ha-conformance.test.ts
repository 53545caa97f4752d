import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../src/cache/redis-connection.js';
import { startRedis } from '../helpers/redis.js';
import { redisCli, startRedisCluster, startSentinelGroup, waitFor, type RunningCluster } from '../helpers/redis-ha.js';
import {
  categoryCalls,
  CLIENT_RATE_LIMIT,
  coldFeedBuilds,
  createThrough,
  fleetReads,
  feedChangeShared,
  leases,
  newPartner,
  persistedQueryShared,
  rateLimitStatuses,
  redisState,
  startSharedFleet,
  subscriptions,
  watch,
  type SharedFleet,
} from '../helpers/shared-fleet.js';
import type { LiveClient } from '../subscriptions/support.js';
import { numberOf } from '../helpers/ids.js';
import { needs } from '../helpers/needs.js';

/**
 * The same checks of every feature a fleet shares through Redis, on each kind of Redis CACHE_URL
 * can name: one server, a master with a replica watched by three Sentinels, and a Cluster of three
 * masters. Two instances on one emulator; each check names things of its own.
 */
interface Kind {
  name: 'single' | 'sentinel' | 'cluster';
  /** The data nodes' password, in the URL (percent-encoded, as it holds "@" and "/"). */
  password?: string;
  start(): Promise<{ url: string; cluster?: RunningCluster; close(): Promise<void> }>;
}

const PASSWORD = 'conf@rmance/s3cret';
const KINDS: Kind[] = [
  { name: 'single', start: () => startRedis() },
  { name: 'sentinel', password: PASSWORD, start: () => startSentinelGroup({ password: PASSWORD }) },
  {
    name: 'cluster',
    password: PASSWORD,
    async start() {
      const cluster = await startRedisCluster({ password: PASSWORD });
      return { url: cluster.url, cluster, close: () => cluster.close() };
    },
  },
];

for (const { name, password, start } of KINDS) describe.skipIf(!needs('redis-server', 'redis-cli'))(`shared features on ${name} Redis`, () => {
  let backing: Awaited<ReturnType<Kind['start']>>;
  let fleet: SharedFleet;
  const clients: LiveClient[] = [];

  beforeAll(async () => {
    backing = await start();
    fleet = await startSharedFleet(backing.url);
    // Start-up never waits on Redis: the checks begin once both instances are connected.
    let states: unknown;
    await waitFor('both instances connected to Redis', async () => {
      const now = await Promise.all([redisState(fleet.a), redisState(fleet.b)]);
      states = now;
      return now.every((s) => s.cache.ok && Object.values(s.connected).every((v) => v === 1));
    }).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(states)} ${JSON.stringify(fleet.logs.map((l) => l.entries))}`);
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await fleet?.close();
    await backing?.close();
  });

  it('is connected: readiness, bff_dependency_up and every client in bff_redis_connected say so', async () => {
    for (const bff of [fleet.a, fleet.b]) {
      expect(await redisState(bff)).toEqual({ cache: { ok: true, detail: 'redis' }, up: 1, connected: { cache: 1, feed_coordination: 1, live_bus: 1 } });
    }
  });

  it('checks a new token and reads the category directory once for the fleet (shared verdicts and categories)', async () => {
    expect(await categoryCalls(fleet)).toEqual({ calls: 1, same: true });
  });

  it('shares persisted queries: a hash registered on one instance answers on the other', async () => {
    expect(await persistedQueryShared(fleet)).toBe(true);
  });

  it('builds a cold feed once for the fleet (the build lock), and a change through one instance reaches the other\'s feed', async () => {
    // The app's two partners: one list read each.
    expect(await coldFeedBuilds(fleet)).toEqual({ lists: 2, statuses: [200], answers: 1 });
    expect(await feedChangeShared(fleet, 5000)).toBe(true);
  });

  it('counts a client\'s requests once for the fleet, whichever instance they reach', async () => {
    expect(await rateLimitStatuses(fleet)).toEqual([...Array.from({ length: CLIENT_RATE_LIMIT }, () => 200), 429]);
  });

  it('reads a partner\'s statuses on one instance for the fleet (the lease), and every change reaches the watchers on both', async () => {
    const token = await newPartner(fleet);
    const watchers = [watch(fleet.a, token, clients), watch(fleet.b, token, clients)];
    await waitFor('both watchers', async () => (await subscriptions(fleet)) === 2);
    await waitFor('one reader for the fleet', async () => (await leases(fleet)) === 1);
    // The reader's first read makes the shared record that changes are published against.
    await fleetReads(fleet, 2);
    // Published by the instance that made the change, whichever holds the lease.
    const first = await createThrough(fleet.a, token);
    const second = await createThrough(fleet.b, token);
    for (const w of watchers) {
      const events = await w.waitFor(2);
      expect(events.map((e) => e.data.campaignChanged)).toEqual(
        expect.arrayContaining([expect.objectContaining({ campaign: { id: first, status: 'MODERATION' } }), expect.objectContaining({ campaign: { id: second, status: 'MODERATION' } })]),
      );
    }
    // A change at the backend, found by the one reader, reaches both.
    await fleet.admin('moderate', { ymCampaignId: numberOf(first), decision: 'decline' });
    for (const w of watchers) expect((await w.waitFor(3))[2]!.data.campaignChanged).toMatchObject({ campaign: { id: first }, previousStatus: 'MODERATION', status: 'DECLINED' });
    expect(await leases(fleet)).toBe(1);
  });

  it('had no command refused by Redis on either instance (a connection slow to open, on a busy machine, may be logged)', () => {
    const refusals = fleet.logs.flatMap((log) => log.entries.map((e) => `${e.msg}: ${e.cause ?? ''}`).filter((line) => /CROSSSLOT|MOVED|ASK|READONLY|NOSCRIPT|WRONGTYPE|ERR /.test(line)));
    expect(refusals).toEqual([]);
  });

  if (password) {
    it('with a wrong password: says Redis refuses it, in words that never quote a password', async () => {
      const wrong = backing.url.replace(encodeURIComponent(password), 'wrong-s3cret-pass');
      const refused = await startSharedFleet(wrong);
      try {
        await waitFor('the refusal logged', () => refused.logs[0].lines.some((line) => /WRONGPASS|invalid username-password/.test(line)));
        const state = await redisState(refused.a);
        expect(state).toMatchObject({ cache: { ok: false }, up: 0, connected: { cache: 0, feed_coordination: 0, live_bus: 0 } });
        const metrics = await (await fetch(refused.a.metricsUrl!)).text();
        for (const text of [...refused.logs.flatMap((l) => l.lines), JSON.stringify(state), metrics]) {
          expect(text).not.toContain('s3cret');
          expect(text).not.toContain(encodeURIComponent(password));
        }
        // Served without Redis meanwhile.
        expect((await categoryCalls(refused)).same).toBe(true);
      } finally {
        await refused.close();
      }
    });
  }

  // What only a Cluster has: several masters, each with a share of the keys.
  if (name === 'cluster') it('spreads the keys over every master, and a message published on any node reaches a subscriber on each', async () => {
    const nodes = backing.cluster!.nodes;
    for (const node of nodes) expect(Number(await redisCli(node.port, 'DBSIZE'))).toBeGreaterThan(0);
    const errors: unknown[] = [];
    const subscribers: RedisConnection[] = [];
    const received: string[][] = [];
    try {
      for (let i = 0; i < nodes.length; i++) {
        // A subscriber to one node each: the Cluster's only seed.
        const subscriber = await connectRedis(`redis+cluster://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${nodes[i]!.port}`, { onError: (e) => errors.push(e), subscriber: true });
        subscribers.push(subscriber);
        const messages: string[] = [];
        received.push(messages);
        await subscriber.subscribe('conformance', (m) => messages.push(m));
      }
      for (const node of nodes) await redisCli(node.port, 'PUBLISH', 'conformance', `from ${node.port}`);
      const sent = nodes.map((n) => `from ${n.port}`).sort();
      await waitFor('every message on every subscriber', () => received.every((m) => m.length === nodes.length));
      for (const messages of received) expect([...messages].sort()).toEqual(sent);
      expect(errors).toEqual([]);
    } finally {
      await Promise.all(subscribers.map((s) => s.close()));
    }
  });

  if (name === 'cluster') it('says Redis is down while a master is, serving meanwhile, and up again once it is back', async () => {
    const node = backing.cluster!.nodes[1]!;
    await node.stop(true);
    for (const bff of [fleet.a, fleet.b]) {
      await waitFor('Redis down in readiness and metrics', async () => {
        const state = await redisState(bff);
        return !state.cache.ok && state.up === 0 && state.connected.cache === 0;
      });
    }
    // Still ready, still serving.
    expect((await fetch(fleet.a.url.replace('/graphql', '/readyz'))).status).toBe(200);
    expect((await categoryCalls(fleet)).same).toBe(true);
    await node.restart();
    await waitFor('the cluster ok again', async () => /cluster_state:ok/.test(await redisCli(node.port, 'CLUSTER', 'INFO')));
    for (const bff of [fleet.a, fleet.b]) {
      await waitFor('Redis up again in readiness and metrics', async () => {
        const state = await redisState(bff);
        return state.cache.ok && state.up === 1 && Object.values(state.connected).every((v) => v === 1);
      });
    }
    expect(await persistedQueryShared(fleet)).toBe(true);
  });
});
