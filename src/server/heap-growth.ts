import { setFlagsFromString } from 'node:v8';

/**
 * How much V8 lets the old generation grow between full collections.
 *
 * V8 sets the next full collection at the live size times a factor. The factor is picked so that
 * collection takes about 3% of the time, and it may reach 4. When a request outlives a young
 * collection, its state is promoted, and under load the BFF promotes a great deal. V8 then picks
 * 4, so the heap grows to four times its live size before each full collection.
 *
 * With a factor of 2 (100%) the peak is far lower, and full collections run about twice as often.
 * Unlike `--max-old-space-size` this is no cap: the limit follows the live size, so a process
 * holding more live data legitimately gets a larger heap instead of "heap out of memory".
 * docs/adr/heap-growth.md has the measurements.
 *
 * V8 reads the flag each time it sets a new limit, so setting it at start-up is enough. 0 leaves
 * V8's own choice.
 */
export function applyHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`applyHeapGrowth: need a whole number of percent >= 0, got ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
