import { median, type ScenarioResult } from './report.js';

/**
 * Comparisons between servers, made interleaved: the same row on each server in turn, for
 * several rounds, each round in the other order from the round before, so a drift of the
 * machine's speed, or going first after another server's load, falls on both alike. A ratio is
 * taken within each round (the two runs a few seconds apart), and the median of the rounds' ratios
 * is what is reported.
 */

/** Runs `run` for every side in every round, alternating the order; the results by side, in round order. */
export async function interleave<S, R>(sides: readonly S[], rounds: number, run: (side: S, round: number) => Promise<R>): Promise<R[][]> {
  const out: R[][] = sides.map(() => []);
  for (let round = 1; round <= rounds; round++) {
    const order = sides.map((_, i) => i);
    if (round % 2 === 0) order.reverse();
    for (const i of order) out[i]!.push(await run(sides[i]!, round));
  }
  return out;
}

/** One side's figures over its rounds: the median of each. */
export interface SideFigures {
  cpuUsPerRequest: number;
  requestsPerSecond: number;
  p50Ms: number;
  peakRssMb: number;
  rounds: number;
}

export function figuresOf(runs: readonly ScenarioResult[]): SideFigures {
  return {
    cpuUsPerRequest: median(runs.map((r) => r.serverCpuUsPerRequest)),
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.latencyMs.p50)),
    peakRssMb: Math.max(...runs.map((r) => r.serverPeakRssMb)),
    rounds: runs.length,
  };
}

/** `after` against `before`, round by round (the runs of one round side by side), then the median. */
export function ratiosOf(before: readonly ScenarioResult[], after: readonly ScenarioResult[]): { cpu: number; requestsPerSecond: number } {
  const rounds = Math.min(before.length, after.length);
  const each = (f: (r: ScenarioResult) => number) => median(Array.from({ length: rounds }, (_, i) => f(after[i]!) / f(before[i]!)));
  return { cpu: each((r) => r.serverCpuUsPerRequest), requestsPerSecond: each((r) => r.requestsPerSecond) };
}
