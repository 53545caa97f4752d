import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/bounded/index.js';

const child = fileURLToPath(new URL('../fixtures/in-flight-child.ts', import.meta.url));

/** How far the old space grew while 5,000 entries of some 600 bytes joined and left the store. */
function promoted(store: 'in-flight' | 'set'): number {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', child, store], { encoding: 'utf8' });
  return (JSON.parse(out) as { grewBytes: number }).grewBytes;
}

describe('InFlight', () => {
  it('holds what joined until it leaves, in the order it joined', () => {
    const inFlight = new InFlight<string>();
    const a = inFlight.add('a');
    inFlight.add('b');
    const c = inFlight.add('c');
    expect([...inFlight]).toEqual(['a', 'b', 'c']);
    expect(inFlight.size).toBe(3);
    a.leave();
    c.leave();
    expect([...inFlight]).toEqual(['b']);
    expect(inFlight.size).toBe(1);
  });

  it('counts an entry that leaves twice once', () => {
    const inFlight = new InFlight<number>();
    const one = inFlight.add(1);
    inFlight.add(2);
    one.leave();
    one.leave();
    expect(inFlight.size).toBe(1);
    expect([...inFlight]).toEqual([2]);
  });

  it('lets entries leave while it is walked, and walks each that was there once', () => {
    const inFlight = new InFlight<number>();
    const entries = [1, 2, 3, 4].map((n) => inFlight.add(n));
    const seen: number[] = [];
    for (const n of inFlight) {
      seen.push(n);
      // Stopping one often ends it, and its neighbour with it.
      entries[n - 1]!.leave();
      if (n === 2) entries[2]!.leave();
    }
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(inFlight.size).toBe(0);
    expect([...inFlight]).toEqual([]);
    inFlight.add(5);
    expect([...inFlight]).toEqual([5]);
  });

  it('holds a promise added until it settles, fulfilled or rejected', async () => {
    const inFlight = new InFlight<Promise<unknown>>();
    let resolve!: () => void;
    const pending = new Promise<void>((r) => (resolve = r));
    const failing = Promise.reject(new Error('down'));
    inFlight.addUntilSettled(pending);
    inFlight.addUntilSettled(failing);
    expect([...inFlight]).toEqual([pending, failing]);
    await expect(failing).rejects.toThrow('down');
    expect([...inFlight]).toEqual([pending]);
    resolve();
    await pending;
    expect(inFlight.size).toBe(0);
  });

  it('leaves nothing behind for the young generation to promote, where a long-lived Set does', () => {
    // 5,000 entries of some 600 bytes each: a Set whose table is old keeps each one it held when
    // it was replaced, and young collections promote them (about 1.5 MB here); the ring promotes
    // nothing it was given.
    const fromSet = promoted('set');
    const fromInFlight = promoted('in-flight');
    expect(fromSet).toBeGreaterThan(1024 * 1024);
    expect(fromInFlight).toBeLessThan(256 * 1024);
  }, 60_000);
});
