import type { ExpiringStore } from '../../src/bounded/index.js';
import { memoryNamespace } from '../../src/cache/store.js';
import { describe, expect, it } from 'vitest';
import { CATEGORY_CACHE_KEY, createCategoryDirectory, type Category } from '../../src/categories/directory.js';
import type { CampaignApi } from '../../src/campaign-api/api.js';
import { NetworkError, UnauthenticatedError } from '../../src/campaign-api/index.js';

/**
 * The directory's TTL and stale-while-revalidate, and which tokens it serves without asking the
 * backend, on a real keyv store with an injected clock. The backend is a scripted stand-in: what
 * is tested is when the cache calls it, not the call.
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
/** Longer than any test's clock runs, unless a test sets it: the freshness tests are not about tokens. */
const LONG = 100 * TTL;
const REFUSED = new UnauthenticatedError('getCategories', 401);

/** A memory store of the shared cache's kind, with what was written to it kept for a look. */
function keptStore(): ExpiringStore<unknown> & { written: Map<string, unknown> } {
  const inner = memoryNamespace<unknown>({ maxBytes: 1024 * 1024, maxEntryBytes: 1024 * 1024, sizeOf: () => 1 });
  const written = new Map<string, unknown>();
  return {
    written,
    get: (key) => inner.get(key),
    set(key, value, ttlMs) {
      written.set(key, value);
      return inner.set(key, value, ttlMs);
    },
    delete: (key) => inner.delete(key),
  };
}

function setup(options: { store?: ExpiringStore<unknown>; retryAfterFailureMs?: number; maxStaleMs?: number; acceptedForMs?: number; refusedForMs?: number; storeTimeoutMs?: number } = {}) {
  const backend = scriptedBackend();
  let time = 1_000_000;
  const lookups: string[] = [];
  const refreshErrors: unknown[] = [];
  const store = options.store ?? keptStore();
  const directory = createCategoryDirectory({
    api: backend.api,
    store,
    ttlMs: TTL,
    token: 'warm-up-token',
    now: () => time,
    onLookup: (r) => lookups.push(r),
    onRefreshError: (e) => refreshErrors.push(e),
    acceptedForMs: options.acceptedForMs ?? LONG,
    refusedForMs: options.refusedForMs ?? LONG,
    ...(options.retryAfterFailureMs === undefined ? {} : { retryAfterFailureMs: options.retryAfterFailureMs }),
    ...(options.maxStaleMs === undefined ? {} : { maxStaleMs: options.maxStaleMs }),
    ...(options.storeTimeoutMs === undefined ? {} : { storeTimeoutMs: options.storeTimeoutMs }),
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
  it('coalesces concurrent cold misses of one token into one backend call, read with that token', async () => {
    const { backend, directory, lookups } = setup();
    const reads = [directory.list('partner-a'), directory.list('partner-a'), directory.get('partner-a', 2)];
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

  it('reads with each token of concurrent cold misses: a token is answered only once the backend took it', async () => {
    const { backend, directory } = setup();
    const good = directory.list('partner-a');
    const wrong = directory.list('wrong-token').catch((error: unknown) => error);
    await new Promise((r) => setImmediate(r));
    expect(backend.tokens).toEqual(['partner-a', 'wrong-token']);
    await backend.answer(V1);
    await backend.fail(REFUSED);
    expect(await good).toHaveLength(2);
    expect(await wrong).toBe(REFUSED);
  });

  it('serves a fresh copy without calling to a token the backend took, and keeps the token out of every cache key', async () => {
    const { backend, directory, store, advance } = setup();
    const first = directory.list('secret-partner-token');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await first;
    advance(TTL - 1);
    expect(await directory.list('secret-partner-token')).toHaveLength(2);
    expect(directory.accepts('secret-partner-token')).toBe(true);
    expect(backend.tokens).toHaveLength(1);
    const { written } = store as ReturnType<typeof keptStore>;
    expect([...written.keys()]).toEqual([CATEGORY_CACHE_KEY]);
    expect(JSON.stringify([...written.entries()])).not.toContain('secret-partner-token');
  });

  it('asks the backend with a token it has not seen taken before serving it the copy, once for concurrent reads', async () => {
    const { backend, directory } = setup();
    const cold = directory.list('partner-a');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await cold;
    expect(directory.accepts('partner-b')).toBe(false);
    const reads = [settled(directory.list('partner-b')), settled(directory.forToken('partner-b').get(1))];
    expect((await Promise.all(reads)).some((s) => s.done)).toBe(false);
    expect(backend.tokens).toEqual(['partner-a', 'partner-b']);
    await backend.answer(V2);
    // What the check read is the copy from then on, for everyone.
    expect(await directory.list('partner-b')).toEqual(V2);
    expect(await directory.list('partner-a')).toEqual(V2);
    expect(backend.tokens).toHaveLength(2);
    expect(directory.accepts('partner-b')).toBe(true);
  });

  it('refuses a token the backend refused, whatever is cached, with no call while the refusal is remembered', async () => {
    const { backend, directory, advance } = setup({ refusedForMs: 5000 });
    const cold = directory.list('partner-a');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await cold;
    const first = directory.list('wrong-token').catch((error: unknown) => error);
    await new Promise((r) => setImmediate(r));
    await backend.fail(REFUSED);
    expect(await first).toBe(REFUSED);
    advance(4999);
    await expect(directory.list('wrong-token')).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(directory.get('wrong-token', 1)).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(directory.forToken('wrong-token').list()).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(backend.pending).toBe(0);
    expect(directory.accepts('wrong-token')).toBe(false);
    advance(1);
    const again = directory.list('wrong-token').catch((error: unknown) => error);
    await new Promise((r) => setImmediate(r));
    expect(backend.pending).toBe(1);
    await backend.fail(REFUSED);
    expect(await again).toBe(REFUSED);
    // A refusal says nothing of the backend's health: the copy still refreshes as usual.
    expect(await directory.list('partner-a')).toHaveLength(2);
  });

  it('checks a token again once acceptedForMs has passed since the backend last took it', async () => {
    const { backend, directory, advance } = setup({ acceptedForMs: 10_000 });
    const cold = directory.list('partner-a');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await cold;
    advance(9999);
    expect(await directory.list('partner-a')).toHaveLength(2);
    expect(backend.pending).toBe(0);
    advance(1);
    expect(directory.accepts('partner-a')).toBe(false);
    const read = settled(directory.list('partner-a'));
    expect((await read).done).toBe(false);
    await backend.answer(V1);
    expect(directory.accepts('partner-a')).toBe(true);
  });

  it('serves the copy to a token it cannot check while the backend is down, and never to one the backend refused', async () => {
    const { backend, directory, refreshErrors } = setup();
    const cold = directory.list('partner-a');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    await cold;
    const refused = directory.list('wrong-token').catch((error: unknown) => error);
    await new Promise((r) => setImmediate(r));
    await backend.fail(REFUSED);
    expect(await refused).toBe(REFUSED);

    const unchecked = directory.list('partner-b');
    await new Promise((r) => setImmediate(r));
    await backend.fail(new NetworkError('getCategories', 'ECONNREFUSED', true));
    expect(await unchecked).toHaveLength(2);
    expect(refreshErrors).toHaveLength(1);
    // Not taken as accepted: the next read asks again.
    expect(directory.accepts('partner-b')).toBe(false);
    await expect(directory.list('wrong-token')).rejects.toBeInstanceOf(UnauthenticatedError);
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

  it('is shared through the store: another instance (another BFF process) serves a newer copy from it without a call', async () => {
    const store = keptStore();
    const one = setup({ store });
    const cold = one.directory.list('t');
    await new Promise((r) => setImmediate(r));
    await one.backend.answer(V1);
    await cold;
    // The other instance has not seen the token taken: it asks once.
    const two = setup({ store });
    const check = two.directory.list('t');
    await new Promise((r) => setImmediate(r));
    await two.backend.answer(V1);
    expect(await check).toHaveLength(2);

    // Both copies go stale; the first instance refreshes the store, the second reads it from there.
    one.advance(TTL + 1);
    two.advance(TTL + 2);
    await one.directory.list('t');
    await one.backend.answer(V2);
    expect(await two.directory.list('t')).toEqual(V2);
    expect(two.backend.tokens).toEqual(['t']);
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
    const store: ExpiringStore<unknown> = {
      get: async () => {
        throw new Error('redis down');
      },
      set: async () => {
        throw new Error('redis down');
      },
      delete: async () => undefined,
    };
    await expect(store.get('x')).rejects.toThrow('redis down'); // the store really fails
    const { backend, directory } = setup({ store });
    const cold = directory.list('t');
    await new Promise((r) => setImmediate(r));
    await backend.answer(V1);
    expect(await cold).toHaveLength(2);
    expect(await directory.list('t')).toHaveLength(2);
    expect(backend.tokens).toHaveLength(1);
  });

  it('goes on without a shared store that hangs: neither a read nor a write waits on it beyond its bound', async () => {
    const store: ExpiringStore<unknown> = {
      get: () => new Promise(() => {}),
      set: () => new Promise(() => {}),
      delete: async () => undefined,
    };
    const { backend, directory, advance } = setup({ store, storeTimeoutMs: 20 });
    const cold = directory.list('t');
    await new Promise((r) => setImmediate(r));
    // A token not seen is checked with a read of the backend, whose answer the write does not hold.
    await backend.answer(V1);
    expect(await cold).toHaveLength(2);
    // Stale: the store is asked again, gives up again, and the local copy serves.
    advance(TTL + 1);
    expect(await directory.list('t')).toHaveLength(2);
  });
});

