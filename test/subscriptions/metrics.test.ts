import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { createCampaign, newPartner, oneOffInput } from '../graphql/support.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { scrape } from '../helpers/scrape.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CAMPAIGN_CHANGED, liveClient, metric, nextPoll, until, type LiveClient } from './support.js';
import { numberOf } from '../helpers/ids.js';
import { needs } from '../helpers/needs.js';

const INTERVAL_MS = 150;
const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * What a fleet's dashboards need of live status and of the process: events delivered by
 * transport, which instance reads a partner for the fleet, each Redis client's connection, and
 * the build each instance runs.
 */
describe('live status and build metrics on one instance', () => {
  let stack: Stack;
  const clients: LiveClient[] = [];
  beforeAll(async () => {
    stack = await startStack({
      emulator: { moderation: { mode: 'manual' } },
      env: { SUBSCRIPTION_POLL_INTERVAL_MS: String(INTERVAL_MS), BUILD_COMMIT: 'ABCDEF0123456' },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stack?.close();
  });

  it('bff_build_info names the package version, the Node.js version and the commit', async () => {
    const info = (await scrape(stack.metricsUrl)).filter((s) => s.name === 'bff_build_info');
    expect(info).toEqual([{ name: 'bff_build_info', labels: { version: packageVersion, node_version: process.versions.node, commit: 'abcdef0123456' }, value: 1 }]);
  });

  it('counts each event sent to a subscriber by transport, and the partners this instance reads for', async () => {
    const token = await newPartner(stack, 'store');
    const id = await createCampaign(stack, oneOffInput(501), token);
    expect(await metric(stack.metricsUrl, 'bff_live_reader_leases')).toBe(0);

    const ws = liveClient('websocket', stack.bffUrl, token);
    const sse = liveClient('sse', stack.bffUrl, token);
    clients.push(ws, sse);
    const watchers = [ws.subscribe(CAMPAIGN_CHANGED), ws.subscribe(CAMPAIGN_CHANGED), sse.subscribe(CAMPAIGN_CHANGED)];
    // A subscription refused with errors is no event delivered.
    const refused = sse.subscribe(CAMPAIGN_CHANGED, { ids: ['not-an-id'] });
    await refused.ended;
    expect(refused.results).toEqual([{ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })] }]);
    await until('three watchers', async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) === 3);
    await nextPoll(stack.metricsUrl);
    // One instance alone reads every partner it has watchers of.
    expect(await metric(stack.metricsUrl, 'bff_live_reader_leases')).toBe(1);

    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'decline' });
    for (const watcher of watchers) await watcher.waitFor(1);
    expect(await metric(stack.metricsUrl, 'bff_live_events_delivered_total', 'transport="websocket"')).toBe(2);
    expect(await metric(stack.metricsUrl, 'bff_live_events_delivered_total', 'transport="sse"')).toBe(1);

    for (const watcher of watchers) watcher.unsubscribe();
    await until('no watcher left', async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) === 0);
    expect(await metric(stack.metricsUrl, 'bff_live_reader_leases')).toBe(0);
  });

  it('exports no bff_redis_connected series without Redis', async () => {
    expect((await scrape(stack.metricsUrl)).filter((s) => s.name === 'bff_redis_connected')).toEqual([]);
  });
});

describe.skipIf(!needs('redis-server'))('fleet metrics on Redis', () => {
  let redis: RunningRedis;
  let emulator: RunningEmulator;
  let instances: RunningBff[];
  const clients: LiveClient[] = [];

  const connected = async (bff: RunningBff) =>
    Object.fromEntries((await scrape(bff.metricsUrl!)).filter((s) => s.name === 'bff_redis_connected').map((s) => [s.labels.client, s.value]));
  const leases = async () => Promise.all(instances.map((b) => metric(b.metricsUrl, 'bff_live_reader_leases')));

  beforeAll(async () => {
    redis = await startRedis();
    emulator = await startEmulator({ quiet: true, moderation: { mode: 'manual' } });
    instances = await Promise.all(
      [1, 2].map(() =>
        startBff(
          loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', CACHE_URL: redis.url, CURSOR_SECRET: 'live-metrics-cursor-secret-of-32-characters', SUBSCRIPTION_POLL_INTERVAL_MS: String(INTERVAL_MS), SHUTDOWN_GRACE_MS: '2000' }),
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

  it('one instance of the fleet holds a watched partner\'s lease; each Redis client says whether it is connected', async () => {
    const [a, b] = instances as [RunningBff, RunningBff];
    const token = 'metrics-fleet-token';
    await fetch(`${emulator.url}/_emulator/partners`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, kind: 'store' }) });
    const all = { cache: 1, feed_coordination: 1, live_bus: 1 };
    await until('every Redis client connected', async () => JSON.stringify(await connected(a)) === JSON.stringify(all) && JSON.stringify(await connected(b)) === JSON.stringify(all));

    for (const bff of instances) {
      const client = liveClient('websocket', bff.url, token);
      clients.push(client);
      client.subscribe(CAMPAIGN_CHANGED);
    }
    await until('both watchers', async () => (await metric(a.metricsUrl, 'bff_live_subscriptions')) === 1 && (await metric(b.metricsUrl, 'bff_live_subscriptions')) === 1);
    await until('one lease for the fleet', async () => (await leases()).sort().join() === '0,1');

    await redis.stop();
    const none = { cache: 0, feed_coordination: 0, live_bus: 0 };
    await until('every Redis client disconnected', async () => JSON.stringify(await connected(a)) === JSON.stringify(none) && JSON.stringify(await connected(b)) === JSON.stringify(none));
    expect(await metric(a.metricsUrl, 'bff_dependency_up', 'dependency="redis"')).toBe(0);
    // Without Redis nobody holds a lease: each instance reads for its own watchers.
    await until('no lease held', async () => (await leases()).join() === '0,0');

    await redis.restart();
    await until('every Redis client connected again', async () => JSON.stringify(await connected(a)) === JSON.stringify(all) && JSON.stringify(await connected(b)) === JSON.stringify(all), 15_000);
    await until('one lease for the fleet again', async () => (await leases()).sort().join() === '0,1', 15_000);
  }, 60_000);
});
