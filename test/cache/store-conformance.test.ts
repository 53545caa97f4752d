import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CATEGORY_CACHE_KEY, createCategoryDirectory, type Category } from '../../src/categories/directory.js';
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
 * One contract for every cache store the product can run on (CACHE_URL unset: memory; a
 * redis:// URL: Redis), as keyv tests its own adapters: the same cases on each, then persisted
 * queries end to end over HTTP. Namespaces are fresh per case, so cases never see each other's
 * keys, even on the one redis-server the Redis cases share.
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

  it.skipIf(skip)('sets, gets and deletes values of every JSON shape', async () => {
    const keyv = store.keyv(freshNamespace());
    const values = { text: 'Электроника', number: 42, object: { categories: [{ categoryId: 1 }], fetchedAt: 1 }, list: [1, 'two'], flag: false };
    for (const [key, value] of Object.entries(values)) expect(await keyv.set(key, value)).toBe(true);
    for (const [key, value] of Object.entries(values)) expect(await keyv.get(key)).toEqual(value);
    expect(await keyv.get('absent')).toBeUndefined();
    expect(await keyv.delete('text')).toBe(true);
    expect(await keyv.get('text')).toBeUndefined();
    expect(await keyv.get('number')).toBe(42);
  });

  it.skipIf(skip)('reads many keys at once in order, with undefined for the missing ones', async () => {
    const keyv = store.keyv(freshNamespace());
    await keyv.set('a', 1);
    await keyv.set('c', 3);
    expect(await keyv.getMany(['a', 'b', 'c'])).toEqual([1, undefined, 3]);
    // The array form of get is what Apollo's KeyvAdapter batches through.
    expect(await keyv.get(['c', 'a'])).toEqual([3, 1]);
  });

  it.skipIf(skip)('expires an entry after its ttl, for single and batched reads', async () => {
    const keyv = store.keyv(freshNamespace());
    await keyv.set('short', 'v', 150);
    await keyv.set('long', 'v', 60_000);
    expect(await keyv.get('short')).toBe('v');
    await sleep(300);
    expect(await keyv.get('short')).toBeUndefined();
    expect(await keyv.getMany(['short', 'long'])).toEqual([undefined, 'v']);
  });

  it.skipIf(skip)('finds keys containing ":" by single and batched reads, its own namespace as prefix included', async () => {
    const namespace = freshNamespace();
    const keyv = store.keyv(namespace);
    // What the product stores: Apollo's "apq:<sha256>" in "apq", "categories:v1" in "categories".
    const hashKey = `${namespace}:${'ab12'.repeat(16)}`;
    const keys = [hashKey, 'a:b:c', ':leading', 'trailing:', `${namespace}::double`];
    for (const [i, key] of keys.entries()) await keyv.set(key, `value ${i}`);
    for (const [i, key] of keys.entries()) expect(await keyv.get(key), key).toBe(`value ${i}`);
    expect(await keyv.getMany(keys)).toEqual(keys.map((_, i) => `value ${i}`));
    expect(await keyv.get(keys)).toEqual(keys.map((_, i) => `value ${i}`));
    expect(await keyv.delete(hashKey)).toBe(true);
    expect(await keyv.getMany([hashKey])).toEqual([undefined]);
  });

  it.skipIf(skip)('keeps a key and the same key with its namespace in front apart', async () => {
    const namespace = freshNamespace();
    const keyv = store.keyv(namespace);
    await keyv.set('k', 'plain');
    await keyv.set(`${namespace}:k`, 'prefixed');
    expect(await keyv.get('k')).toBe('plain');
    expect(await keyv.get(`${namespace}:k`)).toBe('prefixed');
    expect(await keyv.getMany(['k', `${namespace}:k`])).toEqual(['plain', 'prefixed']);
  });

  it.skipIf(skip)('keeps two namespaces apart, clear included, and shares one namespace between its handles', async () => {
    const [first, second] = [freshNamespace(), freshNamespace()];
    const a = store.keyv(first);
    const b = store.keyv(second);
    await a.set('k', 'in a');
    expect(await b.get('k')).toBeUndefined();
    expect(await b.getMany(['k'])).toEqual([undefined]);
    // A key naming the other namespace is still a key of its own namespace.
    await b.set(`${first}:k`, 'in b');
    expect(await a.get('k')).toBe('in a');
    await b.set('k', 'also in b');
    expect(await a.get('k')).toBe('in a');
    await b.clear();
    expect(await a.get('k')).toBe('in a');
    expect(await b.get('k')).toBeUndefined();
    expect(await store.keyv(first).getMany(['k'])).toEqual(['in a']);
  });

  it.skipIf(skip)(`${shared ? 'shares' : 'does not share'} entries between two CacheStore instances (two BFF processes)`, async () => {
    const namespace = freshNamespace();
    await store.keyv(namespace).set(`${namespace}:h`, 'from one');
    const seen = other.keyv(namespace);
    expect(await seen.get(`${namespace}:h`)).toBe(shared ? 'from one' : undefined);
    expect(await seen.getMany([`${namespace}:h`])).toEqual([shared ? 'from one' : undefined]);
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
    const warmer = createCategoryDirectory({ api, store: store.keyv(namespace), ttlMs: 60_000, token: 't' });
    await warmer.warm();
    expect(await store.keyv(namespace).get(CATEGORY_CACHE_KEY)).toMatchObject({ categories: [categories[1], categories[0]] });
    // A directory with no copy of its own reads the store (another instance on Redis, or a restart
    // of it); the token is new to it, and the backend cannot check it, so the stored copy serves.
    const reader = createCategoryDirectory({ api, store: store.keyv(namespace), ttlMs: 60_000 });
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
