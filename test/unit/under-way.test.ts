import { describe, expect, it } from 'vitest';
import { UnderWay } from '../../src/bounded/index.js';

describe('UnderWay', () => {
  it('keeps each key’s work until that work leaves, and not a later work’s entry', () => {
    const underWay = new UnderWay<string, object>(10);
    const first = {};
    const later = {};
    expect(underWay.enter('a', first)).toBe(true);
    expect(underWay.get('a')).toBe(first);
    // A later work for the key is the one joined from now on; the earlier one's end leaves it be.
    expect(underWay.enter('a', later)).toBe(true);
    underWay.leave('a', first);
    expect(underWay.get('a')).toBe(later);
    underWay.leave('a', later);
    expect(underWay.has('a')).toBe(false);
    expect(underWay.size).toBe(0);
    underWay.leave('a', later);
    expect(underWay.size).toBe(0);
  });

  it('keeps no new key past its bound, pushes nothing out, and takes new keys once work leaves', () => {
    const underWay = new UnderWay<number, object>(3);
    const works = [{}, {}, {}, {}];
    expect(works.map((work, i) => underWay.enter(i, work))).toEqual([true, true, true, false]);
    expect(underWay.size).toBe(3);
    expect(underWay.has(3)).toBe(false);
    expect(underWay.get(0)).toBe(works[0]);
    // A key already under way may still be replaced at the bound.
    const again = {};
    expect(underWay.enter(2, again)).toBe(true);
    underWay.leave(0, works[0]!);
    expect(underWay.enter(3, works[3]!)).toBe(true);
    expect([...[0, 1, 2, 3].map((key) => underWay.get(key))]).toEqual([undefined, works[1], again, works[3]]);
  });

  it('takes a promise out once it settles, before those awaiting it resume', async () => {
    const underWay = new UnderWay<string, Promise<string>>(10);
    let resolve!: (value: string) => void;
    const work = new Promise<string>((r) => (resolve = r));
    underWay.enterUntilSettled('k', work);
    const seen = work.then(() => underWay.has('k'));
    const failing = Promise.reject(new Error('down'));
    underWay.enterUntilSettled('f', failing);
    await expect(failing).rejects.toThrow('down');
    expect(underWay.has('f')).toBe(false);
    expect(underWay.has('k')).toBe(true);
    resolve('done');
    expect(await seen).toBe(false);
    expect(underWay.size).toBe(0);
  });

  it('refuses a bound that is not positive', () => {
    expect(() => new UnderWay(0)).toThrow('max must be positive');
  });
});
