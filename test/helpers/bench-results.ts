import type { ScenarioResult } from '../../bench/lib/report.js';

export const LIST_CALLS = { 'campaigns/get-all-campaigns': 1, 'campaigns/get': 50 };

/** A bench row for the verdict and target tests: a right list-cards run at 10 ms unless told otherwise. */
export function scenarioResult(overrides: Partial<ScenarioResult>): ScenarioResult {
  return {
    key: 'list-cards',
    label: 'list cards (50)',
    target: 'bff',
    backendLatencyMs: 10,
    connections: 50,
    responses: 500,
    seconds: 10,
    requestsPerSecond: 50,
    latencyMs: { p50: 20, p97_5: 30, p99: 35, mean: 21, max: 40 },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    mismatches: 0,
    stoppedEarly: false,
    callsPerRequest: LIST_CALLS,
    expectedCalls: LIST_CALLS,
    callsAsExpected: true,
    serverCpuCores: 0.8,
    serverCpuUsPerRequest: 8000,
    serverPeakRssMb: 180,
    peakRssPerScenario: true,
    ...overrides,
  };
}
