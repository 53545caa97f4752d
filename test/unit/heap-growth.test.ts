import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyHeapGrowth } from '../../src/server/heap-growth.js';
import { startCommand } from '../helpers/start-command.js';

const child = fileURLToPath(new URL('../fixtures/heap-growth-child.ts', import.meta.url));

/**
 * The largest old space over what a full collection keeps, in a fresh process with the setting
 * and the start command's node options (the young generation's size changes what is promoted).
 */
function growth(percent: number): number {
  const out = execFileSync(process.execPath, [...startCommand().nodeOptions, '--expose-gc', '--import', 'tsx', child, String(percent)], { encoding: 'utf8' });
  return (JSON.parse(out) as { ratio: number }).ratio;
}

describe('heap growth (HEAP_GROWTH_PERCENT)', () => {
  it('at 100% the old generation grows about half as far past its live size as V8 alone lets it', () => {
    // Live during the churn: the fixed 30 MB and the 30 MB of batches in flight, so a factor of 2
    // shows as about 4 here, and V8's own choice (up to 4) as about 8.
    const bounded = growth(100);
    const own = growth(0);
    expect(bounded).toBeLessThan(5);
    expect(own / bounded).toBeGreaterThan(1.5);
  }, 60_000);

  it('refuses a setting that is not a whole number of percent', () => {
    expect(() => applyHeapGrowth(-1)).toThrow('need a whole number of percent >= 0, got -1');
    expect(() => applyHeapGrowth(1.5)).toThrow('got 1.5');
  });
});
