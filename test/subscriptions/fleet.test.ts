import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { CREATE, createCampaign, newPartner, oneOffInput } from '../graphql/support.js';
import { startStack } from '../helpers/stack.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { CAMPAIGN_CHANGED, liveClient, metric, nextPoll, sleep, until, type LiveClient, type Subscription } from './support.js';
import { numberOf } from '../helpers/ids.js';
import { needs } from '../helpers/needs.js';

const INTERVAL_MS = 150;
/** A fleet shares CURSOR_SECRET: its instances name a partner by the same keyed hash, and share one reader. */
const FLEET_SECRET = 'live-fleet-cursor-secret-of-32-characters';

/**
 * Two BFF instances on one real redis-server and one backend: one reader per partner for the
 * whole fleet (a lease), every event delivered once to every watcher on either instance.
 */
describe.skipIf(!needs('redis-server'))('live status across two instances on Redis', () => {
  let redis: RunningRedis;
  let emulator: RunningEmulator;
  let instances: RunningBff[];
  const clients: LiveClient[] = [];

  const admin = async (path: string, body?: unknown, method?: string) => {
    const response = await fetch(`${emulator.url}/_emulator/${path}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as any;
  };
  const gql = async (bff: RunningBff, query: string, variables: Record<string, unknown>, token: string) => {
    const response = await fetch(bff.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as any;
  };
  const pages = (bff: RunningBff) => metric(bff.metricsUrl, 'bff_live_poll_pages_total');
  const watch = (bff: RunningBff, transport: 'websocket' | 'sse', token: string, ids?: string[]): Subscription => {
    const client = liveClient(transport, bff.url, token);
    clients.push(client);
    return client.subscribe(CAMPAIGN_CHANGED, ids ? { ids } : undefined);
  };
  /** Both instances' reads together: the one that holds the lease. */
  const nextFleetPoll = async () => {
    const sum = async () => (await Promise.all(instances.map((b) => metric(b.metricsUrl, 'bff_live_polls_total', 'outcome="success"')))).reduce((a, b) => a + b, 0);
    const before = await sum();
    await until('a read by the fleet', async () => (await sum()) > before);
  };

  beforeAll(async () => {
    redis = await startRedis();
    emulator = await startEmulator({ quiet: true, moderation: { mode: 'manual' } });
    instances = await Promise.all(
      [1, 2].map(() =>
        startBff(
          loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', CACHE_URL: redis.url, CURSOR_SECRET: FLEET_SECRET, SUBSCRIPTION_POLL_INTERVAL_MS: String(INTERVAL_MS), SHUTDOWN_GRACE_MS: '2000' }),
          { campaignApiUrl: emulator.url },
        ),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all((instances ?? []).map((b) => b.close()));
    await emulator?.close();
    await redis?.close();
  });

  it('reads once for the fleet and delivers every event once to every watcher, on either instance', async () => {
    const [a, b] = instances as [RunningBff, RunningBff];
    const token = 'fleet-store-token';
    const other = 'fleet-other-token';
    await admin('partners', { token, kind: 'store' });
    await admin('partners', { token: other, kind: 'store' });

    const watchers = [watch(a, 'websocket', token), watch(a, 'sse', token), watch(b, 'websocket', token), watch(b, 'sse', token)];
    const outsider = watch(b, 'websocket', other);
    await until('every watcher', async () => (await metric(a.metricsUrl, 'bff_live_subscriptions')) + (await metric(b.metricsUrl, 'bff_live_subscriptions')) >= 5);
    await nextFleetPoll();
    await nextFleetPoll();

    // Only one instance reads each partner: over 6 intervals, at most 7 reads of one page per
    // partner reach the backend (two readers per partner would make about twice as many).
    await admin('calls', undefined, 'DELETE');
    await sleep(INTERVAL_MS * 6);
    const reads = (await admin('calls')).calls['campaigns/get-all-campaigns'] ?? 0;
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(2 * 7);

    // A mutation through instance A: published once, and the next reads do not publish it again.
    const created = await gql(a, `mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id } } }`, { input: oneOffInput(901) }, token);
    const id = created.data.createCampaign.campaign.id as string;
    for (const w of watchers) expect((await w.waitFor(1))[0]!.data.campaignChanged).toMatchObject({ campaign: { id }, previousStatus: null, status: 'MODERATION' });

    // A change at the backend: found by the one reader, delivered on both instances.
    await admin('moderate', { ymCampaignId: numberOf(id), decision: 'decline' });
    for (const w of watchers) expect((await w.waitFor(2))[1]!.data.campaignChanged).toMatchObject({ campaign: { id }, previousStatus: 'MODERATION', status: 'DECLINED' });

    await nextFleetPoll();
    await nextFleetPoll();
    for (const w of watchers) expect(w.results).toHaveLength(2);
    expect(outsider.results).toEqual([]);
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('goes on reading on the other instance when the reader shuts down', async () => {
    const [a, b] = instances as [RunningBff, RunningBff];
    const token = 'fleet-failover-token';
    await admin('partners', { token, kind: 'store' });
    const created = await gql(a, `mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id } } }`, { input: oneOffInput(902) }, token);
    const id = created.data.createCampaign.campaign.id as string;
    const watchers = [watch(a, 'websocket', token, [id]), watch(b, 'websocket', token, [id])];
    await until('both watchers', async () => (await metric(a.metricsUrl, 'bff_live_subscriptions')) === 1 && (await metric(b.metricsUrl, 'bff_live_subscriptions')) === 1);
    await nextFleetPoll();
    // The reader is the instance whose reads go on.
    const [a0, b0] = [await pages(a), await pages(b)];
    await sleep(INTERVAL_MS * 4);
    const [da, db] = [(await pages(a)) - a0, (await pages(b)) - b0];
    expect(Math.min(da, db)).toBe(0);
    const [reader, survivor] = da > 0 ? [a, b] : [b, a];
    const survivorWatch = watchers[survivor === a ? 0 : 1]!;

    await reader.close();
    instances = [survivor];
    await admin('moderate', { ymCampaignId: numberOf(id), decision: 'approve' });
    const [event] = await survivorWatch.waitFor(1, 10_000);
    // Approved without pins: it would start, but a one-off code campaign needs pins first.
    expect(event!.data.campaignChanged).toMatchObject({ campaign: { id }, previousStatus: 'MODERATION', status: 'PIN_REQUIRED' });
    expect(await pages(survivor)).toBeGreaterThan(survivor === a ? a0 : b0);
  });
});

/** Redis is a cache, never a dependency: live status goes on while it is down. */
describe.skipIf(!needs('redis-server'))('live status while Redis is down', () => {
  it('delivers on each instance while Redis is unreachable, and once per change after it is back', async () => {
    const redis = await startRedis();
    const stack = await startStack({
      emulator: { moderation: { mode: 'manual' } },
      env: { CACHE_URL: redis.url, SUBSCRIPTION_POLL_INTERVAL_MS: String(INTERVAL_MS) },
    });
    try {
      const token = await newPartner(stack, 'store');
      const ids = [await createCampaign(stack, oneOffInput(951), token), await createCampaign(stack, oneOffInput(952), token)];
      const watcher = liveClient('websocket', stack.bffUrl, token);
      clientsToClose.push(watcher);
      const events = watcher.subscribe(CAMPAIGN_CHANGED);
      await nextPoll(stack.metricsUrl);
      await nextPoll(stack.metricsUrl);

      await redis.stop();
      await stack.admin('moderate', { ymCampaignId: numberOf(ids[0]!), decision: 'decline' });
      const [down] = await events.waitFor(1, 10_000);
      expect(down!.data.campaignChanged).toMatchObject({ campaign: { id: ids[0] }, previousStatus: 'MODERATION', status: 'DECLINED' });

      await redis.restart();
      // Both Redis connections come back within their reconnect backoff (at most 3.2 s here); the
      // next read then writes the shared record without sending the decline again.
      await sleep(4500);
      await stack.admin('moderate', { ymCampaignId: numberOf(ids[1]!), decision: 'decline' });
      const second = (await events.waitFor(2, 10_000))[1]!;
      expect(second.data.campaignChanged).toMatchObject({ campaign: { id: ids[1] }, previousStatus: 'MODERATION', status: 'DECLINED' });
      await nextPoll(stack.metricsUrl);
      await nextPoll(stack.metricsUrl);
      expect(events.results).toHaveLength(2);
    } finally {
      await Promise.all(clientsToClose.splice(0).map((c) => c.close()));
      await stack.close();
      await redis.close();
    }
  }, 40_000);
});

const clientsToClose: LiveClient[] = [];

/** Instances on one real redis-server and one emulator (manual moderation: statuses change only by mutations). */
async function startFleet(count: number, env: Record<string, string>) {
  const redis = await startRedis();
  const emulator = await startEmulator({ quiet: true, moderation: { mode: 'manual' } });
  const instances = await Promise.all(
    Array.from({ length: count }, () =>
      startBff(loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', CACHE_URL: redis.url, CURSOR_SECRET: FLEET_SECRET, SHUTDOWN_GRACE_MS: '10000', ...env }), { campaignApiUrl: emulator.url }),
    ),
  );
  const admin = async (path: string, body?: unknown, method?: string) => {
    const response = await fetch(`${emulator.url}/_emulator/${path}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as any;
  };
  const clients: LiveClient[] = [];
  let partnerCampaignId = 7000;
  return {
    redis,
    emulator,
    instances,
    admin,
    async newPartner(): Promise<string> {
      const token = `fleet-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      await admin('partners', { token, kind: 'store' });
      return token;
    },
    watch(bff: RunningBff, transport: 'websocket' | 'sse', token: string): Subscription {
      const client = liveClient(transport, bff.url, token);
      clients.push(client);
      return client.subscribe(CAMPAIGN_CHANGED);
    },
    /** Creates a campaign through `bff`; its id. */
    async create(bff: RunningBff, token: string): Promise<string> {
      const response = await fetch(bff.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: CREATE, variables: { input: oneOffInput(++partnerCampaignId) } }),
      });
      const body = (await response.json()) as any;
      if (!body.data?.createCampaign?.campaign) throw new Error(`createCampaign failed: ${JSON.stringify(body)}`);
      return body.data.createCampaign.campaign.id as string;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(instances.map((b) => b.close()));
      await emulator.close();
      await redis.close();
    },
  };
}

const successfulPolls = (bff: RunningBff) => metric(bff.metricsUrl, 'bff_live_polls_total', 'outcome="success"');

describe.skipIf(!needs('redis-server'))('a mutation answered while its instance shuts down', () => {
  it('is published to the watchers on the other instances: the bus closes after the requests in flight', async () => {
    // Reads once a minute: the change reaches the watcher in time only if it is published.
    const fleet = await startFleet(2, { SUBSCRIPTION_POLL_INTERVAL_MS: '60000', SUBSCRIPTION_POLL_BACKOFF_MAX_MS: '60000' });
    try {
      const [draining, staying] = fleet.instances as [RunningBff, RunningBff];
      const token = await fleet.newPartner();
      const events = fleet.watch(staying, 'websocket', token);
      await until('the watcher\'s first read', async () => (await successfulPolls(staying)) >= 1);

      await fleet.admin('faults', { mode: 'latency', latencyMs: 1500, operation: 'campaigns/create' });
      await fleet.admin('calls', undefined, 'DELETE');
      const created = fleet.create(draining, token);
      await until('the mutation to reach the backend', async () => ((await fleet.admin('calls')).calls['campaigns/create'] ?? 0) >= 1);
      const closed = draining.close();
      const id = await created;
      await closed;

      const [event] = await events.waitFor(1, 10_000);
      expect(event!.data.campaignChanged).toMatchObject({ campaign: { id }, previousStatus: null, status: 'MODERATION' });
    } finally {
      await fleet.admin('faults', undefined, 'DELETE');
      fleet.instances.splice(0, 1);
      await fleet.close();
    }
  });
});

describe.skipIf(!needs('redis-server'))('live status across a Redis outage and its return, empty', () => {
  it('delivers every mutation\'s event once to every watcher, on every instance, before, during and after the outage', async () => {
    const fleet = await startFleet(3, { SUBSCRIPTION_POLL_INTERVAL_MS: String(INTERVAL_MS) });
    try {
      const token = await fleet.newPartner();
      const watchers = fleet.instances.flatMap((bff) => [fleet.watch(bff, 'websocket', token), fleet.watch(bff, 'sse', token)]);
      const pollsNow = () => Promise.all(fleet.instances.map(successfulPolls));
      /** Done once the fleet has read `reads` more times since it was asked (with `each`: every instance has). */
      const afterReads = async (reads: number, each = false) => {
        const from = await pollsNow();
        const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
        return async () => {
          const now = await pollsNow();
          return each ? now.every((n, i) => n >= from[i]! + reads) : sum(now) >= sum(from) + reads;
        };
      };
      // A mutation published before a watcher's subscription reached its instance is rightly not
      // its event: the first one waits until every instance holds both of its watchers and the
      // fleet has read the partner once.
      await until('every watcher on every instance', async () => (await Promise.all(fleet.instances.map((bff) => metric(bff.metricsUrl, 'bff_live_subscriptions')))).every((n) => n === 2));
      await until('a read by the fleet', await afterReads(1));
      const ids = [await fleet.create(fleet.instances[0]!, token)];
      await Promise.all(watchers.map((w) => w.waitFor(1)));

      let turn = 0;
      /** Mutations through each instance in turn, one after another, until `done` says so. */
      const mutate = async (done: () => Promise<boolean>) => {
        do {
          ids.push(await fleet.create(fleet.instances[turn++ % fleet.instances.length]!, token));
          await sleep(40);
        } while (!(await done()));
      };

      await mutate(await afterReads(2));
      await fleet.redis.stop(true);
      // While Redis is away every instance reads for its own watchers.
      await mutate(await afterReads(4, true));
      await fleet.redis.restart();
      // Redis came back empty: the record is rebuilt by the reader, the others catch up from it,
      // and each subscription to the channel comes back within its reconnect backoff.
      const cacheBack = (bff: RunningBff) => fetch(bff.url.replace('/graphql', '/readyz')).then(async (r) => Boolean(((await r.json()) as any).checks.cache.ok));
      await mutate(async () => (await Promise.all(fleet.instances.map(cacheBack))).every(Boolean));
      await mutate(await afterReads(8));

      const expected = ids.map((id) => ({ id, previousStatus: null, status: 'MODERATION' }));
      const got = (w: Subscription) => w.results.map((r) => ({ id: r.data.campaignChanged.campaign.id, previousStatus: r.data.campaignChanged.previousStatus, status: r.data.campaignChanged.status }));
      // A watcher short of events fails the comparison below, which names them.
      await until('every watcher to have every event', () => watchers.every((w) => w.results.length >= ids.length), 20_000).catch(() => undefined);
      // Reads after the last mutation find nothing more to send.
      await until('three more reads by every instance', await afterReads(3));
      for (const w of watchers) expect(got(w).sort((a, b) => numberOf(a.id) - numberOf(b.id))).toEqual(expected.sort((a, b) => numberOf(a.id) - numberOf(b.id)));
    } finally {
      await fleet.close();
    }
  }, 90_000);
});
