import { describe, expect, it } from 'vitest';
import { interleave, ratiosOf } from '../../bench/lib/interleave.js';
import { roundOrder } from '../../bench/lib/rows.js';
import { scenarioResult } from '../helpers/bench-results.js';

describe('comparisons made interleaved', () => {
  it('runs every side each round, each round in the other order from the one before', async () => {
    const order: string[] = [];
    const results = await interleave(['base', 'now'], 3, async (side, round) => {
      order.push(`${side}${round}`);
      return `${side}${round}`;
    });
    expect(order).toEqual(['base1', 'now1', 'now2', 'base2', 'base3', 'now3']);
    expect(results).toEqual([
      ['base1', 'base2', 'base3'],
      ['now1', 'now2', 'now3'],
    ]);
    expect(roundOrder(2, ['floor', 'categories', 'mercurius'])).toEqual(['mercurius', 'categories', 'floor']);
    expect(roundOrder(3, ['floor', 'categories', 'mercurius'])).toEqual(['floor', 'categories', 'mercurius']);
  });

  it("takes the median of the rounds' ratios, each round's two runs side by side", () => {
    const runs = (cpu: number[]) => cpu.map((us) => scenarioResult({ serverCpuUsPerRequest: us, requestsPerSecond: 1e6 / us }));
    // A slow round for both does not move the ratio; a median of each side alone would mix rounds.
    const ratio = ratiosOf(runs([50, 100, 52]), runs([40, 80, 52]));
    expect(ratio.cpu).toBeCloseTo(0.8);
    expect(ratio.requestsPerSecond).toBeCloseTo(1.25);
  });
});
