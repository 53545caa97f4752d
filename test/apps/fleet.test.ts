import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { app, DEMO_APP, FEED, partner, post, sleep, startedIds } from './support.js';
import { needs } from '../helpers/needs.js';
import { campaignOf } from '../helpers/ids.js';

/**
 * Two BFF instances sharing a real redis-server (and CURSOR_SECRET, as a fleet does) in front of
 * one emulator: one category read and one feed build per window for the fleet, and a change made
 * through one instance reaches what the other serves.
 */
describe.skipIf(!needs('redis-server'))('a fleet of two instances sharing Redis', () => {
  let redis: RunningRedis;
  let a: Stack;
  let b: RunningBff;
  const ttlMs = 4000;

  beforeAll(async () => {
    redis = await startRedis();
    const env = { CACHE_URL: redis.url, FEED_TTL_MS: String(ttlMs), CURSOR_SECRET: 'fleet-test-cursor-secret-of-32-characters' };
    a = await startStack({ env, appKeys: DEMO_APP, emulator: { moderation: { mode: 'manual' } } });
    const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: '1000', ...env });
    b = await startBff(config, { campaignApiUrl: a.emulatorUrl, appKeys: DEMO_APP });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.close();
  });

  const ids = (answer: { body: any }) => answer.body.data.offerFeed.nodes.map((n: { id: string }) => campaignOf(n.id));

  it('an app\'s categories are read once for the fleet: the token checked through one instance serves the other with no call', async () => {
    await a.resetCalls();
    const categories = '{ categories { id name } }';
    const first = await post(a.bffUrl, { query: categories }, app());
    expect(first.body.data.categories.length).toBeGreaterThanOrEqual(10);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(i % 2 ? a.bffUrl : b.url, { query: categories }, app())));
    expect(new Set(answers.map((x) => x.text))).toEqual(new Set([first.text]));
    expect(await a.calls()).toEqual({ 'categories/get': 1 });
  });

  it('a cold feed hit on both instances at once is built once for the fleet, and once again per window', async () => {
    const running = [...(await startedIds(a.bffUrl, DEMO_TOKENS.store)), ...(await startedIds(a.bffUrl, DEMO_TOKENS.aggregator))].length;
    await a.resetCalls();
    const burst = () => Promise.all(Array.from({ length: 250 }, (_, i) => post(i % 2 ? a.bffUrl : b.url, { query: FEED, variables: { first: 100 } }, app())));
    const coldStart = Date.now();
    const answers = await burst();
    const coldMs = Date.now() - coldStart;
    expect(new Set(answers.map((x) => x.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((x) => JSON.stringify(ids(x)))).size).toBe(1);
    let calls = await a.calls();
    // One build per partner (a burst slower than the window, on a very busy machine, may refresh once more).
    expect({ coldMs, lists: calls['campaigns/get-all-campaigns'] }).toEqual({ coldMs, lists: coldMs < ttlMs ? 2 : expect.any(Number) });
    expect(calls['campaigns/get-all-campaigns']).toBeLessThanOrEqual(2 * Math.ceil(coldMs / ttlMs));
    expect(calls['campaigns/get']).toBe(coldMs < ttlMs ? running : calls['campaigns/get']);

    // Past the window: both instances serve the stale feed while exactly one rebuild runs.
    await sleep(ttlMs + 100);
    await a.resetCalls();
    const windowStart = Date.now();
    await burst();
    await a.bff.apps.feed.settled();
    await b.apps.feed.settled();
    await sleep(100);
    await burst();
    // One build per partner per window; on a very busy machine the two bursts may span two.
    const windows = Math.ceil((Date.now() - windowStart) / ttlMs);
    calls = await a.calls();
    expect(calls['campaigns/get-all-campaigns']).toBeGreaterThanOrEqual(2);
    expect(calls['campaigns/get-all-campaigns']).toBeLessThanOrEqual(2 * windows);
    expect(calls['campaigns/get']).toBeGreaterThanOrEqual(running);
    expect(calls['campaigns/get']).toBeLessThanOrEqual(running * windows);
  });

  it('a stopCampaign through instance A removes the card from what instance B serves within 1 s', async () => {
    const warm = await post(b.url, { query: FEED, variables: { first: 100 } }, app());
    const target = (await startedIds(a.bffUrl, DEMO_TOKENS.store))[0]!;
    expect(ids(warm)).toContain(target);
    const stop = await post(a.bffUrl, { query: `mutation { stopCampaign(id: "${target}") { campaign { status } } }` }, partner(DEMO_TOKENS.store));
    expect(stop.body.data.stopCampaign.campaign.status).toBe('PAUSED');
    const stoppedAt = Date.now();
    let gone = false;
    while (Date.now() - stoppedAt < 1000) {
      if (!ids(await post(b.url, { query: FEED, variables: { first: 100 } }, app())).includes(target)) {
        gone = true;
        break;
      }
      await sleep(20);
    }
    expect(gone).toBe(true);
    // And the card comes back when it starts again.
    await post(a.bffUrl, { query: `mutation { startCampaign(id: "${target}") { campaign { status } } }` }, partner(DEMO_TOKENS.store));
    const startedAt = Date.now();
    let back = false;
    while (Date.now() - startedAt < 1000) {
      if (ids(await post(b.url, { query: FEED, variables: { first: 100 } }, app())).includes(target)) {
        back = true;
        break;
      }
      await sleep(20);
    }
    expect(back).toBe(true);
  });
});

describe.skipIf(!needs('redis-server'))('Redis is a cache for the feed, never a dependency', () => {
  it('with Redis down the feed is still built, served and refreshed after a write', async () => {
    const redis = await startRedis();
    const stack = await startStack({ env: { CACHE_URL: redis.url }, appKeys: DEMO_APP, emulator: { moderation: { mode: 'manual' } } });
    try {
      await redis.stop(true);
      const first = await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, app());
      expect(first.status).toBe(200);
      const feedIds = ids(first);
      expect(feedIds.length).toBeGreaterThan(0);
      const target = (await startedIds(stack.bffUrl, DEMO_TOKENS.store))[0]!;
      await post(stack.bffUrl, { query: `mutation { stopCampaign(id: "${target}") { campaign { status } } }` }, partner(DEMO_TOKENS.store));
      expect(ids(await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, app()))).toEqual(feedIds.filter((id: string) => id !== target));
    } finally {
      await stack.close();
      await redis.close();
    }
  });
});

function ids(answer: { body: any }): string[] {
  return answer.body.data.offerFeed.nodes.map((n: { id: string }) => campaignOf(n.id));
}
