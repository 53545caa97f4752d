import { describe, expect, it } from 'vitest';
import { checkTargets, median, type ScenarioResult } from '../../bench/lib/report.js';
import { scenarioResult } from '../helpers/bench-results.js';

function run(key: 'floor' | 'categories', requestsPerSecond: number, pair?: number): ScenarioResult {
  return scenarioResult({
    key,
    label: key,
    target: key === 'floor' ? 'floor' : 'bff',
    backendLatencyMs: 0,
    responses: requestsPerSecond * 10,
    requestsPerSecond,
    callsPerRequest: {},
    expectedCalls: key === 'floor' ? null : {},
    callsAsExpected: key === 'floor' ? null : true,
    serverCpuCores: 0.97,
    serverCpuUsPerRequest: 1e6 / requestsPerSecond,
    ...(pair !== undefined ? { pair } : {}),
  });
}

const categoriesTarget = (results: ScenarioResult[]) =>
  checkTargets(results, { load: 50, probe: 4 }, null, 120).find((check) => check.goal.startsWith('warm categories >= 60%'))!;

describe('bench targets: warm categories against the floor', () => {
  it('judges the median of the interleaved pairs, each categories run against the floor run of its own pair', () => {
    // Pair ratios 50%, 65%, 62%: one disturbed pair neither fails nor passes the run alone.
    const results = [run('floor', 70_000), run('categories', 35_000), run('floor', 60_000, 2), run('categories', 39_000, 2), run('floor', 50_000, 3), run('categories', 31_000, 3)];
    const check = categoriesTarget(results);
    expect(check.met).toBe(true);
    expect(check.goal).toContain('median of 3 interleaved pairs');
    expect(check.measured).toMatch(/^median 62%; pairs in order: 35000 \/ 70000 req\/s = 50% .*39000 \/ 60000 req\/s = 65% .*31000 \/ 50000 req\/s = 62%/);
  });

  it('misses when the median pair is under 60%, however good one pair was', () => {
    const results = [run('floor', 70_000), run('categories', 49_000), run('floor', 70_000, 2), run('categories', 38_500, 2), run('floor', 70_000, 3), run('categories', 40_600, 3)];
    const check = categoriesTarget(results);
    expect(check.met).toBe(false);
    expect(check.measured).toMatch(/^median 58%/);
  });

  it('with one pair (a quick run), judges that pair as before', () => {
    const check = categoriesTarget([run('floor', 70_000), run('categories', 42_700)]);
    expect(check).toMatchObject({ met: true, goal: "warm categories >= 60% of the bare node:http floor's req/s in the same run, backend 0 ms" });
    expect(check.measured).toMatch(/^42700 \/ 70000 req\/s = 61% \(by CPU, not judged: 14 \/ 23 µs = 61%\)$/);
  });

  it('median of an odd and of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
