import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCacheStore } from '../../src/cache/store.js';
import { createPersistedQueries, PERSISTED_QUERY_BOUNDS } from '../../src/pipeline/persisted-queries.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function persisted() {
  const cache = await createCacheStore(undefined);
  const store = cache.namespace('apq', PERSISTED_QUERY_BOUNDS);
  const lookups: string[] = [];
  return { queries: createPersistedQueries(store, { onLookup: (result) => lookups.push(result) }), lookups, store };
}

describe('automatic persisted queries', () => {
  it('are registered under their hash and found by it, each lookup counted', async () => {
    const { queries, lookups } = await persisted();
    const query = '{ categories { id } }';
    expect(await queries.get(sha256(query))).toBeUndefined();
    queries.register(sha256(query), query);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await queries.get(sha256(query))).toBe(query);
    expect(lookups).toEqual(['miss', 'hit']);
  });

  it('never look up what is not a SHA-256 in lowercase hex, and take a registration only under the text\'s own hash', async () => {
    const { queries, lookups, store } = await persisted();
    await store.set('not-a-hash', '{ categories { id } }', 60_000);
    expect(await queries.get('not-a-hash')).toBeUndefined();
    expect(await queries.get(sha256('x').toUpperCase())).toBeUndefined();
    expect(lookups).toEqual([]);
    expect(queries.matches(sha256('{ a }'), '{ a }')).toBe(true);
    expect(queries.matches(sha256('{ a }'), '{ b }')).toBe(false);
    expect(queries.matches(sha256('{ a }').toUpperCase(), '{ a }')).toBe(false);
  });

  it('are registered by no anonymous caller, whatever the rule for the others says', async () => {
    const cache = await createCacheStore(undefined);
    const everyone = createPersistedQueries(cache.namespace('apq', PERSISTED_QUERY_BOUNDS), { registers: () => true });
    expect(everyone.registers({ kind: 'anonymous', problem: 'missing' })).toBe(false);
    expect(everyone.registers({ kind: 'partner', token: 't' })).toBe(true);
    const byDefault = createPersistedQueries(cache.namespace('apq', PERSISTED_QUERY_BOUNDS));
    expect(byDefault.registers({ kind: 'anonymous', problem: 'malformed' })).toBe(false);
    expect(byDefault.registers({ kind: 'partner', token: 't' })).toBe(true);
  });

  it('are a miss, never an error, when the store fails', async () => {
    const failing = { get: () => Promise.reject(new Error('down')), set: () => Promise.reject(new Error('down')), delete: () => Promise.reject(new Error('down')) };
    const queries = createPersistedQueries(failing);
    expect(await queries.get(sha256('{ a }'))).toBeUndefined();
    expect(() => queries.register(sha256('{ a }'), '{ a }')).not.toThrow();
  });
});
