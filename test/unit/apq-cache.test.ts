import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApqStore } from '../../src/cache/apq-cache.js';
import { createCacheStore } from '../../src/cache/store.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function apqStore() {
  const cache = await createCacheStore(undefined);
  const lookups: string[] = [];
  const apq = createApqStore(cache.keyv('apq'), (result) => lookups.push(result));
  // Registered as Apollo registers it: through the cache it is handed, under its own prefix.
  const register = (query: string) => apq.cache.set(`apq:${sha256(query)}`, query);
  return { apq, lookups, register, keyv: cache.keyv('apq') };
}

describe('documents registered for automatic persisted queries', () => {
  it('are found by their hash where Apollo registered them, one hit counted per request', async () => {
    const { apq, lookups, register } = await apqStore();
    const query = '{ categories { id } }';
    await register(query);
    expect(await apq.registered(sha256(query))).toBe(query);
    expect(await apq.registered(sha256(query))).toBe(query);
    expect(lookups).toEqual(['hit', 'hit']);
  });

  it('leave a miss uncounted (Apollo looks again and counts it) and never look up what is no SHA-256', async () => {
    const { apq, lookups, keyv } = await apqStore();
    expect(await apq.registered(sha256('{ never { registered } }'))).toBeUndefined();
    await keyv.set('apq:not-a-hash', '{ categories { id } }');
    expect(await apq.registered('not-a-hash')).toBeUndefined();
    expect(await apq.registered(sha256('x').toUpperCase())).toBeUndefined();
    expect(lookups).toEqual([]);
  });

  it('are kept once found, since a hash names one text for ever: within bounds of count and length', async () => {
    const { apq, register, keyv } = await apqStore();
    const small = '{ categories { name } }';
    const large = `{ categories { id } } # ${'x'.repeat(8 * 1024)}`;
    await register(small);
    await register(large);
    expect(await apq.registered(sha256(small))).toBe(small);
    expect(await apq.registered(sha256(large))).toBe(large);
    await keyv.clear();
    // The store forgot both: the small one is still known here, the large one was not kept.
    expect(await apq.registered(sha256(small))).toBe(small);
    expect(await apq.registered(sha256(large))).toBeUndefined();

    // Past 500 kept documents, the oldest goes first.
    const many = Array.from({ length: 500 }, (_, i) => `{ categories { id } } # ${i}`);
    for (const query of many) await register(query);
    for (const query of many) expect(await apq.registered(sha256(query))).toBe(query);
    await keyv.clear();
    expect(await apq.registered(sha256(small))).toBeUndefined();
    expect(await apq.registered(sha256(many[0]!))).toBe(many[0]);
    expect(await apq.registered(sha256(many[499]!))).toBe(many[499]);
  });
});
