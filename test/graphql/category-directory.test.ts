import { Keyv } from 'keyv';
import { describe, expect, it } from 'vitest';
import { CATEGORY_CACHE_KEY, createCategoryDirectory, type Category } from '../../src/cache/category-directory.js';
import type { CampaignApi } from '../../src/campaign-api/api.js';

/**
 * The directory's TTL and stale-while-revalidate, on a real keyv store with an injected clock.
 * The backend is a scripted stand-in: what is tested is when the cache calls it, not the call.
 */
interface Scripted {
  api: CampaignApi;
  tokens: string[];
  /** Answers (or fails) the oldest call still waiting. */
  answer(categories: Category[]): Promise<void>;
  fail(error: Error): Promise<void>;
  readonly pending: number;
}

function scriptedBackend(): Scripted {
  const waiting: { resolve: (v: { categories: Category[] }) => void; reject: (e: Error) => void }[] = [];
  const tokens: string[] = [];
  const api = {
    getCategories(token: string) {
      tokens.push(token);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  } as unknown as CampaignApi;
  const settle = async (f: (w: (typeof waiting)[number]) => void) => {
    const next = waiting.shift();
    if (!next) throw new Error('no call is waiting');
    f(next);
    await new Promise((r) => setImmediate(r));
  };
  return {
    api,
    tokens,
    answer: (categories) => settle((w) => w.resolve({ categories })),
    fail: (error) => settle((w) => w.reject(error)),
    get pending() {
      return waiting.length;
    },
  };
}

const V1: Category[] = [
  { categoryId: 2, categoryName: 'Электроника' },
  { categoryId: 1, categoryName: 'Продукты' },
];
const V2: Category[] = [{ categoryId: 1, categoryName: 'Продукты и напитки' }];
const TTL = 60_000;

function setup(options: { store?: Keyv; retryAfterFailureMs?: number; maxStaleMs?: number } = {}) {
  const backend = scriptedBackend();
  let time = 1_000_000;
  const lookups: string[] = [];
  const refreshErrors: unknown[] = [];
  const store = options.store ?? new Keyv();
  const directory = createCategoryDirectory({
    api: backend.api,
    store,
    ttlMs: TTL,
    token: 'warm-up-token',
    now: () => time,
    onLookup: (r) => lookups.push(r),
    onRefreshError: (e) => refreshErrors.push(e),
    ...(options.retryAfterFailureMs === undefined ? {} : { retryAfterFailureMs: options.retryAfterFailureMs }),
    ...(options.maxStaleMs === undefined ? {} : { maxStaleMs: options.maxStaleMs }),
  });
  return { backend, directory, store, lookups, refreshErrors, advance: (ms: number) => (time += ms) };
}

const settled = async <T>(promise: Promise<T>): Promise<{ done: boolean; value?: T }> => {
  let state: { done: boolean; value?: T } = { done: false };
  promise.then((value) => (state = { done: true, value }));
  await new Promise((r) => setImmediate(r));
  return state;
};

describe('category directory', () => {
  it('coalesces concurrent cold misses into one backend call, read with the caller\'s token', async () => {
    const { backend, directory, lookups } = setup();
    const reads = [directory.list('partner-a'), directory.list('partner-b'), directory.get('partner-c', 2)];
    await new Promise((r) => setImmediate(r));
    expect(backend.pending).toBe(1);
    expect(backend.tokens).toEqual(['partner-a']);
    await backend.answer(V1);
    const [a, b, c] = await Promise.all(reads);
    expect(a).toEqual([V1[1], V1[0]]); // ordered by id
    expect(b).toEqual(a);
    expect(c).toEqual({ categoryId: 2, categoryName: 'Электроника' });
    expect(lookups).toEqual(['miss', 'miss', 'miss']);
  });

  it('serves a fresh copy without calling, and keeps the token out of every cache key', async () => {
    const { backend, directory, store, advance } = setup();
    const first = directory.list('secret-partner-token');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await first;
    advance(TTL - 1);
    expect(await directory.list('other-token')).toHaveLength(2);
    expect(backend.tokens).toHaveLength(1);
    const keys = [...(store.store as Map<string, unknown>).keys()];
    expect(keys).toEqual([`keyv:${CATEGORY_CACHE_KEY}`]);
    expect(JSON.stringify([...(store.store as Map<string, unknown>).entries()])).not.toContain('secret-partner-token');
  });

  it('after the TTL, answers at once with the stale copy while one refresh runs', async () => {
    const { backend, directory, lookups, advance } = setup();
    const cold = directory.list('t');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await cold;
    advance(TTL + 1);

    const during = await Promise.all([settled(directory.list('t')), settled(directory.list('t')), settled(directory.get('t', 1))]);
    expect(during.every((s) => s.done)).toBe(true); // nobody waited for the refresh
    expect(during[0]!.value).toHaveLength(2);
    expect(during[2]!.value).toEqual({ categoryId: 1, categoryName: 'Продукты' });
    expect(backend.pending).toBe(1); // one refresh for all of them

    await backend.answer(V2);
    expect(await directory.list('t')).toEqual(V2);
    expect(lookups).toEqual(['miss', 'stale', 'stale', 'stale', 'hit']);
  });

  it('a failed refresh keeps the last good copy and is retried only after a pause', async () => {
    const { backend, directory, refreshErrors, advance } = setup({ retryAfterFailureMs: 5000 });
    const cold = directory.list('t');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await cold;
    advance(TTL + 1);

    expect(await directory.list('t')).toHaveLength(2);
    await backend.fail(new Error('backend down'));
    expect(refreshErrors).toHaveLength(1);

    advance(4999);
    expect(await directory.list('t')).toHaveLength(2);
    expect(backend.pending).toBe(0); // no retry yet: an outage does not cost a call per request
    advance(1);
    expect(await directory.list('t')).toHaveLength(2);
    expect(backend.pending).toBe(1);
    await backend.answer(V2);
    expect(await directory.list('t')).toEqual(V2);
  });

  it('a cold miss that fails fails the read, and the next read tries again', async () => {
    const { backend, directory, lookups } = setup();
    const read = directory.list('t').catch((error: unknown) => error);
    await new Promise((r) => setImmediate(r));
    await backend.fail(new Error('backend down'));
    expect(await read).toEqual(new Error('backend down'));
    const again = directory.list('t');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    expect(await again).toHaveLength(2);
    expect(lookups).toEqual(['error', 'miss']);
  });

  it('a copy older than the stale limit is not served: the read waits for a fresh one', async () => {
    const { backend, directory, advance } = setup({ maxStaleMs: 10_000 });
    const cold = directory.list('t');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await cold;
    advance(TTL + 10_001);
    const read = settled(directory.list('t'));
    expect((await read).done).toBe(false);
    await backend.answer(V2);
    expect(await directory.list('t')).toEqual(V2);
  });

  it('is shared through the store: another instance (another BFF process) reads it without a call', async () => {
    const store = new Keyv();
    const one = setup({ store });
    const cold = one.directory.list('t');
    await new Promise((r) => setImmediate(r));
    await one.backend.answer(V1);
    await cold;
    const two = setup({ store });
    expect(await two.directory.list('t')).toHaveLength(2);
    expect(two.backend.tokens).toEqual([]);
  });

  it('warm() loads with the configured token unless a fresh copy exists', async () => {
    const { backend, directory } = setup();
    const warming = directory.warm();
    await new Promise((r) => setImmediate(r));
    expect(backend.tokens).toEqual(['warm-up-token']);
    await backend.answer(V1);
    await warming;
    await directory.warm();
    expect(backend.tokens).toHaveLength(1);
  });

  it('keeps serving from its own copy while the shared store fails', async () => {
    const failing = {
      get: async () => {
        throw new Error('redis down');
      },
      set: async () => {
        throw new Error('redis down');
      },
      delete: async () => false,
      clear: async () => undefined,
      has: async () => false,
      on: () => failing,
      opts: {},
      namespace: undefined,
    };
    const store = new Keyv({ store: failing as never, throwOnErrors: true });
    store.on('error', () => undefined);
    await expect(store.get('x')).rejects.toThrow('redis down'); // the store really fails
    const { backend, directory } = setup({ store });
    const cold = directory.list('t');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    expect(await cold).toHaveLength(2);
    expect(await directory.list('t')).toHaveLength(2);
    expect(backend.tokens).toHaveLength(1);
  });
});
