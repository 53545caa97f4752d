import { setTimeout as sleep } from 'node:timers/promises';
import type { Service } from './children.js';
import type { EmulatorAdmin } from './emulator-admin.js';
import { fire, keepingFirstWrong } from './load.js';
import { log, quiesce } from './measure.js';
import type { Profile } from './options.js';
import { peakRssMb, resetPeakRss, rssMb } from './proc-stats.js';
import { median, type MemoryCheck } from './report.js';
import type { Scenario } from './scenarios.js';

/** The memory part: the BFF's peak RSS under load, and whether it grows. */

/** How close to its RSS at rest the BFF must be before the memory check starts. */
const SETTLED_WITHIN = 0.15;
/**
 * How long the memory check waits for that before it starts anyway (and says so): past the
 * time the memory reducer's watchdog takes to act (below), with several of the reducer's looks
 * to spare.
 */
const SETTLE_BOUND_MS = 150_000;

/**
 * Waits, without load, until the BFF is back within SETTLED_WITHIN of its RSS at rest: the parts
 * before the memory check (the app feed and the partner list at 200 connections) leave a larger
 * heap, which V8 gives back on its own once the process is idle (its memory reducer). On Node 24
 * the reducer's check of the allocation rate never finds an idle process's rate low, so it is
 * the reducer's watchdog that collects and releases the heap, once no collection has run for
 * its own long while: the memory comes back well after the load ends, not within the wait's
 * first seconds (docs/adr/node-24-memory.md). Without this wait the check's peak would be the
 * earlier load's, not that of its own connections. How much was carried in and how long it took
 * to give back are reported; past SETTLE_BOUND_MS the check starts anyway, and its peak then
 * includes it.
 */
async function settleRss(pid: number, restMb: number): Promise<MemoryCheck['settle']> {
  const carriedInMb = rssMb(pid);
  const started = performance.now();
  let nowMb = carriedInMb;
  while (nowMb > restMb * (1 + SETTLED_WITHIN) && performance.now() - started < SETTLE_BOUND_MS) {
    await sleep(1000);
    nowMb = rssMb(pid);
  }
  return {
    carriedInMb,
    restMb,
    withinPercent: SETTLED_WITHIN * 100,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    settled: nowMb <= restMb * (1 + SETTLED_WITHIN),
  };
}

/**
 * List cards at 0 ms for a minute, RSS sampled every second, started from the BFF back near its
 * RSS at rest: the peak, and the growth between the first and the last window.
 */
export async function memoryCheck(bff: Service, admin: EmulatorAdmin, scenario: Scenario, profile: Profile, restMb: number): Promise<MemoryCheck> {
  const pid = bff.pid;
  await quiesce(admin, bff);
  const settle = await settleRss(pid, restMb);
  if (!settle.settled) log(`memory check: the BFF still holds ${rssMb(pid).toFixed(1)} MB after ${settle.seconds} s idle (at rest ${restMb.toFixed(1)} MB); starting anyway, so its peak includes what earlier parts left`);
  const idleBeforeMb = rssMb(pid);
  resetPeakRss(pid);
  const samplesMb: number[] = [];
  const sampler = setInterval(() => samplesMb.push(rssMb(pid)), 1000);
  const check = keepingFirstWrong(scenario.verify);
  const load = await fire({
    url: bff.origin,
    connections: profile.memoryConnections,
    requests: scenario.requests,
    verify: check.verify,
    durationSeconds: profile.memorySeconds,
    hardStopMs: profile.memorySeconds * 1000 + 30_000,
  });
  clearInterval(sampler);
  const peakMb = peakRssMb(pid);
  await quiesce(admin, bff);
  await sleep(1000);
  const window = (from: number) => {
    const slice = samplesMb.slice(Math.max(0, from), Math.max(0, from) + profile.memoryWindowSeconds);
    return slice.length ? slice : [samplesMb.at(-1) ?? idleBeforeMb];
  };
  const first = window(profile.memoryWarmSeconds);
  const last = window(samplesMb.length - profile.memoryWindowSeconds);
  const startMb = median(first);
  const endMb = median(last);
  const troughStartMb = Math.min(...first);
  const troughEndMb = Math.min(...last);
  const sampleFailure = check.firstWrong();
  return {
    scenario: scenario.label,
    backendLatencyMs: 0,
    connections: profile.memoryConnections,
    seconds: profile.memorySeconds,
    settle,
    idleBeforeMb,
    startMb,
    warmSeconds: profile.memoryWarmSeconds,
    windowSeconds: profile.memoryWindowSeconds,
    peakMb,
    endMb,
    idleAfterMb: rssMb(pid),
    growthPercent: ((endMb - startMb) / startMb) * 100,
    troughStartMb,
    troughEndMb,
    troughGrowthPercent: ((troughEndMb - troughStartMb) / troughStartMb) * 100,
    samplesMb: samplesMb.map((n) => Math.round(n * 10) / 10),
    load,
    ...(sampleFailure !== undefined ? { sampleFailure } : {}),
  };
}
