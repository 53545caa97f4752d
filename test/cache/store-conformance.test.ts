import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '@keyv/redis';
import { CATEGORY_CACHE_KEY, CATEGORY_STORE_BOUNDS, createCategoryDirectory, type Category } from '../../src/categories/directory.js';
import { createCacheStore, type CacheStore } from '../../src/cache/store.js';
import type { CampaignApi } from '../../src/campaign-api/api.js';
import { NetworkError } from '../../src/campaign-api/index.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { captureLogs } from '../helpers/log-capture.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { warmPath } from '../helpers/executor.js';
import { needs } from '../helpers/needs.js';

/**
 * One contract for every cache store the product can run on (CACHE_URL unset: bounded memory; a
 * redis:// URL: Redis): the same cases on each, then persisted queries end to end over HTTP.
 * Namespaces are fresh per case, so cases never see each other's keys, even on the one
 * redis-server the Redis cases share.
 */
interface StoreKind {
  kind: 'memory' | 'redis';
  /** Whether two CacheStore instances (two BFF processes) see each other's entries. */
  shared: boolean;
  skip: boolean;
  start(): Promise<{ url: string | undefined; close(): Promise<void> }>;
}

const KINDS: StoreKind[] = [
  { kind: 'memory', shared: false, skip: false, start: async () => ({ url: undefined, close: async () => {} }) },
  {
    kind: 'redis',
    shared: true,
    skip: !needs('redis-server'),
    async start() {
      const redis: RunningRedis = await startRedis();
      return { url: redis.url, close: () => redis.close() };
    },
  },
];

let counter = 0;
const freshNamespace = () => `conformance${++counter}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Redis connects in the background (start-up never waits on the cache): wait until it answers. */
async function ready(store: CacheStore): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await store.ping()) && Date.now() < deadline) await sleep(20);
}

describe.each(KINDS)('$kind cache store', ({ kind, shared, skip, start }) => {
  let backing: Awaited<ReturnType<StoreKind['start']>>;
  let store: CacheStore;
  let other: CacheStore;

  beforeAll(async () => {
    if (!skip) backing = await start();
  });
  afterAll(async () => {
    await backing?.close();
  });
  // Fresh instances per case, as a process restart would make them.
  beforeEach(async () => {
    if (skip) return;
    store = await createCacheStore(backing.url);
    other = await createCacheStore(backing.url);
    await Promise.all([ready(store), ready(other)]);
  });
  afterEach(async () => {
    await store?.close();
    await other?.close();
  });

  it.skipIf(skip)('is the kind CACHE_URL asks for, and answers a ping', async () => {
    expect(store.kind).toBe(kind);
    expect(await store.ping()).toBe(true);
  });

  const bounds = (maxEntryBytes = 64 * 1024, maxBytes = 1024 * 1024) => ({ maxBytes, maxEntryBytes, sizeOf: (value: unknown, key: string) => 2 * (JSON.stringify(value).length + key.length) });

  it.skipIf(skip)('keeps values of every JSON shape until their expiry, and deletes them', async () => {
    const ns = store.namespace<unknown>(freshNamespace(), bounds());
    const values = { text: 'Электроника', number: 42, object: { categories: [{ categoryId: 1 }], fetchedAt: 1 }, list: [1, 'two'], flag: false };
    for (const [key, value] of Object.entries(values)) expect(await ns.set(key, value, 60_000)).toBe(true);
    for (const [key, value] of Object.entries(values)) expect(await ns.get(key)).toEqual(value);
    expect(await ns.get('absent')).toBeUndefined();
    await ns.delete('text');
    expect(await ns.get('text')).toBeUndefined();
    expect(await ns.get('number')).toBe(42);
  });

  it.skipIf(skip)('expires an entry after its own time', async () => {
    const ns = store.namespace<string>(freshNamespace(), bounds());
    await ns.set('short', 'v', 150);
    await ns.set('long', 'v', 60_000);
    expect(await ns.get('short')).toBe('v');
    await sleep(300);
    expect(await ns.get('short')).toBeUndefined();
    expect(await ns.get('long')).toBe('v');
  });

  it.skipIf(skip)('takes no write without a positive, finite expiry', async () => {
    const ns = store.namespace<string>(freshNamespace(), bounds());
    for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(ns.set('k', 'v', ttl), String(ttl)).rejects.toThrow(/positive, finite time/);
    }
    expect(await ns.get('k')).toBeUndefined();
  });

  it.skipIf(skip)('keeps no entry larger than its namespace allows: such a write leaves nothing under its key', async () => {
    const ns = store.namespace<string>(freshNamespace(), bounds(4096));
    expect(await ns.set('k', 'small', 60_000)).toBe(true);
    expect(await ns.set('k', 'x'.repeat(8192), 60_000)).toBe(false);
    expect(await ns.set('big', 'x'.repeat(1024 * 1024), 60_000)).toBe(false);
    expect(await ns.get('big')).toBeUndefined();
    expect(await ns.get('k')).toBeUndefined();
  });

  it.skipIf(skip)('finds keys containing ":", its own namespace as prefix included', async () => {
    const namespace = freshNamespace();
    const ns = store.namespace<string>(namespace, bounds());
    const keys = [`${namespace}:${'ab12'.repeat(16)}`, 'a:b:c', ':leading', 'trailing:', `${namespace}::double`];
    for (const [i, key] of keys.entries()) await ns.set(key, `value ${i}`, 60_000);
    for (const [i, key] of keys.entries()) expect(await ns.get(key), key).toBe(`value ${i}`);
  });

  it.skipIf(skip)('keeps two namespaces apart, and gives one namespace the same store each time', async () => {
    const [first, second] = [freshNamespace(), freshNamespace()];
    const a = store.namespace<string>(first, bounds());
    const b = store.namespace<string>(second, bounds());
    expect(store.namespace<string>(first, bounds())).toBe(a);
    await a.set('k', 'in a', 60_000);
    expect(await b.get('k')).toBeUndefined();
    // A key naming the other namespace is still a key of its own namespace.
    await b.set(`${first}:k`, 'in b', 60_000);
    expect(await a.get('k')).toBe('in a');
    await b.set('k', 'also in b', 60_000);
    expect(await a.get('k')).toBe('in a');
  });

  it.skipIf(skip)(`${shared ? 'shares' : 'does not share'} entries between two CacheStore instances (two BFF processes)`, async () => {
    const namespace = freshNamespace();
    await store.namespace<string>(namespace, bounds()).set('h', 'from one', 60_000);
    expect(await other.namespace<string>(namespace, bounds()).get('h')).toBe(shared ? 'from one' : undefined);
  });

  if (kind === 'memory') it.skipIf(skip)('in memory, holds its bytes at most, the least recently used going first', async () => {
    const ns = store.namespace<string>(freshNamespace(), { maxBytes: 10_000, maxEntryBytes: 10_000, sizeOf: (value) => value.length });
    for (let i = 0; i < 10; i++) expect(await ns.set(`k${i}`, 'x'.repeat(1000), 60_000)).toBe(true);
    expect(await ns.get('k0')).toBe('x'.repeat(1000));
    // One more pushes out the least recently used: k1 (k0 was just read).
    await ns.set('k10', 'x'.repeat(1000), 60_000);
    expect(await ns.get('k1')).toBeUndefined();
    expect(await ns.get('k0')).toBe('x'.repeat(1000));
    await ns.set('huge', 'x'.repeat(9000), 60_000);
    let kept = 0;
    for (let i = 0; i <= 10; i++) if ((await ns.get(`k${i}`)) !== undefined) kept++;
    expect(kept).toBeLessThanOrEqual(1);
  });

  if (kind === 'redis') it.skipIf(skip)('on Redis, gives every key it writes an expiry', async () => {
    const namespace = freshNamespace();
    const ns = store.namespace<unknown>(namespace, bounds());
    await ns.set('a', { v: 1 }, 60_000);
    await ns.set('b', 'text', 5000);
    const client = createClient({ url: backing.url });
    await client.connect();
    try {
      const keys = await client.keys(`*${namespace}*`);
      expect(keys).toHaveLength(2);
      for (const key of keys) {
        const ttl = await client.pTTL(key);
        expect(ttl, key).toBeGreaterThan(0);
        expect(ttl, key).toBeLessThanOrEqual(60_000);
      }
    } finally {
      await client.close();
    }
  });

  it.skipIf(skip)('gives the category directory back what it stored, served while the backend cannot answer', async () => {
    const namespace = freshNamespace();
    let calls = 0;
    const categories: Category[] = [
      { categoryId: 2, categoryName: 'Электроника' },
      { categoryId: 1, categoryName: 'Продукты' },
    ];
    const api = {
      async getCategories() {
        // The first read succeeds; the backend is down after it.
        if (calls++ > 0) throw new NetworkError('getCategories', 'ECONNREFUSED', true);
        return { categories };
      },
    } as unknown as CampaignApi;
    const warmer = createCategoryDirectory({ api, store: store.namespace(namespace, CATEGORY_STORE_BOUNDS), ttlMs: 60_000, token: 't' });
    await warmer.warm();
    expect(await store.namespace(namespace, CATEGORY_STORE_BOUNDS).get(CATEGORY_CACHE_KEY)).toMatchObject({ categories: [categories[1], categories[0]] });
    // A directory with no copy of its own reads the store (another instance on Redis, or a restart
    // of it); the token is new to it, and the backend cannot check it, so the stored copy serves.
    const reader = createCategoryDirectory({ api, store: store.namespace(namespace, CATEGORY_STORE_BOUNDS), ttlMs: 60_000 });
    expect(await reader.get('t', 2)).toEqual(categories[0]);
    expect(calls).toBe(2);
  });

  describe('persisted queries over HTTP', () => {
    let stack: Stack;
    let second: Stack;
    const logs = captureLogs();
    let requests = 0;
    beforeAll(async () => {
      if (skip) return;
      const env: Record<string, string> = backing.url ? { CACHE_URL: backing.url } : {};
      stack = await startStack({ env, logger: logs.logger });
      second = await startStack({ env, logger: logs.logger });
    });
    afterAll(async () => {
      await second?.close();
      await stack?.close();
    });

    /** Status, body and what answered it: Apollo, or the compiled path after a lookup of the hash. */
    const post = async (url: string, body: unknown) => {
      const requestId = `apq-${kind}-${++requests}`;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}`, 'x-request-id': requestId },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as any;
      return { status: response.status, body: answer, path: logs.entries.find((line) => line.requestId === requestId)?.path };
    };
    const apqMetric = async (metricsUrl: string, result: 'hit' | 'miss') => {
      const text = await (await fetch(metricsUrl)).text();
      return Number(new RegExp(`bff_cache_lookups_total\\{cache="apq",result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    };

    it.skipIf(skip)('registers a query with its hash, then answers the hash alone, every time', async () => {
      const query = '{categories{name}}';
      const sha256Hash = createHash('sha256').update(query).digest('hex');
      const extensions = { persistedQuery: { version: 1, sha256Hash } };

      const unknown = await post(stack.bffUrl, { extensions });
      expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      const registered = await post(stack.bffUrl, { query, extensions });
      expect(registered.status).toBe(200);
      expect(registered.body.errors).toBeUndefined();
      expect(registered.body.data.categories.length).toBeGreaterThanOrEqual(10);
      // Registered by the pipeline in the shared store; the document reads the category directory
      // alone, so its answer is remembered from the first execution on.
      const paths = [];
      for (let i = 0; i < 3; i++) {
        const byHash = await post(stack.bffUrl, { extensions });
        expect(byHash.status).toBe(200);
        expect(byHash.body).toEqual(registered.body);
        paths.push(byHash.path);
      }
      expect(paths).toEqual(['remembered', 'remembered', 'remembered']);
      // One lookup counted per request: the three by hash hit, the unknown one missed once.
      expect(await apqMetric(stack.metricsUrl, 'hit')).toBe(3);
      expect(await apqMetric(stack.metricsUrl, 'miss')).toBe(1);
    });

    it.skipIf(skip)('answers many requests by the same hash at once, each counted once', async () => {
      const query = 'query Concurrent { categories { id } }';
      const sha256Hash = createHash('sha256').update(query).digest('hex');
      const extensions = { persistedQuery: { version: 1, sha256Hash } };
      const hitsBefore = await apqMetric(stack.metricsUrl, 'hit');
      const registered = await post(stack.bffUrl, { query, extensions, operationName: 'Concurrent' });
      const answers = await Promise.all(Array.from({ length: 30 }, () => post(stack.bffUrl, { extensions, operationName: 'Concurrent' })));
      for (const answer of answers) {
        expect(answer).toMatchObject({ status: 200, body: registered.body });
        expect([warmPath, 'remembered']).toContain(answer.path);
      }
      expect((await apqMetric(stack.metricsUrl, 'hit')) - hitsBefore).toBe(30);
    });

    it.skipIf(skip)(`${shared ? 'shares' : 'keeps'} registered hashes ${shared ? 'with' : 'from'} another instance`, async () => {
      const query = '{ categories { id } }';
      const sha256Hash = createHash('sha256').update(query).digest('hex');
      const extensions = { persistedQuery: { version: 1, sha256Hash } };
      expect((await post(stack.bffUrl, { query, extensions })).body.errors).toBeUndefined();
      const elsewhere = await post(second.bffUrl, { extensions });
      if (shared) {
        // Found in the shared store, but new to that instance: Apollo runs it first, then its answer is remembered.
        expect(elsewhere.body.data.categories.length).toBeGreaterThanOrEqual(10);
        expect(elsewhere.path).toBe('apollo');
        const again = await post(second.bffUrl, { extensions });
        expect(again).toEqual({ ...elsewhere, path: 'remembered' });
        expect(await apqMetric(second.metricsUrl, 'hit')).toBe(2);
      } else {
        expect(elsewhere.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      }
    });
  });
});
