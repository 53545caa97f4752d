import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { loadConfig } from '../../src/config.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { needs } from '../helpers/needs.js';

/** A real redis-server; `.ci/run` installs it, so CI always runs these. */
describe.skipIf(!needs('redis-server'))('shared caches on Redis', () => {
  let redis: RunningRedis;
  let stack: Stack;
  let second: RunningBff;

  // A fleet shares CURSOR_SECRET: the instances then share what the campaign API said of tokens too.
  const SECRET = 'redis-test-cursor-secret-of-32-characters-or-more';

  beforeAll(async () => {
    redis = await startRedis();
    stack = await startStack({ env: { CACHE_URL: redis.url, CURSOR_SECRET: SECRET } });
    const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', CACHE_URL: redis.url, CURSOR_SECRET: SECRET, SHUTDOWN_GRACE_MS: '1000' });
    second = await startBff(config, { campaignApiUrl: stack.emulatorUrl });
  });
  afterAll(async () => {
    await second?.close();
    await stack?.close();
    await redis?.close();
  });

  const post = (url: string, body: unknown, token: string = DEMO_TOKENS.store) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json() as any) }));

  it('two instances read the category directory once between them, and refuse a wrong token whatever is cached', async () => {
    await stack.resetCalls();
    const a = await post(stack.bffUrl, { query: '{ categories { id name } }' });
    // The second instance finds the token accepted, and the copy, in Redis: no read of its own.
    const b = await post(second.url, { query: '{ categories { id name } }' });
    const again = await post(second.url, { query: '{ category(id: "2") { name } }' });
    expect(a.body.data.categories.length).toBeGreaterThanOrEqual(10);
    expect(b.body.data).toEqual(a.body.data);
    expect(again.body.data.category.name).toBe(a.body.data.categories[1].name);
    expect(await stack.calls()).toEqual({ 'categories/get': 1 });
    await stack.resetCalls();
    const refusal = { errors: [expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } })], data: { categories: null } };
    expect((await post(stack.bffUrl, { query: '{ categories { id name } }' }, 'not-a-partner-token')).body).toEqual(refusal);
    expect((await post(second.url, { query: '{ categories { id name } }' }, 'not-a-partner-token')).body).toEqual(refusal);
    expect(await stack.calls()).toEqual({ 'categories/get': 1 });
  });

  it('shares the APQ store: a hash registered on one instance works on the other', async () => {
    const query = '{ categories { id } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const extensions = { persistedQuery: { version: 1, sha256Hash } };
    const unknown = await post(second.url, { extensions });
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await post(stack.bffUrl, { query, extensions });
    expect(registered.body.errors).toBeUndefined();
    const byHash = await post(second.url, { extensions });
    expect(byHash.body).toEqual(registered.body);
    const metrics = await (await fetch(second.metricsUrl!)).text();
    expect(metrics).toMatch(/bff_cache_lookups_total\{cache="apq",result="miss"\} 1/);
    expect(metrics).toMatch(/bff_cache_lookups_total\{cache="apq",result="hit"\} 1/);
  });

  it('keeps serving from the backend while Redis is down, stays ready (saying Redis is down), and recovers', async () => {
    const readyz = () => fetch(second.url.replace('/graphql', '/readyz')).then(async (r) => ({ status: r.status, body: (await r.json() as any) }));
    const redisUp = async () => /bff_dependency_up\{dependency="redis"\} (\d)/.exec(await (await fetch(second.metricsUrl!)).text())?.[1];
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { backend: expect.objectContaining({ ok: true }), cache: { ok: true, detail: 'redis' } } } });
    expect(await redisUp()).toBe('1');
    await redis.stop(true);

    const served = await post(second.url, { query: '{ categories { id } campaigns(first: 2) { nodes { id } } }' });
    expect(served.status).toBe(200);
    expect(served.body.errors).toBeUndefined();
    expect(served.body.data.categories.length).toBeGreaterThanOrEqual(10);
    // Every instance shares Redis: an outage of it must not take the fleet out of the load balancer.
    const down = await readyz();
    expect(down.status).toBe(200);
    expect(down.body.status).toBe('ready');
    expect(down.body.checks.cache).toEqual({ ok: false, detail: 'redis cache does not answer' });
    expect(await redisUp()).toBe('0');

    await redis.restart();
    const deadline = Date.now() + 10_000;
    let cache = down.body.checks.cache;
    while (Date.now() < deadline && !cache.ok) {
      await new Promise((r) => setTimeout(r, 200));
      const again = await readyz();
      expect(again.status).toBe(200);
      cache = again.body.checks.cache;
    }
    expect(cache).toEqual({ ok: true, detail: 'redis' });
    expect(await redisUp()).toBe('1');
    const after = await post(second.url, { query: '{ categories { id } }' });
    expect(after.body.errors).toBeUndefined();
  });
});

/** Without CURSOR_SECRET no instance can compute another's key for a token: each checks it itself. */
describe.skipIf(!needs('redis-server'))('shared caches on Redis without CURSOR_SECRET', () => {
  let redis: RunningRedis;
  let stack: Stack;
  let second: RunningBff;

  beforeAll(async () => {
    redis = await startRedis();
    stack = await startStack({ env: { CACHE_URL: redis.url } });
    const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', CACHE_URL: redis.url, SHUTDOWN_GRACE_MS: '1000' });
    second = await startBff(config, { campaignApiUrl: stack.emulatorUrl });
  });
  afterAll(async () => {
    await second?.close();
    await stack?.close();
    await redis?.close();
  });

  const post = (url: string, token: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ categories { id name } }' }),
    }).then(async (r) => (await r.json()) as any);

  it('share the copy of the directory, and each instance checks a token once itself', async () => {
    await stack.resetCalls();
    const a = await post(stack.bffUrl, DEMO_TOKENS.store);
    const b = await post(second.url, DEMO_TOKENS.store);
    expect(b.data).toEqual(a.data);
    expect((await post(second.url, DEMO_TOKENS.store)).data).toEqual(a.data);
    expect(await stack.calls()).toEqual({ 'categories/get': 2 });
    await stack.resetCalls();
    for (const url of [stack.bffUrl, second.url]) expect((await post(url, 'not-a-partner-token')).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await stack.calls()).toEqual({ 'categories/get': 2 });
  });
});

