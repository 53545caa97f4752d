import { setTimeout as sleep } from 'node:timers/promises';
import { backendWorkUnderWayIn, metricsOf } from './bff-metrics.js';
import type { Service } from './children.js';
import type { CallCounts, EmulatorAdmin } from './emulator-admin.js';
import { fire, keepingFirstWrong } from './load.js';
import { cpuMeter, peakRssMb, resetPeakRss } from './proc-stats.js';
import type { ScenarioResult } from './report.js';
import { isBff, type Scenario } from './scenarios.js';
import { withoutDirectoryRefreshes } from './verdict.js';

/** One scenario's measured run against one server: how every row of every part is measured. */

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** What a measured run needs besides the scenario: the backend it counts calls on. */
export interface Bench {
  admin: EmulatorAdmin;
  /**
   * How often a BFF's category directory reads the backend again with a partner's token in use:
   * its CATEGORY_TTL_MS, or sooner, when it checks that token again.
   */
  directoryTtlMs: number;
}

/** How a run goes: connections, and the seconds of its warm-up and of its measured window. */
export interface RunShape {
  backendLatencyMs: number;
  connections: number;
  warmupSeconds: number;
  measureSeconds: number;
}

/**
 * Waits until requests cut off by a run have drained: the emulator's call counters the same over
 * `stableMs` and, when `bff` is given, none of its requests with backend work under way or waiting
 * for it. A quiet backend alone is not enough: a saturated BFF can spend longer than `stableMs`
 * finishing cut-off lists without a call, then admit one that waited, which calls before it hears
 * that its client has gone.
 */
export async function quiesce(admin: EmulatorAdmin, bff?: Service, stableMs = 150): Promise<void> {
  const snapshot = async () => ({ calls: JSON.stringify(await admin.calls()), underWay: bff ? backendWorkUnderWayIn(await metricsOf(bff)) : 0 });
  let previous = await snapshot();
  let stableSince = performance.now();
  const deadline = stableSince + 5000;
  while (performance.now() < deadline) {
    await sleep(50);
    const now = await snapshot();
    if (now.calls !== previous.calls || now.underWay !== previous.underWay) {
      previous = now;
      stableSince = performance.now();
    } else if (now.underWay === 0 && performance.now() - stableSince >= stableMs) {
      return;
    }
  }
  log(`warning: backend calls still moving after 5 s${bff ? ` (or the BFF still has backend work under way: ${previous.underWay} requests)` : ''}; the next counts may include cut-off requests`);
}

function perRequest(calls: CallCounts, responses: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [operation, count] of Object.entries(calls)) if (count > 0) out[operation] = responses > 0 ? count / responses : count;
  return out;
}

function sameCalls(actual: Record<string, number>, expected: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  for (const key of keys) if (Math.abs((actual[key] ?? 0) - (expected[key] ?? 0)) > 1e-9) return false;
  return true;
}

/** Hooks around the measured window, for a part that watches it (a CPU profile). */
export interface WindowHooks {
  /** Right before the first measured request. */
  opened?(): Promise<void>;
  /** Right after the last answer, before anything else is read. */
  closed?(): Promise<void>;
}

/**
 * A warm-up by duration (JIT, caches, keep-alive pools; it also tells the rate), the counters
 * settled, then a fixed number of requests (rate × measureSeconds): the run ends when the last
 * answer is in, so no request is cut off and the backend counters divide exactly.
 */
export async function measure(bench: Bench, target: Service, scenario: Scenario, shape: RunShape, hooks: WindowHooks = {}): Promise<ScenarioResult> {
  const { admin } = bench;
  const { backendLatencyMs, connections, measureSeconds } = shape;
  const url = target.origin;
  const check = keepingFirstWrong(scenario.verify);
  const hardStopMs = measureSeconds * 3000 + 10_000;

  const warm = await fire({ url, connections, requests: scenario.requests, durationSeconds: shape.warmupSeconds, hardStopMs });
  const bffUnderTest = isBff(scenario.target) ? target : undefined;
  await quiesce(admin, bffUnderTest);

  await admin.resetCalls();
  const windowStartedAt = Date.now();
  const peakScoped = resetPeakRss(target.pid);
  await hooks.opened?.();
  const cpu = cpuMeter(target.pid);
  const amount = Math.max(connections, Math.round(warm.requestsPerSecond * measureSeconds));
  const load = await fire({ url, connections, requests: scenario.requests, verify: check.verify, amount, hardStopMs });
  const cpuUse = cpu.stop();
  await hooks.closed?.();
  const serverPeakRssMb = peakRssMb(target.pid);
  await quiesce(admin, bffUnderTest);
  const expected = scenario.expectedCalls ?? null;
  const calls = await admin.calls();
  const counted = bffUnderTest ? withoutDirectoryRefreshes(calls, expected, Date.now() - windowStartedAt, bench.directoryTtlMs) : { calls, refreshes: 0 };
  const callsPerRequest = perRequest(counted.calls, load.responses);
  const sampleFailure = check.firstWrong();
  const result: ScenarioResult = {
    key: scenario.key,
    label: scenario.label,
    target: scenario.target,
    backendLatencyMs,
    connections,
    ...load,
    callsPerRequest,
    expectedCalls: expected,
    callsAsExpected: expected ? sameCalls(callsPerRequest, expected) && !load.stoppedEarly : null,
    serverCpuCores: cpuUse.cores,
    serverCpuUsPerRequest: load.responses > 0 ? (cpuUse.cpuSeconds * 1e6) / load.responses : 0,
    serverPeakRssMb,
    peakRssPerScenario: peakScoped,
    ...(counted.refreshes > 0 ? { directoryRefreshes: counted.refreshes } : {}),
    ...(sampleFailure !== undefined ? { sampleFailure } : {}),
  };
  log(
    `${result.label} @${backendLatencyMs} ms, ${connections}c: ${Math.round(load.requestsPerSecond)} req/s, p50 ${load.latencyMs.p50} ms, ` +
      `${load.responses} responses in ${load.seconds.toFixed(1)} s, CPU ${Math.round(cpuUse.cores * 100)}%, ${Math.round(result.serverCpuUsPerRequest)} µs/req` +
      (counted.refreshes > 0 ? `, ${counted.refreshes} refresh(es) of the category directory (CATEGORY_TTL_MS, or a token check) set apart from the calls` : '') +
      (sampleFailure !== undefined ? `\n        first wrong answer: ${sampleFailure}` : ''),
  );
  return result;
}
