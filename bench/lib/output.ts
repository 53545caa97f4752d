import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { BffEnvironment } from './bff.js';
import type { StampedeResult } from './feed.js';
import { feedTargets, formatFeedLoad, type FeedLoadRow } from './feed-load.js';
import type { FleetResult } from './fleet.js';
import type { MachineInfo, TreeInfo } from './machine.js';
import type { Profile } from './options.js';
import { REPO_ROOT } from './product.js';
import { checkTargets, formatMemory, formatTable, formatTargets, type MemoryCheck, type ScenarioResult } from './report.js';
import { PROBE_CONNECTIONS } from './rows.js';
import { formatSubscriptions, type SubscriptionsResult } from './subscriptions.js';
import { formatRejection, wrongScenarios } from './verdict.js';
import { formatHive, type HiveResult } from '../hive/hive.js';
import { formatStages, type StagesResult } from '../stages/stages.js';

/** What a default run writes and prints: the report, or the rejection. */

/** Relative to the repository root; both kept out of git (.gitignore): figures belong to one machine. */
export const LATEST_FILE = 'bench/results/latest.json';
/** Instead of latest.json, for a run whose answers were wrong. */
export const REJECTED_FILE = 'bench/results/rejected.json';

export interface RunFigures {
  profile: Profile;
  machine: MachineInfo;
  tree: TreeInfo | null;
  started: number;
  pinned: boolean;
  bffEnv: BffEnvironment;
  traceSinkStats: unknown;
  results: ScenarioResult[];
  rssAtRestMb: number;
  memory: MemoryCheck | null;
  feedLoad: FeedLoadRow[] | null;
  stampede: StampedeResult | null;
  fleet: FleetResult | null;
  live: SubscriptionsResult | null;
  stages: StagesResult | null;
  hive: HiveResult | null;
}

/** Writes latest.json and prints the table, or writes rejected.json and prints why; true when accepted. */
export function report(run: RunFigures): boolean {
  const { profile, machine, tree, results, memory, feedLoad, stampede, fleet, live } = run;
  const wrong = wrongScenarios({ results: [...results, ...(run.hive?.rows ?? [])], memory, feedLoad, stampede, fleet, live });
  const context = {
    version: 1,
    startedAt: new Date(run.started).toISOString(),
    seconds: Math.round((Date.now() - run.started) / 100) / 10,
    machine,
    tree,
    loadAverageAtEnd: os.loadavg().map((n) => Math.round(n * 100) / 100),
    pinned: run.pinned ? { bff: 0, floor: 0, floorLine: 0, stockApollo: 0, mercurius: 0, restFloor: 0, hive: 0, emulator: 1, driver: 1 } : null,
    profile: { ...profile, parts: [...profile.parts] },
    bff: { env: run.bffEnv.env, inheritedSettings: run.bffEnv.inherited, nodeArgs: profile.bffNodeArgs, backendConnections: run.bffEnv.backendConnections },
  };
  mkdirSync(`${REPO_ROOT}bench/results`, { recursive: true });
  if (wrong.length > 0) {
    // Figures measured on wrong answers are not the BFF's: none is printed or kept as a result.
    writeFileSync(`${REPO_ROOT}${REJECTED_FILE}`, `${JSON.stringify({ ...context, rejected: wrong }, null, 2)}\n`);
    process.stdout.write(`\n${formatRejection(wrong, REJECTED_FILE)}\n`);
    return false;
  }
  rmSync(`${REPO_ROOT}${REJECTED_FILE}`, { force: true });
  const targets = [
    ...checkTargets(results, { load: profile.connections, probe: PROBE_CONNECTIONS }, memory, run.rssAtRestMb),
    ...feedTargets(results, profile.connections, feedLoad, stampede, fleet),
  ];
  const written = {
    ...context,
    traceSink: run.traceSinkStats,
    results,
    rss: { atRestMb: run.rssAtRestMb, idleAfterMemoryCheckMb: memory?.idleAfterMb ?? null },
    memory,
    subscriptions: live,
    feed: { load: feedLoad, stampede, fleet },
    stages: run.stages,
    hive: run.hive,
    targets,
  };
  writeFileSync(`${REPO_ROOT}${LATEST_FILE}`, `${JSON.stringify(written, null, 2)}\n`);
  const ordered = [...results].sort((a, b) => a.backendLatencyMs - b.backendLatencyMs);
  const settings = run.bffEnv.inherited;
  process.stdout.write(
    [
      '',
      `${profile.quick ? 'Quick' : 'Full'} bench, ${machine.cores} cores ${machine.cpuModel}, Node ${machine.node}, ` +
        `load average at start ${machine.loadAverage.join(' ')}, at end ${context.loadAverageAtEnd.join(' ')}${run.pinned ? '; BFF and reference servers on core 0, emulator and driver on core 1' : ''}`,
      ...(Object.keys(settings).length ? [`BFF settings from the environment: ${JSON.stringify(settings)}`] : []),
      ...(profile.bffNodeArgs.length ? [`BFF node options: ${profile.bffNodeArgs.join(' ')}`] : []),
      tree ? `tree: ${tree.commit}${tree.changed.length ? ` with ${tree.changed.length} changed files (${tree.changed.join(', ')})` : ', clean'}` : 'tree: not a git checkout',
      '',
      ...(ordered.length ? [formatTable(ordered), ''] : []),
      ...(run.stages ? [formatStages([run.stages]), ''] : []),
      ...(run.hive ? [formatHive(run.hive), ''] : []),
      memory ? formatMemory(memory) : 'memory check not run',
      '',
      live ? formatSubscriptions(live) : 'live status scenario not run',
      '',
      ...(feedLoad ? [formatFeedLoad(feedLoad), ''] : []),
      ...(fleet
        ? [
            `Fleet: 2 instances sharing redis-server, ${fleet.connections} connections at 10 ms: ${Math.round(fleet.requestsPerSecond)} req/s, ${fleet.feedBuilds} feed build(s) in ${fleet.seconds.toFixed(1)} s, backend calls ${JSON.stringify(fleet.backendCalls)}; a stop through A left B's feed in ${fleet.stopReachedOtherInstanceMs ?? '> 5000'} ms`,
            '',
          ]
        : []),
      ...(stampede
        ? [`Stampede: ${stampede.requests} app opens at once on a cold feed (backend 10 ms): ${stampede.ok} answered in ${stampede.ms} ms, ${stampede.builds} build(s), backend calls ${JSON.stringify(stampede.calls)}`, '']
        : []),
      formatTargets(targets),
      '',
      `every answer right and every backend call count minimal: written to ${LATEST_FILE} (${context.seconds} s)`,
      '',
    ].join('\n'),
  );
  return true;
}
