import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('../fixtures/pretenuring-child.ts', import.meta.url));

interface Churn {
  oldGrowthMb: number;
  fullCollections: number;
}

/**
 * Short-lived objects from a site V8 has seen live long, in a fresh process. Its young generation
 * is kept small (1 MB) so that it is at its largest from the start, which V8 requires before it
 * pretenures: the BFF's reaches its largest under load.
 */
function churn(mode: 'default' | 'off'): Churn {
  const out = execFileSync(process.execPath, ['--max-semi-space-size=1', '--import', 'tsx', child, mode], { encoding: 'utf8' });
  return JSON.parse(out) as Churn;
}

describe('allocation-site pretenuring (server/pretenuring.ts)', () => {
  it('left on, V8 puts objects that die at once straight in the old generation once their site was seen to live long', () => {
    // The harm the setting removes: measured at 29-68 MB and 1-10 full collections.
    const own = churn('default');
    expect(own.oldGrowthMb).toBeGreaterThan(20);
    expect(own.fullCollections).toBeGreaterThan(0);
  }, 60_000);

  it('turned off, they start young and die there: the old generation barely grows and no full collection runs', () => {
    // Measured at 0.2-0.8 MB: what the young collections promote of the last few alive.
    const off = churn('off');
    expect(off.oldGrowthMb).toBeLessThan(5);
    expect(off.fullCollections).toBe(0);
  }, 60_000);
});
