import { describe, expect, it } from 'vitest';
import { BoundedMemory } from '../../src/bounded/index.js';

/** The one bounded memory every store a client can grow is kept in. */
describe('BoundedMemory', () => {
  it('holds its entries at most, the least recently used going first', () => {
    const memory = new BoundedMemory<string, number>({ maxEntries: 3 });
    for (const [i, key] of ['a', 'b', 'c'].entries()) memory.set(key, i);
    expect(memory.get('a')).toBe(0);
    memory.set('d', 3);
    expect(memory.size).toBe(3);
    expect(memory.has('b')).toBe(false);
    expect([...memory.entries()]).toEqual([
      ['d', 3],
      ['a', 0],
      ['c', 2],
    ]);
    // A peek leaves the order as it is.
    expect(memory.peek('c')).toBe(2);
    memory.set('e', 4);
    expect(memory.has('c')).toBe(false);
  });

  it('holds its bytes at most, and keeps no entry larger than an entry may be', () => {
    const memory = new BoundedMemory<string, string>({ maxBytes: 100, maxEntryBytes: 40, sizeOf: (value, key) => value.length + key.length });
    for (let i = 0; i < 10; i++) expect(memory.set(`k${i}`, 'x'.repeat(18))).toBe(true);
    expect(memory.bytes).toBeLessThanOrEqual(100);
    expect(memory.size).toBe(5);
    expect(memory.set('big', 'x'.repeat(50))).toBe(false);
    expect(memory.has('big')).toBe(false);
    expect(memory.size).toBe(5);
    // A value too large for a key that was kept leaves nothing under it.
    expect(memory.set('k9', 'x'.repeat(50))).toBe(false);
    expect(memory.has('k9')).toBe(false);
  });

  it('lets each entry expire at its own time, or the memory\'s', () => {
    let time = 1000;
    const memory = new BoundedMemory<string, string>({ maxEntries: 10, ttlMs: 100, now: () => time });
    memory.set('default', 'v');
    memory.set('short', 'v', 10);
    memory.set('long', 'v', 1000);
    time += 11;
    expect(memory.get('short')).toBeUndefined();
    expect(memory.get('default')).toBe('v');
    time += 100;
    expect(memory.get('default')).toBeUndefined();
    expect(memory.get('long')).toBe('v');
    // An expiry already past keeps nothing, and clears what was kept.
    expect(memory.set('long', 'w', 0)).toBe(false);
    expect(memory.get('long')).toBeUndefined();
  });

  it('lets expired entries go as new ones come', () => {
    let time = 1000;
    const memory = new BoundedMemory<string, number>({ maxEntries: 1000, now: () => time });
    for (let i = 0; i < 100; i++) memory.set(`k${i}`, i, 60_000);
    time += 60_000;
    memory.set('late', 1, 60_000);
    expect(memory.size).toBe(1);
  });

  it('remembers what it was asked to make, only when it may keep it', () => {
    const memory = new BoundedMemory<string, string>({ maxEntries: 2 });
    let made = 0;
    const make = () => `made ${++made}`;
    expect(memory.remember('a', make)).toBe('made 1');
    expect(memory.remember('a', make)).toBe('made 1');
    expect(memory.remember('long', make, false)).toBe('made 2');
    expect(memory.remember('long', make, false)).toBe('made 3');
    expect(memory.size).toBe(1);
  });

  it('cannot be made without a bound', () => {
    expect(() => new BoundedMemory({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new BoundedMemory({ maxBytes: -1, sizeOf: () => 1 })).toThrow(RangeError);
  });
});
