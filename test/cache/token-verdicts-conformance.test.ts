import { createHash } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCacheStore, type CacheStore } from '../../src/cache/store.js';
import { createTokenVerdicts, verdictStore, TokenVerdicts, type StoredVerdict, type TokenVerdict, type VerdictStore } from '../../src/cache/token-verdicts.js';
import { keyedHashes } from '../../src/secrets/index.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { needs } from '../helpers/needs.js';

/**
 * One contract for the store a fleet keeps token verdicts in, on each cache the product runs on
 * (memory: the instances of one process sharing a namespace; Redis: separate connections, as separate
 * processes hold them). Namespaces are fresh per case.
 */
const SECRET = 'a-cursor-secret-of-at-least-32-characters';

interface Kind {
  kind: 'memory' | 'redis';
  skip: boolean;
}

const KINDS: Kind[] = [
  { kind: 'memory', skip: false },
  { kind: 'redis', skip: !needs('redis-server') },
];

let counter = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const BOUNDS = { maxBytes: 1024 * 1024, maxEntryBytes: 256, sizeOf: () => 128 };

/** The namespace's store, with every write it was given recorded. */
function recorded(store: CacheStore, namespace: string): VerdictStore & { writes: [string, StoredVerdict][] } {
  const inner = verdictStore(store.namespace<StoredVerdict>(namespace, BOUNDS));
  const writes: [string, StoredVerdict][] = [];
  return {
    writes,
    get: (key) => inner.get(key),
    set(key, value, ttlMs) {
      writes.push([key, value]);
      return inner.set(key, value, ttlMs);
    },
  };
}

async function ready(store: CacheStore): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await store.ping()) && Date.now() < deadline) await sleep(20);
}

/** An ask that counts its calls and answers at once with what the API would say. */
function backend(verdicts: Record<string, TokenVerdict>) {
  const asked: string[] = [];
  return {
    asked,
    ask: (token: string) => async () => {
      asked.push(token);
      return verdicts[token] ?? 'refused';
    },
  };
}

describe.each(KINDS)('token verdicts over the $kind cache', ({ kind, skip }) => {
  let redis: RunningRedis | undefined;
  let one: CacheStore;
  let two: CacheStore;
  let namespace: string;

  beforeAll(async () => {
    if (!skip && kind === 'redis') redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });
  beforeEach(async () => {
    if (skip) return;
    namespace = `verdicts${++counter}`;
    stores = [];
    one = await createCacheStore(redis?.url);
    // Memory: another instance in the same process shares the namespace; Redis: a connection of its own.
    two = redis ? await createCacheStore(redis.url) : one;
    await ready(one);
    await ready(two);
  });
  afterEach(async () => {
    if (skip) return;
    await one.close();
    if (two !== one) await two.close();
  });

  let stores: ReturnType<typeof recorded>[] = [];
  const member = (store: CacheStore, options: { secret?: string; refusedForMs?: number; timeoutMs?: number } = {}) => {
    const shared = recorded(store, namespace);
    stores.push(shared);
    return new TokenVerdicts({
      acceptedForMs: 60_000,
      refusedForMs: options.refusedForMs ?? 5000,
      maxEntries: 100,
      hashes: keyedHashes(options.secret ?? SECRET),
      shared: { store: shared, timeoutMs: options.timeoutMs ?? 200 },
    });
  };

  /** Lets a fire-and-forget write reach the store. */
  const written = () => sleep(kind === 'redis' ? 50 : 0);

  it.skipIf(skip)('an instance finds what another was told, accepted and refused, without asking the API', async () => {
    const api = backend({ good: 'accepted', bad: 'refused' });
    const a = member(one);
    expect(await a.check(a.key('good'), api.ask('good'))).toBe('accepted');
    expect(await a.check(a.key('bad'), api.ask('bad'))).toBe('refused');
    await written();
    const b = member(two);
    expect(await b.check(b.key('good'), api.ask('good'))).toBe('accepted');
    expect(await b.check(b.key('bad'), api.ask('bad'))).toBe('refused');
    expect(api.asked).toEqual(['good', 'bad']);
    // Another secret shares nothing: it asks.
    const outsider = member(two, { secret: 'another-secret-of-at-least-32-characters' });
    expect(await outsider.check(outsider.key('good'), api.ask('good'))).toBe('accepted');
    expect(api.asked).toEqual(['good', 'bad', 'good']);
  });

  it.skipIf(skip)('the latest verdict on a token stands for the fleet', async () => {
    const a = member(one);
    const b = member(two);
    const key = a.key('revoked');
    a.set(key, 'accepted');
    await written();
    b.set(key, 'refused');
    await written();
    const c = member(two);
    const api = backend({});
    expect(await c.check(key, api.ask('revoked'))).toBe('refused');
    expect(api.asked).toEqual([]);
  });

  it.skipIf(skip)('a verdict ends in the store after its own time', async () => {
    const a = member(one, { refusedForMs: 300 });
    a.set(a.key('bad'), 'refused');
    await written();
    await sleep(400);
    const b = member(two, { refusedForMs: 300 });
    const api = backend({ bad: 'refused' });
    expect(await b.check(b.key('bad'), api.ask('bad'))).toBe('refused');
    expect(api.asked).toEqual(['bad']);
  });

  it.skipIf(skip)('the store holds neither a token nor an unkeyed hash of it', async () => {
    const token = 'secret-partner-token-1234567890';
    const a = member(one);
    a.set(a.key(token), 'accepted');
    await written();
    let stored: string;
    if (redis) {
      const client = createClient({ url: redis.url });
      await client.connect();
      const keys = await client.keys('*');
      stored = JSON.stringify([keys, await Promise.all(keys.map((k) => client.get(k)))]);
      await client.close();
    } else {
      stored = JSON.stringify(stores.flatMap((s) => s.writes));
    }
    expect(stored).toContain(a.key(token));
    expect(stored).not.toContain(token);
    for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(stored).not.toContain(createHash('sha256').update(token).digest(encoding).slice(0, 16));
  });

  it.skipIf(skip)('is shared only on Redis with CURSOR_SECRET: without either, verdicts stay in each instance', async () => {
    expect(createTokenVerdicts(one, keyedHashes(SECRET)).shared).toBe(kind === 'redis');
    expect(createTokenVerdicts(one, keyedHashes()).shared).toBe(false);
    // Without the secret each instance keys tokens under a secret of its own.
    expect(createTokenVerdicts(one, keyedHashes()).key('t')).not.toBe(createTokenVerdicts(two, keyedHashes()).key('t'));
  });
});

describe.skipIf(!needs('redis-server'))('token verdicts while Redis fails', () => {
  let redis: RunningRedis;
  let store: CacheStore;
  beforeAll(async () => {
    redis = await startRedis();
    store = await createCacheStore(redis.url);
    await ready(store);
  });
  afterAll(async () => {
    await store?.close();
    await redis?.close();
  });

  const member = () =>
    new TokenVerdicts({
      acceptedForMs: 60_000,
      refusedForMs: 5000,
      maxEntries: 100,
      hashes: keyedHashes(SECRET),
      shared: { store: verdictStore(store.namespace<StoredVerdict>('verdicts-outage', BOUNDS)), timeoutMs: 200, pauseAfterTimeoutMs: 1000 },
    });

  it('asks the API when Redis hangs, within the bound, and keeps the verdict in the instance', async () => {
    const api = backend({ good: 'accepted', bad: 'refused' });
    const a = member();
    redis.pause();
    try {
      expect(await a.check(a.key('good'), api.ask('good'))).toBe('accepted');
      expect(await a.check(a.key('bad'), api.ask('bad'))).toBe('refused');
      expect(api.asked).toEqual(['good', 'bad']);
      expect([a.get(a.key('good')), a.get(a.key('bad'))]).toEqual(['accepted', 'refused']);
    } finally {
      redis.resume();
    }
  });

  it('asks the API when Redis is down, and the verdict is the API\'s', async () => {
    const api = backend({ good: 'accepted', bad: 'refused' });
    const a = member();
    await redis.stop(true);
    expect(await a.check(a.key('good'), api.ask('good'))).toBe('accepted');
    expect(await a.check(a.key('bad'), api.ask('bad'))).toBe('refused');
    expect(api.asked).toEqual(['good', 'bad']);
  });
});
