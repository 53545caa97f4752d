import { pinSelf, killAllNow } from './lib/children.js';
import { feedScenarios, stampede, type StampedeResult } from './lib/feed.js';
import { FEED_LOAD_CONNECTIONS, measureFeedLoad, STAMPEDE_REQUESTS } from './lib/feed-load.js';
import { measureFleet, type FleetResult } from './lib/fleet.js';
import { describeMachine, describeTree, type MachineInfo } from './lib/machine.js';
import { log, type Bench } from './lib/measure.js';
import { memoryCheck } from './lib/memory.js';
import { readProfile, type Profile } from './lib/options.js';
import { report } from './lib/output.js';
import { REPO_ROOT } from './lib/product.js';
import { rssMb } from './lib/proc-stats.js';
import type { MemoryCheck } from './lib/report.js';
import { measureRows } from './lib/rows.js';
import { acquireRunLock } from './lib/run-lock.js';
import { buildScenarios } from './lib/scenarios.js';
import { DEMO_AGGREGATOR_TOKEN, DEMO_STORE_TOKEN } from './lib/bff.js';
import { measureSubscriptions, type SubscriptionsResult } from './lib/subscriptions.js';
import { startWorld } from './lib/world.js';
import { formatProfile, mainThreadProfile, PROFILE_DIR, summarizeProfile } from './lib/cpu-profile.js';
import { compare } from './compare/compare.js';
import { measureHive, type HiveResult } from './hive/hive.js';

/**
 * `npm run bench`: the options are in bench/lib/options.ts (`--help`), what runs and how it is
 * read in bench/README.md. This file runs the parts in order; each lives in a module of its own.
 */

/** Resolves true when every answer was right and every backend call count minimal. */
async function fullRun(profile: Profile, machine: MachineInfo, driverPinned: boolean): Promise<boolean> {
  const pin = machine.cores >= 2;
  const tree = describeTree(REPO_ROOT);
  const started = Date.now();
  const world = await startWorld(profile, pin);
  const { admin, bff, emulator } = world;
  const bench: Bench = { admin, directoryTtlMs: world.bffEnv.directoryTtlMs };
  log(`servers up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // Started, set up and warmed (categories and feed answered once), no load yet.
  const rssAtRestMb = rssMb(bff.pid);
  log(`BFF RSS at rest: ${rssAtRestMb.toFixed(1)} MB`);

  const scenarios = [
    ...buildScenarios({ readToken: DEMO_STORE_TOKEN, createToken: DEMO_AGGREGATOR_TOKEN, ids: world.ids, categoriesBody: world.categoriesBody }),
    ...(profile.parts.has('feed') || profile.parts.has('feed-load') ? feedScenarios(world.feedBody) : []),
  ];
  const byKey = (key: string) => scenarios.find((s) => s.key === key)!;
  const { results, stages } = await measureRows(world, bench, profile, scenarios);
  // The twins are done: none stays alive through the parts that follow.
  await Promise.all(Object.values(world.twins).map((twin) => twin.stop()));
  const hive: HiveResult | null = profile.parts.has('hive') ? await measureHive({ bench, bff, bffScenarios: scenarios, emulatorOrigin: emulator.origin, profile, pin, ids: world.ids }) : null;
  const feedLoad = profile.parts.has('feed-load') ? await measureFeedLoad(bff, admin, byKey, profile) : null;
  let feedStampede: StampedeResult | null = null;
  if (profile.parts.has('stampede')) {
    await admin.setLatency(10);
    feedStampede = await stampede(bff.origin, STAMPEDE_REQUESTS, () => admin.calls(), () => admin.resetCalls());
    log(`stampede: ${feedStampede.requests} app opens at once on a cold feed, backend 10 ms: ${feedStampede.ok} answered, ${feedStampede.builds} build(s), calls ${JSON.stringify(feedStampede.calls)}, ${feedStampede.ms} ms`);
  }
  await admin.clearFaults();
  const fleet: FleetResult | null = profile.parts.has('fleet')
    ? await measureFleet({
        bffEnv: world.bffEnv.env,
        admin,
        connections: FEED_LOAD_CONNECTIONS,
        warmupSeconds: profile.warmupSeconds,
        // Longer than the 30 s freshness window, so the run shows the fleet's rebuild (one, in total).
        measureSeconds: profile.quick ? profile.measureSeconds : 35,
        pin,
        log,
      })
    : null;
  let memory: MemoryCheck | null = null;
  if (profile.parts.has('memory')) {
    log(`memory check: ${byKey('list-cards').label}, ${profile.memoryConnections} connections for ${profile.memorySeconds} s`);
    memory = await memoryCheck(bff, admin, byKey('list-cards'), profile, rssAtRestMb);
  }
  let live: SubscriptionsResult | null = null;
  if (profile.parts.has('subscriptions')) {
    await admin.clearFaults();
    live = await measureSubscriptions({
      bffOrigin: bff.origin,
      bffMetricsUrl: bff.metricsUrl!,
      bffPid: bff.pid,
      emulatorOrigin: emulator.origin,
      admin,
      pollIntervalMs: world.bffEnv.pollIntervalMs,
      profile: profile.quick
        ? { subscribers: 500, partners: 5, campaignsPerPartner: 20, rounds: 5, countIntervals: 2, cycles: 1 }
        : { subscribers: 5000, partners: 5, campaignsPerPartner: 20, rounds: 15, countIntervals: 5, cycles: 2 },
      log,
    });
  }
  const traceSinkStats = world.traceSink ? await (await fetch(`${world.traceSink.origin}/stats`)).json() : null;
  const accepted = report({ profile, machine, tree, started, pinned: driverPinned, bffEnv: world.bffEnv, traceSinkStats, results, rssAtRestMb, memory, feedLoad, stampede: feedStampede, fleet, live, stages, hive });

  // The profile is written when the BFF exits by itself, after its graceful shutdown.
  await Promise.all([world.stopReferences(), bff.stop(profile.cpuProfile ? 20_000 : 3000)]);
  await emulator.stop();
  if (profile.cpuProfile) {
    const file = mainThreadProfile(PROFILE_DIR, bff.pid);
    if (file) process.stdout.write(`${formatProfile(summarizeProfile(file))}\n`);
    else log(`no .cpuprofile in ${PROFILE_DIR}: the BFF did not exit cleanly`);
  }
  if (!accepted) log('exit code 2: run rejected (see bench/results/rejected.json)');
  return accepted;
}

async function main(): Promise<boolean> {
  const profile = readProfile();
  releaseLock = await acquireRunLock(15 * 60_000, (pid) => log(`another bench run (pid ${pid}) is going; waiting for it to finish`));
  const machine = describeMachine();
  const pin = machine.cores >= 2;
  // Servers on core 0; the emulator and this driver on core 1.
  const driverPinned = pin && pinSelf(1);
  log(`${profile.quick ? 'quick' : 'full'} run on ${machine.cores} cores (${machine.cpuModel}), Node ${machine.node}, load average ${machine.loadAverage.join(' ')}`);
  if (!driverPinned) log('taskset unavailable or a single core: processes are not pinned');
  if (profile.compare !== undefined) return compare(profile, machine);
  return fullRun(profile, machine, driverPinned);
}

let releaseLock = () => {};
process.on('exit', () => {
  killAllNow();
  releaseLock();
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping every child process`);
    killAllNow();
    process.exit(130);
  });
}

main().then(
  (correct) => process.exit(correct ? 0 : 2),
  (error: unknown) => {
    process.stderr.write(`\n[bench] failed: ${error instanceof Error ? error.message : String(error)}\n`);
    killAllNow();
    process.exit(1);
  },
);
