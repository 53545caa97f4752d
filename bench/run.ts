import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { backendWorkUnderWayIn, feedBuildsIn, metricsOf } from './lib/bff-metrics.js';
import { parseArgs } from 'node:util';
import { ConfigError, envSchema, loadConfig } from '../src/config.js';
import { TOKEN_ACCEPTED_FOR_MS } from '../src/categories/directory.js';
import { freePort, killAllNow, pinSelf, REPO_ROOT, startService, type Service } from './lib/children.js';
import { EmulatorAdmin, type CallCounts } from './lib/emulator-admin.js';
import { fire, keepingFirstWrong } from './lib/load.js';
import { acquireRunLock } from './lib/run-lock.js';
import { describeMachine, describeTree } from './lib/machine.js';
import { formatProfile, mainThreadProfile, summarizeProfile } from './lib/cpu-profile.js';
import { cpuMeter, peakRssMb, resetPeakRss, rssMb } from './lib/proc-stats.js';
import { checkTargets, formatMemory, formatTable, formatTargets, type MemoryCheck, type ScenarioResult } from './lib/report.js';
import {
  buildScenarios,
  DOCUMENTS,
  graphqlBody,
  graphqlHeaders,
  isBff,
  noRequestLogTwin,
  PAGE_SIZE,
  PERSISTED_CATEGORIES,
  tracedTwin,
  twinScenario,
  type BffTwin,
  type Scenario,
  type Target,
  type TwinTarget,
} from './lib/scenarios.js';
import { ensureCampaigns } from './lib/seed.js';
import { formatSubscriptions, measureSubscriptions, type SubscriptionsResult } from './lib/subscriptions.js';
import { feedScenarios, seedFeedPartners, stampede, warmFeedBody, writeFeedFiles, type StampedeResult } from './lib/feed.js';
import { measureFleet, type FleetResult } from './lib/fleet.js';
import { formatRejection, withoutDirectoryRefreshes, wrongScenarios } from './lib/verdict.js';

const USAGE = `npm run bench [-- --quick] [-- --connections N] [-- --duration S]

Starts the emulator, the BFF (NODE_ENV=production, shipped log level) and three reference servers
(a bare node:http floor, stock Apollo Server, a hand-written REST client) as separate processes,
runs every scenario at 0 ms and 10 ms backend latency (the floor and warm categories in three
interleaved pairs, one with --quick), checks its targets, prints a table and writes
bench/results/latest.json; a run with a wrong answer is rejected instead (see Exit code).

  --quick          short runs and 10 connections: the whole bench in under a minute (CI smoke)
  --connections N  connections of the load runs (default 50; 10 with --quick)
  --duration S     seconds of each measured run (default 10; 1.2 with --quick)
  --warmup S       seconds of load before each measured run (default 2; 0.4 with --quick): longer on
                   a machine busy with other work, where 2 s are too few requests to warm the JIT
  --only LIST      run only these parts, comma-separated: floor, floor-line (the floor that also parses
                   the body and writes the BFF's request line and metrics), stock-apollo, categories (and the same
                   on a second BFF with LOG_LEVEL=warn: the request log line's cost), categories-apollo-client
                   (the same with Apollo Client's Accept header), categories-persisted (the
                   same by persisted-query hash, as Apollo Client's link sends it), card, list-ids,
                   list-cards, rest-floor-list, create, probes (list cards and its REST floor over
                   4 connections), memory (list cards, 50 connections for 60 s: peak RSS and growth),
                   subscriptions (5,000 WebSocket subscribers; 500 with --quick),
                   feed (app feed vs its floor and vs the partner query), feed-load (200 connections of
                   app opens at 10 ms: backend calls per minute), stampede (500 app opens on a cold feed),
                   fleet (two BFF instances sharing a redis-server: builds per window, a stop through A seen by B)
  --latency LIST   backend latencies in ms, comma-separated (default 0,10)
  --bff-node-args="ARGS"  node options for the BFF process only (e.g. --bff-node-args="--max-old-space-size=128")
  --profile        run the BFF under node --cpu-prof and print its top frames at the end
                   (profiles in $TMPDIR/campaign-bff-bench-profiles/)
  --tracing        also start a BFF exporting every span (OTLP/HTTP to a local sink, sampler
                   always on) and run categories, card and list cards on it right after the
                   same runs untraced (rows marked "traced")
  --help           this text

Exit code: 0 when every answer was right and every backend call count minimal; 2 when not: the
run is rejected, prints no table and leaves latest.json as it was, and names each wrong scenario
with its first wrong body (details in bench/results/rejected.json); 1 when the bench could not
run. Speed targets never change it: they are in the output and latest.json.

Environment variables of the BFF (BACKEND_CONNECTIONS, LOADER_CONCURRENCY, ...) are passed on,
so a tuning can be measured without editing code.`;

const DEMO_STORE_TOKEN = 'demo-store-token';
const DEMO_AGGREGATOR_TOKEN = 'demo-aggregator-token';
const PARTS = ['floor', 'floor-line', 'stock-apollo', 'categories', 'categories-apollo-client', 'categories-persisted', 'card', 'list-ids', 'list-cards', 'rest-floor-list', 'create', 'probes', 'memory', 'subscriptions', 'feed', 'feed-load', 'stampede', 'fleet'] as const;
/** Connections of the feed-load run: app opens of many phones at once. */
const FEED_LOAD_CONNECTIONS = 200;
/** The app opens run for 60 s in a full run: two freshness windows, so a second build would show. */
const FEED_LOAD_SECONDS = 60;
const STAMPEDE_REQUESTS = 500;
/**
 * Pairs of floor and warm-categories runs at each latency. One run of each moved the same code's
 * ratio to the floor by far more than the target's margin from run to run: a machine's speed moves
 * between windows. The first pair is the table's rows
 * in their place; the others follow the latency's scenarios, each floor run right before its
 * categories run, and the target takes the median of the pairs' ratios. A disturbed window no
 * longer decides the verdict; a process that runs the path slowly throughout still does
 * (docs/performance.md, "What bounds the targets").
 */
const PAIR_ROUNDS = 3;
/** Concurrent clients of the probes: the list-cards p50 target is at 4. */
const PROBE_CONNECTIONS = 4;
/** partnerCampaignIds of the seeded campaigns, clear of the fixtures (1001...) and of create's. */
const SEED_PARTNER_ID = 500_001;
/** Relative to the repository root; both kept out of git (.gitignore): figures belong to one machine. */
const LATEST_FILE = 'bench/results/latest.json';
/** Instead of latest.json, for a run whose answers were wrong. */
const REJECTED_FILE = 'bench/results/rejected.json';
/** Outside the repository: profiles are large and belong to one machine. */
const PROFILE_DIR = join(tmpdir(), 'campaign-bff-bench-profiles');

interface Profile {
  quick: boolean;
  connections: number;
  warmupSeconds: number;
  measureSeconds: number;
  /** The probes: list cards and its REST floor over PROBE_CONNECTIONS. */
  probeSeconds: number;
  memoryConnections: number;
  memorySeconds: number;
  /** Load seconds before the memory baseline is taken (the heap growing to its working size is not growth). */
  memoryWarmSeconds: number;
  /** RSS swings with every major GC: start and end are the median and the minimum over windows this long. */
  memoryWindowSeconds: number;
  parts: ReadonlySet<string>;
  latenciesMs: number[];
  cpuProfile: boolean;
  /** Node options for the BFF process only, such as `--max-old-space-size=128`. */
  bffNodeArgs: string[];
  /** Also measure a BFF that exports every span. */
  tracing: boolean;
  /** Interleaved pairs of floor and categories runs at each latency; the target is judged on their median ratio. */
  pairRounds: number;
}

function readProfile(): Profile {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      connections: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
      latency: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'bff-node-args': { type: 'string' },
      tracing: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const quick = values.quick ?? false;
  const number = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) {
      throw new Error(`--${name} must be a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
  const connections = Math.round(number('connections', values.connections, quick ? 10 : 50, 1, 1000));
  const measureSeconds = number('duration', values.duration, quick ? 1.2 : 10, 0.5, 600);
  const parts = new Set(values.only === undefined ? PARTS : values.only.split(',').map((p) => p.trim()));
  for (const part of parts) {
    if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only takes ${PARTS.join(', ')}; got ${JSON.stringify(part)}`);
  }
  const latenciesMs = (values.latency ?? '0,10').split(',').map((l) => Math.round(number('latency', l.trim(), 0, 0, 10_000)));
  return {
    quick,
    connections,
    warmupSeconds: number('warmup', values.warmup, quick ? 0.4 : 2, 0.2, 600),
    measureSeconds,
    probeSeconds: quick ? 0.8 : 5,
    memoryConnections: quick ? 10 : 50,
    memorySeconds: quick ? 3 : 60,
    memoryWarmSeconds: quick ? 1 : 10,
    memoryWindowSeconds: quick ? 1 : 10,
    parts,
    latenciesMs,
    cpuProfile: values.profile ?? false,
    bffNodeArgs: (values['bff-node-args'] ?? '').split(/\s+/).filter(Boolean),
    tracing: values.tracing ?? false,
    pairRounds: quick ? 1 : PAIR_ROUNDS,
  };
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

interface Servers {
  emulator: Service;
  bff: Service;
  floor: Service;
  /** The floor that also writes the BFF's request line (FLOOR_REQUEST_LINE=1). */
  floorLine: Service;
  stockApollo: Service;
  restFloor: Service;
  /** The BFF's twins this run started (see BffTwin). */
  twins: Partial<Record<TwinTarget, Service>>;
  feedFloor: Service;
  /**
   * How often the BFF's category directory reads the backend again with a partner's token in use:
   * its CATEGORY_TTL_MS, or sooner, when it checks that token again (TOKEN_ACCEPTED_FOR_MS).
   */
  directoryTtlMs: number;
}

/**
 * Waits until requests cut off by a run have drained: the emulator's call counters the same over
 * `stableMs` and, when `bff` is given, none of its requests with backend work under way or waiting
 * for it. A quiet backend alone is not enough: a saturated BFF can spend longer than `stableMs`
 * finishing cut-off lists without a call, then admit one that waited, which calls before it hears
 * that its client has gone (a run of `eb19c48` counted two such calls in its window).
 */
async function quiesce(admin: EmulatorAdmin, bff?: Service, stableMs = 150): Promise<void> {
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

async function measure(
  servers: Servers,
  admin: EmulatorAdmin,
  scenario: Scenario,
  backendLatencyMs: number,
  connections: number,
  warmupSeconds: number,
  measureSeconds: number,
): Promise<ScenarioResult> {
  const server: Record<Target, Service | undefined> = {
    floor: servers.floor,
    'floor-line': servers.floorLine,
    'stock-apollo': servers.stockApollo,
    bff: servers.bff,
    'bff-traced': servers.twins['bff-traced'],
    'bff-no-request-log': servers.twins['bff-no-request-log'],
    'rest-floor': servers.restFloor,
    'feed-floor': servers.feedFloor,
  };
  const target = server[scenario.target];
  if (!target) throw new Error(`scenario ${scenario.key} needs the ${scenario.target} server, which this run did not start`);
  const url = `${target.origin}`;
  const check = keepingFirstWrong(scenario.verify);
  const hardStopMs = measureSeconds * 3000 + 10_000;

  // Warm-up: JIT, caches and keep-alive pools; it also tells how many requests fill the run.
  const warm = await fire({ url, connections, requests: scenario.requests, durationSeconds: warmupSeconds, hardStopMs });
  const bffUnderTest = isBff(scenario.target) ? target : undefined;
  await quiesce(admin, bffUnderTest);

  await admin.resetCalls();
  const windowStartedAt = Date.now();
  const peakScoped = resetPeakRss(target.pid);
  const cpu = cpuMeter(target.pid);
  // A fixed number of requests rather than a duration: the run ends when the last answer is in,
  // so no request is cut off and the backend counters divide exactly.
  const amount = Math.max(connections, Math.round(warm.requestsPerSecond * measureSeconds));
  const load = await fire({ url, connections, requests: scenario.requests, verify: check.verify, amount, hardStopMs });
  const cpuUse = cpu.stop();
  const serverPeakRssMb = peakRssMb(target.pid);
  await quiesce(admin, bffUnderTest);
  const expected = scenario.expectedCalls ?? null;
  const calls = await admin.calls();
  const counted = isBff(scenario.target) ? withoutDirectoryRefreshes(calls, expected, Date.now() - windowStartedAt, servers.directoryTtlMs) : { calls, refreshes: 0 };
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

/** How close to its RSS at rest the BFF must be before the memory check starts. */
const SETTLED_WITHIN = 0.15;
/** How long the memory check waits for that before it starts anyway (and says so). */
const SETTLE_BOUND_MS = 90_000;

/**
 * Waits, without load, until the BFF is back within SETTLED_WITHIN of its RSS at rest: the parts
 * before the memory check (the app feed and the partner list at 200 connections) leave a larger
 * heap, which V8 gives back on its own once the process has been idle for a while (its memory
 * reducer, about 20 s here). Without this wait the check's peak would be the earlier load's,
 * not that of its own 50 connections. How much was carried in and how long it took to give back
 * are reported; past SETTLE_BOUND_MS the check starts anyway, and its peak then includes it.
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

async function memoryCheck(servers: Servers, admin: EmulatorAdmin, scenario: Scenario, profile: Profile, restMb: number): Promise<MemoryCheck> {
  const pid = servers.bff.pid;
  await quiesce(admin, servers.bff);
  const settle = await settleRss(pid, restMb);
  if (!settle.settled) log(`memory check: the BFF still holds ${rssMb(pid).toFixed(1)} MB after ${settle.seconds} s idle (at rest ${restMb.toFixed(1)} MB); starting anyway, so its peak includes what earlier parts left`);
  const idleBeforeMb = rssMb(pid);
  resetPeakRss(pid);
  const samplesMb: number[] = [];
  const sampler = setInterval(() => samplesMb.push(rssMb(pid)), 1000);
  const check = keepingFirstWrong(scenario.verify);
  const load = await fire({
    url: servers.bff.origin,
    connections: profile.memoryConnections,
    requests: scenario.requests,
    verify: check.verify,
    durationSeconds: profile.memorySeconds,
    hardStopMs: profile.memorySeconds * 1000 + 30_000,
  });
  clearInterval(sampler);
  const peakMb = peakRssMb(pid);
  await quiesce(admin, servers.bff);
  await sleep(1000);
  const window = (from: number) => {
    const slice = samplesMb.slice(Math.max(0, from), Math.max(0, from) + profile.memoryWindowSeconds);
    return slice.length ? slice : [samplesMb.at(-1) ?? idleBeforeMb];
  };
  const first = window(profile.memoryWarmSeconds);
  const last = window(samplesMb.length - profile.memoryWindowSeconds);
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
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

async function warmCategoriesBody(bff: Service): Promise<string> {
  let body = '';
  // The first answer fills the category cache; the second is the warm one the floor copies.
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${bff.origin}/graphql`, {
      method: 'POST',
      headers: graphqlHeaders(DEMO_STORE_TOKEN),
      body: graphqlBody(DOCUMENTS.categories),
      signal: AbortSignal.timeout(10_000),
    });
    body = await response.text();
    if (response.status !== 200 || !body.startsWith('{"data":{"categories":[')) {
      throw new Error(`the BFF should answer the categories query with data, got HTTP ${response.status}: ${body.slice(0, 500)}\n--- BFF output ---\n${bff.tail()}`);
    }
  }
  // Registered as Apollo Client's persisted-query link registers it, for the scenario by hash.
  const registered = await fetch(`${bff.origin}/graphql`, {
    method: 'POST',
    headers: graphqlHeaders(DEMO_STORE_TOKEN),
    body: JSON.stringify({ query: DOCUMENTS.categories, extensions: { persistedQuery: PERSISTED_CATEGORIES } }),
    signal: AbortSignal.timeout(10_000),
  });
  const registeredBody = await registered.text();
  if (registeredBody !== body) throw new Error(`the BFF should register the persisted categories query and answer it, got HTTP ${registered.status}: ${registeredBody.slice(0, 500)}`);
  return body;
}

interface FeedLoadRow {
  scenario: string;
  connections: number;
  backendLatencyMs: number;
  seconds: number;
  responses: number;
  requestsPerSecond: number;
  p99Ms: number;
  backendCalls: Record<string, number>;
  backendCallsPerMinute: number;
  feedBuilds: number;
  /** VmHWM of the BFF over the measured run (not judged: the memory target is at 50 connections). */
  peakRssMb: number;
  failed: number;
  firstWrongBody?: string;
}

/**
 * 200 connections of app opens with the backend at 10 ms, then the same screen through the partner
 * query: the backend calls each costs per minute (the target: at most one build per window).
 */
async function measureFeedLoad(servers: Servers, admin: EmulatorAdmin, byKey: (key: string) => Scenario, profile: Profile): Promise<FeedLoadRow[]> {
  await admin.setLatency(10);
  const rows: FeedLoadRow[] = [];
  for (const key of ['feed', 'feed-partner']) {
    const scenario = byKey(key);
    await fire({ url: servers.bff.origin, connections: FEED_LOAD_CONNECTIONS, requests: scenario.requests, durationSeconds: profile.warmupSeconds, hardStopMs: 60_000 });
    await quiesce(admin, servers.bff);
    await admin.resetCalls();
    const buildsBefore = feedBuildsIn(await metricsOf(servers.bff));
    resetPeakRss(servers.bff.pid);
    // The partner query's calls per minute are a rate: its usual run length tells them.
    const seconds = key === 'feed' && !profile.quick ? FEED_LOAD_SECONDS : profile.measureSeconds;
    const check = keepingFirstWrong(scenario.verify);
    const load = await fire({
      url: servers.bff.origin,
      connections: FEED_LOAD_CONNECTIONS,
      requests: scenario.requests,
      verify: check.verify,
      durationSeconds: seconds,
      hardStopMs: seconds * 3000 + 30_000,
    });
    await quiesce(admin, servers.bff);
    const calls = await admin.calls();
    const firstWrongBody = check.firstWrong();
    const total = Object.values(calls).reduce((sum, n) => sum + n, 0);
    const row: FeedLoadRow = {
      scenario: scenario.label,
      connections: FEED_LOAD_CONNECTIONS,
      backendLatencyMs: 10,
      seconds: load.seconds,
      responses: load.responses,
      requestsPerSecond: load.requestsPerSecond,
      p99Ms: load.latencyMs.p99,
      backendCalls: calls,
      backendCallsPerMinute: load.seconds > 0 ? (total / load.seconds) * 60 : 0,
      feedBuilds: (feedBuildsIn(await metricsOf(servers.bff))) - buildsBefore,
      peakRssMb: peakRssMb(servers.bff.pid),
      failed: load.errors + load.non2xx + load.mismatches,
      ...(firstWrongBody !== undefined ? { firstWrongBody } : {}),
    };
    rows.push(row);
    log(`${row.scenario} @10 ms, ${FEED_LOAD_CONNECTIONS}c: ${Math.round(row.requestsPerSecond)} req/s, p99 ${row.p99Ms} ms, ${Math.round(row.backendCallsPerMinute)} backend calls/min, ${row.feedBuilds} feed builds, peak RSS ${row.peakRssMb.toFixed(1)} MB, ${row.failed} failed`);
  }
  await admin.clearFaults();
  return rows;
}

function formatFeedLoad(rows: FeedLoadRow[]): string {
  return [
    `App opens, ${FEED_LOAD_CONNECTIONS} connections, backend 10 ms per call:`,
    ...rows.map(
      (r) =>
        `  ${r.scenario.padEnd(40)} ${String(Math.round(r.requestsPerSecond)).padStart(7)} req/s  p99 ${String(r.p99Ms).padStart(4)} ms  ` +
        `${String(Math.round(r.backendCallsPerMinute)).padStart(9)} backend calls/min  feed builds ${r.feedBuilds}  peak RSS ${Math.round(r.peakRssMb)} MB  failed ${r.failed}`,
    ),
  ].join('\n');
}

function feedTargets(
  results: ScenarioResult[],
  connections: number,
  load: FeedLoadRow[] | null,
  burst: StampedeResult | null,
  fleet: FleetResult | null,
) {
  const checks: { goal: string; measured: string; met: boolean }[] = [];
  const find = (key: string, latency: number) => results.find((r) => r.key === key && r.backendLatencyMs === latency && r.connections === connections);
  for (const latency of [0, 10]) {
    const floor = find('feed-floor', latency);
    const feed = find('feed', latency);
    if (floor && feed) {
      const ratio = feed.requestsPerSecond / floor.requestsPerSecond;
      const cpuRatio = floor.serverCpuUsPerRequest / feed.serverCpuUsPerRequest;
      checks.push({
        goal: `warm app feed of ${PAGE_SIZE} cards >= 60% of the bare node:http floor serving the same bytes, backend ${latency} ms`,
        measured: `${Math.round(feed.requestsPerSecond)} / ${Math.round(floor.requestsPerSecond)} req/s = ${Math.round(ratio * 100)}%; by CPU per request ${Math.round(feed.serverCpuUsPerRequest)} vs ${Math.round(floor.serverCpuUsPerRequest)} µs = ${Math.round(cpuRatio * 100)}%`,
        met: Math.min(ratio, cpuRatio) >= 0.6,
      });
      checks.push({
        goal: `warm app feed p99 <= 10 ms at ${connections} connections, backend ${latency} ms`,
        measured: `p99 ${feed.latencyMs.p99} ms`,
        met: feed.latencyMs.p99 <= 10,
      });
    }
  }
  const feedRow = load?.find((r) => r.scenario.startsWith('app feed'));
  if (feedRow) {
    const windows = Math.max(1, Math.ceil(feedRow.seconds / 30));
    checks.push({
      goal: `${FEED_LOAD_CONNECTIONS} connections of app opens, backend 10 ms: at most one feed build per 30 s window`,
      measured: `${feedRow.feedBuilds} build(s) in ${feedRow.seconds.toFixed(1)} s; ${Math.round(feedRow.backendCallsPerMinute)} backend calls/min vs ${Math.round(load!.find((r) => r !== feedRow)?.backendCallsPerMinute ?? 0)} through campaigns(status: STARTED)`,
      met: feedRow.feedBuilds <= windows && feedRow.failed === 0,
    });
  }
  if (fleet) {
    checks.push({
      goal: 'two instances sharing a redis-server, app opens on both at 10 ms: at most one feed build per 30 s window in total',
      measured: `${fleet.feedBuilds} build(s) in ${fleet.seconds.toFixed(1)} s, ${Math.round(fleet.requestsPerSecond)} req/s, ${fleet.failed} failed`,
      met: fleet.feedBuilds <= Math.max(1, Math.ceil(fleet.seconds / 30)) && fleet.failed === 0,
    });
    checks.push({
      goal: 'a stopCampaign through instance A leaves the feed instance B serves within 1 s',
      measured: fleet.stopReachedOtherInstanceMs === null ? 'not within 5 s' : `${fleet.stopReachedOtherInstanceMs} ms`,
      met: fleet.stopReachedOtherInstanceMs !== null && fleet.stopReachedOtherInstanceMs <= 1000,
    });
  }
  if (burst) {
    checks.push({
      goal: `${STAMPEDE_REQUESTS} simultaneous app opens on a cold feed: exactly one build`,
      measured: `${burst.builds} build(s), ${burst.ok}/${burst.requests} answered`,
      met: burst.builds === 1 && burst.ok === burst.requests,
    });
  }
  return checks;
}

/** Resolves true when every answer was right and every backend call count minimal. */
async function main(): Promise<boolean> {
  const profile = readProfile();
  releaseLock = await acquireRunLock(15 * 60_000, (pid) => log(`another bench run (pid ${pid}) is going; waiting for it to finish`));
  const machine = describeMachine();
  const tree = describeTree(REPO_ROOT);
  const pin = machine.cores >= 2;
  // BFF and the reference servers on core 0; emulator and this driver on core 1.
  const driverPinned = pin && pinSelf(1);
  const started = Date.now();
  log(`${profile.quick ? 'quick' : 'full'} run on ${machine.cores} cores (${machine.cpuModel}), Node ${machine.node}, load average ${machine.loadAverage.join(' ')}`);
  if (!driverPinned) log('taskset unavailable or a single core: processes are not pinned');

  const [emulatorPort, bffPort, floorPort, stockApolloPort, restFloorPort, traceSinkPort, feedFloorPort, floorLinePort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const emulator = await startService({
    name: 'emulator',
    script: 'src/emulator/main.ts',
    env: { EMULATOR_PORT: String(emulatorPort), EMULATOR_HOST: '127.0.0.1' },
    ...(pin ? { core: 1 } : {}),
    port: emulatorPort,
    readyPath: '/_emulator/calls',
  });
  const admin = new EmulatorAdmin(emulator.origin);

  const feedFiles = writeFeedFiles();
  const bffEnv = {
    NODE_ENV: 'production',
    CAMPAIGN_API_URL: emulator.origin,
    // The shipped log level (info: a JSON line per request), as users run it; its lines go to
    // /dev/null (discardStdout), as a log shipper takes them away.
    PORT: String(bffPort),
    HOST: '127.0.0.1',
    // The app of the feed scenarios: its key and its trusted document.
    APP_KEYS_FILE: feedFiles.appKeysFile,
    TRUSTED_DOCUMENTS: feedFiles.trustedDocuments,
    // One load generator stands in for thousands of phones: the per-address limit would refuse it.
    CLIENT_RATE_LIMIT: '0',
    // No load balancer in front: a stop need not wait for one to notice.
    SHUTDOWN_DELAY_MS: '0',
  };
  // Settings of the BFF taken from this shell (a tuning being tried), recorded with the figures.
  const inheritedSettings = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((name) => !(name in bffEnv) && process.env[name] !== undefined && process.env[name] !== '')
      .map((name) => [name, process.env[name]!]),
  );
  if (Object.keys(inheritedSettings).length) log(`BFF settings from the environment: ${JSON.stringify(inheritedSettings)}`);
  let backendConnections: number;
  let directoryTtlMs: number;
  try {
    const bffConfig = loadConfig({ ...process.env, ...bffEnv });
    backendConnections = bffConfig.client.connections;
    directoryTtlMs = Math.min(bffConfig.categoryTtlMs, TOKEN_ACCEPTED_FOR_MS);
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(`the BFF would refuse this environment: ${error.message}`);
    throw error;
  }
  // The REST floor gets as many backend connections as the BFF: same resources, best use of them.
  if (profile.cpuProfile) mkdirSync(PROFILE_DIR, { recursive: true });
  const [bff, restFloor] = await Promise.all([
    startService({
      name: 'BFF',
      script: 'src/main.ts',
      env: bffEnv,
      discardStdout: true,
      nodeArgs: [...profile.bffNodeArgs, ...(profile.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [])],
      ...(pin ? { core: 0 } : {}),
      port: bffPort,
      metricsPort: await freePort(),
      readyPath: '/healthz',
    }),
    startService({
      name: 'REST floor',
      script: 'bench/rest-floor-server.ts',
      env: { PORT: String(restFloorPort), CAMPAIGN_API_URL: emulator.origin, POOL_CONNECTIONS: String(backendConnections), PAGE_SIZE: String(PAGE_SIZE) },
      ...(pin ? { core: 0 } : {}),
      port: restFloorPort,
      readyPath: '/healthz',
    }),
  ]);

  let traceSink: Service | undefined;
  const twins: BffTwin[] = [];
  if (profile.tracing) {
    traceSink = await startService({
      name: 'trace sink',
      script: 'bench/trace-sink-server.ts',
      env: { PORT: String(traceSinkPort) },
      ...(pin ? { core: 1 } : {}),
      port: traceSinkPort,
      readyPath: '/',
    });
    twins.push(tracedTwin(traceSink.origin));
  }
  if (profile.parts.has('categories')) twins.push(noRequestLogTwin);
  const twinServices: Partial<Record<TwinTarget, Service>> = {};
  for (const twin of twins) {
    const port = await freePort();
    twinServices[twin.target] = await startService({
      name: twin.name,
      script: 'src/main.ts',
      env: { ...bffEnv, PORT: String(port), ...twin.env },
      discardStdout: true,
      nodeArgs: profile.bffNodeArgs,
      ...(pin ? { core: 0 } : {}),
      port,
      metricsPort: await freePort(),
      readyPath: '/healthz',
    });
  }

  // Setup: a stable world. Manual moderation, so no campaign changes by itself during the runs.
  await admin.setModeration('manual');
  await admin.clearFaults();
  const ids = await ensureCampaigns(emulator.origin, DEMO_STORE_TOKEN, PAGE_SIZE, SEED_PARTNER_ID);
  const categoriesBody = await warmCategoriesBody(bff);
  for (const twin of Object.values(twinServices)) {
    if ((await warmCategoriesBody(twin)) !== categoriesBody) throw new Error(`the ${twin.name} answers the categories query with other bytes than the BFF`);
  }
  await seedFeedPartners(emulator.origin);
  const feedBody = await warmFeedBody(bff.origin);
  const [floor, floorLine, stockApollo, feedFloor] = await Promise.all([
    startService({
      name: 'floor',
      script: 'bench/floor-server.ts',
      env: { PORT: String(floorPort), FLOOR_BODY: categoriesBody },
      ...(pin ? { core: 0 } : {}),
      port: floorPort,
      readyPath: '/',
    }),
    startService({
      name: 'floor with the request line',
      script: 'bench/floor-server.ts',
      env: { PORT: String(floorLinePort), FLOOR_BODY: categoriesBody, FLOOR_REQUEST_LINE: '1', NODE_ENV: 'production' },
      ...(pin ? { core: 0 } : {}),
      port: floorLinePort,
      readyPath: '/',
      // As the BFF's lines go.
      discardStdout: true,
    }),
    startService({
      name: 'stock Apollo',
      script: 'bench/lib/stock-apollo-server.ts',
      env: { PORT: String(stockApolloPort), CATEGORIES_BODY: categoriesBody, NODE_ENV: 'production' },
      ...(pin ? { core: 0 } : {}),
      port: stockApolloPort,
      readyPath: '/?query=%7B__typename%7D',
      readyHeaders: { 'apollo-require-preflight': 'true' },
    }),
    startService({
      name: 'feed floor',
      script: 'bench/floor-server.ts',
      env: { PORT: String(feedFloorPort), FLOOR_BODY: feedBody },
      ...(pin ? { core: 0 } : {}),
      port: feedFloorPort,
      readyPath: '/',
    }),
  ]);
  const servers: Servers = { emulator, bff, floor, floorLine, stockApollo, restFloor, twins: twinServices, feedFloor, directoryTtlMs };
  log(`servers up in ${((Date.now() - started) / 1000).toFixed(1)} s; ${ids.length} campaigns on the first page of ${DEMO_STORE_TOKEN}`);
  // Started, set up and warmed (categories and feed answered once), no load yet.
  const rssAtRestMb = rssMb(bff.pid);
  log(`BFF RSS at rest: ${rssAtRestMb.toFixed(1)} MB`);

  const scenarios = [
    ...buildScenarios({
      readToken: DEMO_STORE_TOKEN,
      createToken: DEMO_AGGREGATOR_TOKEN,
      cardId: ids[0]!,
      categoriesBody,
    }),
    ...(profile.parts.has('feed') || profile.parts.has('feed-load') ? feedScenarios(feedBody) : []),
  ];
  const isFeed = (key: string) => key.startsWith('feed');
  const byKey = (key: string) => scenarios.find((s) => s.key === key)!;

  const results: ScenarioResult[] = [];
  for (const latency of profile.latenciesMs) {
    await admin.setLatency(latency);
    for (const scenario of scenarios.filter((s) => profile.parts.has(s.key) || (isFeed(s.key) && profile.parts.has('feed')))) {
      results.push(await measure(servers, admin, scenario, latency, profile.connections, profile.warmupSeconds, profile.measureSeconds));
      // Right after the BFF's own run: the same world, the same moment of the machine.
      for (const twin of twins.filter((t) => t.keys.includes(scenario.key))) {
        results.push(await measure(servers, admin, twinScenario(scenario, twin), latency, profile.connections, profile.warmupSeconds, profile.measureSeconds));
      }
    }
    if (profile.parts.has('floor') && profile.parts.has('categories')) {
      for (let round = 2; round <= profile.pairRounds; round++) {
        for (const scenario of [byKey('floor'), byKey('categories')]) {
          const again = { ...scenario, label: `${scenario.label}, pair ${round} of ${profile.pairRounds}` };
          results.push({ ...(await measure(servers, admin, again, latency, profile.connections, profile.warmupSeconds, profile.measureSeconds)), pair: round });
        }
      }
    }
    if (profile.parts.has('probes')) {
      // Latency with a few clients at once (4), the list against its REST floor.
      for (const key of ['list-cards', 'rest-floor-list']) {
        const scenario = { ...byKey(key), label: `${byKey(key).label}, ${PROBE_CONNECTIONS} conns` };
        results.push(await measure(servers, admin, scenario, latency, PROBE_CONNECTIONS, Math.min(profile.warmupSeconds, 1), profile.probeSeconds));
      }
    }
  }
  // The twins are done: none stays alive through the parts that follow.
  await Promise.all(Object.values(twinServices).map((twin) => twin.stop()));
  const feedLoad = profile.parts.has('feed-load') ? await measureFeedLoad(servers, admin, byKey, profile) : null;
  let feedStampede: StampedeResult | null = null;
  if (profile.parts.has('stampede')) {
    await admin.setLatency(10);
    feedStampede = await stampede(bff.origin, STAMPEDE_REQUESTS, () => admin.calls(), () => admin.resetCalls());
    log(`stampede: ${feedStampede.requests} app opens at once on a cold feed, backend 10 ms: ${feedStampede.ok} answered, ${feedStampede.builds} build(s), calls ${JSON.stringify(feedStampede.calls)}, ${feedStampede.ms} ms`);
  }
  await admin.clearFaults();
  const fleet: FleetResult | null = profile.parts.has('fleet')
    ? await measureFleet({
        bffEnv,
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
    memory = await memoryCheck(servers, admin, byKey('list-cards'), profile, rssAtRestMb);
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
      pollIntervalMs: loadConfig({ ...process.env, ...bffEnv }).live.pollIntervalMs,
      profile: profile.quick
        ? { subscribers: 500, partners: 5, campaignsPerPartner: 20, rounds: 5, countIntervals: 2, cycles: 1 }
        : { subscribers: 5000, partners: 5, campaignsPerPartner: 20, rounds: 15, countIntervals: 5, cycles: 2 },
      log,
    });
  }
  const wrong = wrongScenarios({ results, memory, feedLoad, stampede: feedStampede, fleet, live });
  const context = {
    version: 1,
    startedAt: new Date(started).toISOString(),
    seconds: Math.round((Date.now() - started) / 100) / 10,
    machine,
    tree,
    loadAverageAtEnd: os.loadavg().map((n) => Math.round(n * 100) / 100),
    pinned: driverPinned ? { bff: 0, floor: 0, floorLine: 0, stockApollo: 0, restFloor: 0, emulator: 1, driver: 1 } : null,
    profile: { ...profile, parts: [...profile.parts] },
    bff: { env: bffEnv, inheritedSettings, nodeArgs: profile.bffNodeArgs, backendConnections },
  };
  mkdirSync(`${REPO_ROOT}bench/results`, { recursive: true });
  if (wrong.length > 0) {
    // Figures measured on wrong answers are not the BFF's: none is printed or kept as a result.
    writeFileSync(`${REPO_ROOT}${REJECTED_FILE}`, `${JSON.stringify({ ...context, rejected: wrong }, null, 2)}\n`);
    process.stdout.write(`\n${formatRejection(wrong, REJECTED_FILE)}\n`);
  } else {
    rmSync(`${REPO_ROOT}${REJECTED_FILE}`, { force: true });
    const targets = [
      ...checkTargets(results, { load: profile.connections, probe: PROBE_CONNECTIONS }, memory, rssAtRestMb),
      ...feedTargets(results, profile.connections, feedLoad, feedStampede, fleet),
    ];
    const report = {
      ...context,
      traceSink: traceSink ? await (await fetch(`${traceSink.origin}/stats`)).json() : null,
      results,
      rss: { atRestMb: rssAtRestMb, idleAfterMemoryCheckMb: memory?.idleAfterMb ?? null },
      memory,
      subscriptions: live,
      feed: { load: feedLoad, stampede: feedStampede, fleet },
      targets,
    };
    writeFileSync(`${REPO_ROOT}${LATEST_FILE}`, `${JSON.stringify(report, null, 2)}\n`);
    const ordered = [...results].sort((a, b) => a.backendLatencyMs - b.backendLatencyMs);
    process.stdout.write(
      [
        '',
        `${profile.quick ? 'Quick' : 'Full'} bench, ${machine.cores} cores ${machine.cpuModel}, Node ${machine.node}, ` +
          `load average at start ${machine.loadAverage.join(' ')}, at end ${context.loadAverageAtEnd.join(' ')}${driverPinned ? '; BFF and reference servers on core 0, emulator and driver on core 1' : ''}`,
        ...(Object.keys(inheritedSettings).length ? [`BFF settings from the environment: ${JSON.stringify(inheritedSettings)}`] : []),
        ...(profile.bffNodeArgs.length ? [`BFF node options: ${profile.bffNodeArgs.join(' ')}`] : []),
        tree ? `tree: ${tree.commit}${tree.changed.length ? ` with ${tree.changed.length} changed files (${tree.changed.join(', ')})` : ', clean'}` : 'tree: not a git checkout',
        '',
        formatTable(ordered),
        '',
        memory ? formatMemory(memory) : 'memory check not run',
        '',
        live ? formatSubscriptions(live) : 'live status scenario not run',
        '',
        ...(feedLoad ? [formatFeedLoad(feedLoad), ''] : []),
        ...(fleet
          ? [`Fleet: 2 instances sharing redis-server, ${fleet.connections} connections at 10 ms: ${Math.round(fleet.requestsPerSecond)} req/s, ${fleet.feedBuilds} feed build(s) in ${fleet.seconds.toFixed(1)} s, backend calls ${JSON.stringify(fleet.backendCalls)}; a stop through A left B's feed in ${fleet.stopReachedOtherInstanceMs ?? '> 5000'} ms`, '']
          : []),
        ...(feedStampede
          ? [`Stampede: ${feedStampede.requests} app opens at once on a cold feed (backend 10 ms): ${feedStampede.ok} answered in ${feedStampede.ms} ms, ${feedStampede.builds} build(s), backend calls ${JSON.stringify(feedStampede.calls)}`, '']
          : []),
        formatTargets(targets),
        '',
        `every answer right and every backend call count minimal: written to ${LATEST_FILE} (${context.seconds} s)`,
        '',
      ].join('\n'),
    );
  }

  // The profile is written when the BFF exits by itself, after its graceful shutdown.
  await Promise.all([floor.stop(), floorLine.stop(), stockApollo.stop(), restFloor.stop(), feedFloor.stop(), bff.stop(profile.cpuProfile ? 20_000 : 3000)]);
  await traceSink?.stop();
  await emulator.stop();
  if (profile.cpuProfile) {
    const file = mainThreadProfile(PROFILE_DIR, bff.pid);
    if (file) process.stdout.write(`${formatProfile(summarizeProfile(file))}\n`);
    else log(`no .cpuprofile in ${PROFILE_DIR}: the BFF did not exit cleanly`);
  }
  if (wrong.length > 0) log(`exit code 2: run rejected (see ${REJECTED_FILE})`);
  return wrong.length === 0;
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
