import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../../bench/lib/report.js';
import { LIST_CALLS, scenarioResult } from '../helpers/bench-results.js';
import { formatRejection, withoutDirectoryRefreshes, wrongScenarios, type RunAnswers } from '../../bench/lib/verdict.js';

const row = scenarioResult;

const run = (results: ScenarioResult[]): RunAnswers => ({ results, memory: null, feedLoad: null, stampede: null, fleet: null, live: null });

describe('bench verdict: a run is reported only when every answer was right', () => {
  it('accepts a run whose answers were right and whose backend calls were minimal', () => {
    const floor = row({ key: 'floor', label: 'floor (bare node:http)', target: 'floor', callsPerRequest: {}, expectedCalls: null, callsAsExpected: null });
    expect(wrongScenarios(run([floor, row({}), row({ connections: 4, label: 'list cards (50), 4 conns' })]))).toEqual([]);
  });

  it('rejects wrong bodies and calls above the minimum, naming each scenario and its first wrong body', () => {
    const wrongBody = row({ key: 'categories', label: 'categories (warm)', mismatches: 3, sampleFailure: '{"errors":[{"message":"boom"}]}' });
    const tooManyCalls = row({ backendLatencyMs: 0, callsPerRequest: { ...LIST_CALLS, 'campaigns/get': 51 }, callsAsExpected: false });
    const wrong = wrongScenarios(run([row({}), wrongBody, tooManyCalls]));
    expect(wrong).toEqual([
      { scenario: 'categories (warm)', backendLatencyMs: 10, connections: 50, problems: ['3 wrong bodies'], firstWrongBody: '{"errors":[{"message":"boom"}]}' },
      {
        scenario: 'list cards (50)',
        backendLatencyMs: 0,
        connections: 50,
        problems: ['backend calls per request get-all-campaigns 1 + get 51, minimal get-all-campaigns 1 + get 50'],
        firstWrongBody: null,
      },
    ]);
    const printed = formatRejection(wrong, 'bench/results/rejected.json');
    expect(printed).toMatch(/^RUN REJECTED: 2 scenario/);
    expect(printed).toContain('categories (warm) @10 ms, 50 conns: 3 wrong bodies');
    expect(printed).toContain('first wrong body: {"errors":[{"message":"boom"}]}');
  });
});

describe("the category directory's refreshes in a measured window", () => {
  const TTL = 300_000;
  const CATEGORIES = { 'categories/get': 0 };

  it('are set apart from the calls of a scenario that expects none of them, one per TTL spanned at most', () => {
    const calls = { 'campaigns/create': 3000, 'categories/get': 1 };
    expect(withoutDirectoryRefreshes(calls, { 'campaigns/create': 1 }, 10_000, TTL)).toEqual({ calls: { 'campaigns/create': 3000 }, refreshes: 1 });
    // Two in a window shorter than the TTL cannot both be refreshes: they stay, and fail the scenario.
    expect(withoutDirectoryRefreshes({ ...calls, 'categories/get': 2 }, { 'campaigns/create': 1 }, 10_000, TTL)).toEqual({ calls: { ...calls, 'categories/get': 2 }, refreshes: 0 });
    expect(withoutDirectoryRefreshes({ ...calls, 'categories/get': 2 }, { 'campaigns/create': 1 }, TTL + 1, TTL).refreshes).toBe(2);
  });

  it('are left in the counts where the scenario expects that call itself, or checks none', () => {
    const calls = { 'categories/get': 1 };
    expect(withoutDirectoryRefreshes(calls, { ...CATEGORIES, 'categories/get': 1 }, 10_000, TTL)).toEqual({ calls, refreshes: 0 });
    expect(withoutDirectoryRefreshes(calls, null, 10_000, TTL)).toEqual({ calls, refreshes: 0 });
    expect(withoutDirectoryRefreshes({ 'campaigns/get': 5 }, {}, 10_000, TTL)).toEqual({ calls: { 'campaigns/get': 5 }, refreshes: 0 });
  });
});
