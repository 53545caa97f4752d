import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, type Service } from '../lib/children.js';
import { PROFILE_DIR } from '../lib/cpu-profile.js';
import { log, measure, type Bench, type RunShape } from '../lib/measure.js';
import type { ScenarioResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenarios.js';
import { alignedTable } from '../lib/text-table.js';
import { ROWS, splitByStage, type Row } from './attribution.js';
import { connectProfiler, type CpuProfile } from './inspector.js';

/**
 * The warm query's CPU per request by stage: the scenario run once more on a BFF of its own,
 * started like the one under test plus an inspector on a loopback port, with V8's sampling
 * profiler on for the measured window only. The split is of the main thread's sampled time,
 * divided by the window's answers; beside it, the process's CPU per request from /proc over the
 * same window (every thread: V8's helpers, and the profiler's own sampling).
 */

/** One sample every this many microseconds: often enough that each stage of a window gets many. */
const SAMPLING_INTERVAL_US = 200;

export interface StagesResult {
  /** Which build: `working tree`, or the commit under `--compare`. */
  build: string;
  scenario: string;
  backendLatencyMs: number;
  connections: number;
  responses: number;
  samplingIntervalUs: number;
  /** The process's CPU per request over the window (/proc, every thread). */
  cpuUsPerRequest: number;
  /** The main thread's sampled busy time per request: what the rows split. */
  sampledUsPerRequest: number;
  rows: { stage: Row; usPerRequest: number; share: number; systemCallUsPerRequest: number }[];
  /** What "other" was, largest first. */
  other: { what: string; usPerRequest: number }[];
  /** The profile, for Chrome DevTools or speedscope. */
  profileFile: string;
}

export interface StagesRun {
  build: string;
  /** Starts a BFF like the one under test, with these node options added. */
  start(nodeArgs: string[]): Promise<Service>;
  /** Brings a fresh BFF to the state the scenario expects (the warm answer remembered). */
  warm(bff: Service): Promise<void>;
}

/** Measures `scenario` on a profiled BFF of its own, then stops it. */
export async function measureStages(bench: Bench, run: StagesRun, scenario: Scenario, shape: RunShape): Promise<{ row: ScenarioResult; stages: StagesResult }> {
  const inspectorPort = await freePort();
  const bff = await run.start([`--inspect=127.0.0.1:${inspectorPort}`]);
  try {
    await run.warm(bff);
    const session = await connectProfiler(inspectorPort);
    let profile: CpuProfile | undefined;
    const labelled = { ...scenario, key: `${scenario.key}-profiled`, label: `${scenario.label}, CPU profile of the load window (${run.build})` };
    const row = await measure(bench, bff, labelled, shape, {
      opened: () => session.start(SAMPLING_INTERVAL_US),
      closed: async () => {
        profile = await session.stop();
      },
    });
    session.close();
    mkdirSync(PROFILE_DIR, { recursive: true });
    const profileFile = join(PROFILE_DIR, `${scenario.key}-${run.build.replace(/\W+/g, '-')}-${Date.now()}.cpuprofile`);
    writeFileSync(profileFile, JSON.stringify(profile));
    const stages = stagesOf(profile!, row, run.build, profileFile);
    log(`stages of ${scenario.label} (${run.build}): ${stages.rows.map((r) => `${r.stage} ${r.usPerRequest.toFixed(1)}`).join(', ')} µs/req`);
    return { row, stages };
  } finally {
    await bff.stop();
  }
}

function stagesOf(profile: CpuProfile, row: ScenarioResult, build: string, profileFile: string): StagesResult {
  const split = splitByStage(profile);
  const per = (us: number) => (row.responses > 0 ? us / row.responses : 0);
  return {
    build,
    scenario: row.label,
    backendLatencyMs: row.backendLatencyMs,
    connections: row.connections,
    responses: row.responses,
    samplingIntervalUs: SAMPLING_INTERVAL_US,
    cpuUsPerRequest: row.serverCpuUsPerRequest,
    sampledUsPerRequest: per(split.busyUs),
    rows: ROWS.map((stage) => ({
      stage,
      usPerRequest: per(split.byStage[stage]),
      share: split.busyUs > 0 ? split.byStage[stage] / split.busyUs : 0,
      systemCallUsPerRequest: per(split.systemCalls[stage]),
    })),
    other: split.otherParts.slice(0, 8).map((o) => ({ what: o.what, usPerRequest: per(o.us) })),
    profileFile,
  };
}

const us = (n: number) => n.toFixed(1);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

/** The stage table of one build, or of two side by side (`--compare`: the commit, then the working tree). */
export function formatStages(results: StagesResult[]): string {
  const [first] = results;
  if (!first) return 'stages not measured';
  const header = ['stage', ...results.flatMap((r) => (results.length > 1 ? [`µs/req ${r.build}`, 'share'] : ['µs per request', 'share', 'of which write system calls']))];
  const rows = ROWS.map((stage) => [
    stage,
    ...results.flatMap((r) => {
      const row = r.rows.find((x) => x.stage === stage)!;
      return results.length > 1 ? [us(row.usPerRequest), pct(row.share)] : [us(row.usPerRequest), pct(row.share), row.systemCallUsPerRequest > 0.05 ? us(row.systemCallUsPerRequest) : ''];
    }),
  ]);
  rows.push(['main thread, sampled', ...results.flatMap((r) => (results.length > 1 ? [us(r.sampledUsPerRequest), '100%'] : [us(r.sampledUsPerRequest), '100%', '']))]);
  rows.push(['process CPU (/proc, all threads)', ...results.flatMap((r) => (results.length > 1 ? [us(r.cpuUsPerRequest), ''] : [us(r.cpuUsPerRequest), '', '']))]);
  return [
    `${first.scenario.replace(/, CPU profile.*$/, '')}: CPU per request by stage, from a CPU profile of the load window ` +
      `(one sample every ${first.samplingIntervalUs} µs; backend ${first.backendLatencyMs} ms, ${first.connections} connections; ` +
      `${results.map((r) => `${r.build}: ${r.responses} answers`).join(', ')})`,
    alignedTable(header, rows),
    ...results.map((r) => `other (${r.build}): ${r.other.map((o) => `${o.what} ${us(o.usPerRequest)}`).join('; ')}`),
    `profiles: ${results.map((r) => r.profileFile).join(', ')}`,
  ].join('\n');
}
