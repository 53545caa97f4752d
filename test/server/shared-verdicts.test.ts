import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { newPartner } from '../graphql/support.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { connectionInit, streamTokenCheck } from '../subscriptions/support.js';
import { needs } from '../helpers/needs.js';

/**
 * Two instances on one real redis-server with the same CURSOR_SECRET: what the campaign API said
 * of a token through one instance is known to the other, on every path, with no backend call; a
 * token it refused through one is refused by the other, whatever either has cached.
 */
const SECRET = 'fleet-cursor-secret-of-at-least-32-characters';
const WRONG = 'not-a-partner-token-of-the-fleet';
const CATEGORIES = 'query Categories { categories { id name } }';
const ONE = 'query One { category(id: "2") { id name } }';

describe.skipIf(!needs('redis-server'))('token verdicts shared by a fleet on Redis', () => {
  let redis: RunningRedis;
  let a: Stack;
  let b: RunningBff;
  const appKeys = () => ({
    fleet: { name: 'Fleet app', partnerTokens: [appToken] },
    refused: { name: 'Refused app', partnerTokens: [`${WRONG}-app`] },
  });
  let appToken = '';

  beforeAll(async () => {
    redis = await startRedis();
    // The app's token is registered with the emulator once it runs; the key maps to it from the start.
    appToken = `fleet-app-token-${process.pid}-${Date.now()}`;
    const env = { CACHE_URL: redis.url, CURSOR_SECRET: SECRET };
    a = await startStack({ env, appKeys: appKeys() });
    await a.admin('partners', { token: appToken, kind: 'store' });
    const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: '1000', ...env });
    b = await startBff(config, { campaignApiUrl: a.emulatorUrl, appKeys: appKeys() });
    // Both instances hold a warm directory, read with the demo store's token.
    for (const url of [a.bffUrl, b.url]) expect((await read(url, 'POST', CATEGORIES, { authorization: `Bearer ${DEMO_TOKENS.store}` })).body.data.categories).toHaveLength(12);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.close();
  });

  async function read(url: string, method: 'POST' | 'GET', query: string, headers: Record<string, string>, extensions?: unknown) {
    const response =
      method === 'POST'
        ? await fetch(url, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(extensions ? { extensions } : { query }) })
        : await fetch(`${url}?${new URLSearchParams({ query })}`, { headers: { ...headers, 'apollo-require-preflight': 'true' } });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) };
  }

  /** Every way a partner token reads the directory on an instance: POST (until remembered), GET, a persisted query by hash. */
  async function everyPath(url: string, token: string) {
    const auth = { authorization: `Bearer ${token}` };
    const answers = [];
    for (const query of [CATEGORIES, ONE]) for (let i = 0; i < 3; i++) answers.push(await read(url, 'POST', query, auth));
    for (const query of [CATEGORIES, ONE]) answers.push(await read(url, 'GET', query, auth));
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(CATEGORIES).digest('hex') } };
    answers.push(await read(url, 'POST', CATEGORIES, auth, extensions));
    return answers;
  }

  it('a token accepted through one instance is served warm by the other with no backend call, on every path', async () => {
    const token = await newPartner(a, 'store');
    // Registered through A, so the persisted query is known to the fleet.
    await fetch(a.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
      body: JSON.stringify({ query: CATEGORIES, extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(CATEGORIES).digest('hex') } } }),
    });
    await a.resetCalls();
    expect((await read(a.bffUrl, 'POST', CATEGORIES, { authorization: `Bearer ${token}` })).body.data.categories).toHaveLength(12);
    expect(await a.calls()).toEqual({ 'categories/get': 1 });

    await a.resetCalls();
    for (const answer of await everyPath(b.url, token)) {
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
    }
    expect(await connectionInit(b.url, token)).toBe('ack');
    expect(await streamTokenCheck(b.url, token)).toBe(400);
    expect(await a.calls()).toEqual({});
  });

  it('a token refused through one instance is refused by the other, on every path, with no backend call', async () => {
    await a.resetCalls();
    const onA = await read(a.bffUrl, 'POST', CATEGORIES, { authorization: `Bearer ${WRONG}` });
    expect(onA.body.errors.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
    expect(await a.calls()).toEqual({ 'categories/get': 1 });

    await a.resetCalls();
    for (const answer of await everyPath(b.url, WRONG)) {
      expect(answer.body.errors.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
      expect(Object.values(answer.body.data ?? {}).every((value) => value === null)).toBe(true);
    }
    // The same body as on the instance that asked.
    expect((await read(b.url, 'POST', CATEGORIES, { authorization: `Bearer ${WRONG}` })).text).toBe(onA.text);
    expect(await connectionInit(b.url, WRONG)).toEqual({ code: 4401 });
    expect(await streamTokenCheck(b.url, WRONG)).toBe(401);
    expect(await a.calls()).toEqual({});
  });

  it('live status on one instance and the directory on the other take each other\'s verdicts', async () => {
    const viaLive = await newPartner(a, 'aggregator');
    await a.resetCalls();
    expect(await connectionInit(a.bffUrl, viaLive)).toBe('ack');
    expect(await a.calls()).toEqual({ 'campaigns/get-all-campaigns': 1 });
    await a.resetCalls();
    expect((await read(b.url, 'POST', CATEGORIES, { authorization: `Bearer ${viaLive}` })).body.data.categories).toHaveLength(12);
    expect(await a.calls()).toEqual({});

    const refusedByLive = `${WRONG}-live`;
    expect(await connectionInit(a.bffUrl, refusedByLive)).toEqual({ code: 4401 });
    await a.resetCalls();
    expect((await read(b.url, 'POST', CATEGORIES, { authorization: `Bearer ${refusedByLive}` })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await a.calls()).toEqual({});
  });

  it('an app key\'s tokens: accepted through one instance and refused through one, the other follows with no call', async () => {
    const app = (key: string) => ({ 'x-app-key': key });
    await a.resetCalls();
    expect((await read(a.bffUrl, 'POST', CATEGORIES, app('fleet'))).body.data.categories).toHaveLength(12);
    const refusedOnA = await read(a.bffUrl, 'POST', CATEGORIES, app('refused'));
    expect(refusedOnA.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await a.calls()).toEqual({ 'categories/get': 2 });

    await a.resetCalls();
    for (const method of ['POST', 'GET'] as const) {
      expect((await read(b.url, method, CATEGORIES, app('fleet'))).body.data.categories).toHaveLength(12);
      expect((await read(b.url, method, CATEGORIES, app('refused'))).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    expect((await read(b.url, 'POST', CATEGORIES, app('refused'))).text).toBe(refusedOnA.text);
    expect(await a.calls()).toEqual({});
  });

  it('with Redis hung each instance checks a token itself, without waiting on Redis beyond its bound', async () => {
    const token = await newPartner(a, 'store');
    await a.resetCalls();
    redis.pause();
    try {
      expect((await read(b.url, 'POST', CATEGORIES, { authorization: `Bearer ${token}` })).body.data.categories).toHaveLength(12);
      expect((await read(b.url, 'POST', CATEGORIES, { authorization: `Bearer ${WRONG}-hung` })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      const live = await newPartner(a, 'aggregator');
      expect(await connectionInit(b.url, live)).toBe('ack');
      expect(await connectionInit(b.url, `${WRONG}-hung-live`)).toEqual({ code: 4401 });
    } finally {
      redis.resume();
    }
    expect(await a.calls()).toEqual({ 'categories/get': 2, 'campaigns/get-all-campaigns': 2 });
  });

  it('with Redis down each instance checks a token itself: nothing is refused for it, and a refused token stays refused', async () => {
    await redis.stop(true);
    const token = await newPartner(a, 'store');
    await a.resetCalls();
    for (const url of [a.bffUrl, b.url]) {
      expect((await read(url, 'POST', CATEGORIES, { authorization: `Bearer ${token}` })).body.data.categories).toHaveLength(12);
      expect((await read(url, 'POST', CATEGORIES, { authorization: `Bearer ${WRONG}-outage` })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    expect(await a.calls()).toEqual({ 'categories/get': 4 });
  });
});
