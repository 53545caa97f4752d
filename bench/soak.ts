import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, killAllNow, startService, type Service } from './lib/children.js';
import { peakRssMb, rssMb } from './lib/proc-stats.js';
import { Backend } from './soak/backend.js';
import { startFlapping } from './soak/flapper.js';
import { readOptions, USAGE, type SoakOptions } from './soak/options.js';
import { preparePartners } from './soak/partners.js';
import { chooseAction, newStats, type Context, type Stats } from './soak/traffic.js';
import { verifyState, type StateCheck } from './soak/verify.js';
import { startWatchers, type WatchReport } from './soak/watchers.js';
import { seeded } from './lib/seeded.js';

/**
 * `npm run soak`: the BFF and the emulator as child processes on loopback, several partners
 * sending mixed traffic while the backend flaps, then a verdict. See bench/soak/options.ts for
 * the flags and the exit codes.
 */

const MEMORY_GROWTH_LIMIT = 0.2;
/** In healthy phases at least this share of requests must answer without any error: the breaker closes again. */
const HEALTHY_CLEAN_MIN = 0.5;
const REGISTERED_PARTNERS = 4;
const log = (message: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Report {
  options: SoakOptions;
  seconds: number;
  partners: number;
  requests: number;
  requestsPerSecond: number;
  withErrors: number;
  byPhase: Stats['byPhase'];
  byStatus: Record<string, number>;
  byAction: Record<string, number>;
  codes: Record<string, number>;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  phases: Record<string, number>;
  rssMb: { start: number; baseline: number; end: number; peak: number; growth: number; samples: number[] };
  state: StateCheck[];
  live: WatchReport;
  bffErrorLines: string[];
  failures: string[];
}

async function run(options: SoakOptions): Promise<Report> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  log(`starting the emulator and the BFF (loopback ports ${emulatorPort}, ${bffPort})`);
  const emulator = await startService({
    name: 'emulator',
    program: { product: 'emulator' },
    env: { EMULATOR_PORT: String(emulatorPort), EMULATOR_HOST: '127.0.0.1' },
    port: emulatorPort,
    readyPath: '/_emulator/calls',
  });
  const bff: Service = await startService({
    name: 'BFF',
    program: { product: 'bff' },
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(bffPort),
      CAMPAIGN_API_URL: emulator.origin,
      // Only errors: any line the BFF logs during the soak is a finding.
      LOG_LEVEL: 'error',
      BACKEND_ATTEMPT_TIMEOUT_MS: '500',
      BACKEND_BUDGET_MS: '1500',
      BACKEND_BREAKER_HALF_OPEN_MS: '1000',
      // Live status read often, so the subscribers see many changes while the backend flaps.
      SUBSCRIPTION_POLL_INTERVAL_MS: '500',
      SUBSCRIPTION_POLL_BACKOFF_MAX_MS: '2000',
    },
    port: bffPort,
    metricsPort: await freePort(),
    readyPath: '/healthz',
  });
  const backend = new Backend(emulator.origin);
  const random = seeded(options.seed);
  const partners = await preparePartners(backend, REGISTERED_PARTNERS, `${process.pid}-${Date.now()}`);
  let counter = 0;
  const ctx: Context = { bffUrl: `${bff.origin}/graphql`, backend, partners, random, next: () => ++counter };
  const stats: Stats = newStats();

  // Subscribers held open for the whole run: their memory is in the baseline, their leaving is judged.
  const watchers = startWatchers(bff.origin, bff.metricsUrl!, partners, options.subscribers);
  const rss = { start: rssMb(bff.pid), baseline: 0, samples: [] as number[] };
  log(`${partners.length} partners ready; BFF RSS ${rss.start.toFixed(1)} MB; load for ${options.durationMs / 1000} s at ${options.concurrency} in flight, backend flapping every ${options.flapMs / 1000} s`);

  const started = performance.now();
  const deadline = started + options.durationMs;
  const flapper = startFlapping(backend, options.flapMs, random, (m) => log(m), (failing) => (stats.failingNow = failing));
  const sampler = setInterval(() => {
    rss.samples.push(Math.round(rssMb(bff.pid) * 10) / 10);
    const elapsed = (performance.now() - started) / 1000;
    if (rss.samples.length % 6 === 0) log(`${stats.requests} requests and ${watchers.events()} live events in ${elapsed.toFixed(0)} s, RSS ${rss.samples.at(-1)} MB`);
  }, 5000);
  const baselineTimer = setTimeout(() => {
    rss.baseline = rssMb(bff.pid);
    log(`memory baseline after warm-up: ${rss.baseline.toFixed(1)} MB`);
  }, options.warmupMs);

  let sent = 0;
  const worker = async () => {
    while (performance.now() < deadline && sent < options.maxRequests) {
      sent++;
      const partner = partners[Math.floor(random() * partners.length)]!;
      const action = chooseAction(random);
      try {
        await action.run(ctx, partner, stats);
      } catch (error) {
        // Transport failures towards the BFF itself (it never refuses a connection on loopback).
        stats.anomalies.length < 50 && stats.anomalies.push(`${action.name}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
        stats.requests++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  clearTimeout(baselineTimer);
  if (rss.baseline === 0) rss.baseline = rss.samples[0] ?? rss.start;
  await flapper.stop();
  log(`load done: ${stats.requests} requests in ${seconds.toFixed(1)} s; backend healthy again, verifying its state`);

  // Late answers of the slow phases may still land; let them, then judge.
  await sleep(2000);
  const state = await verifyState(backend, partners);
  const live = await watchers.stop(backend);
  const end = rssMb(bff.pid);
  const peak = peakRssMb(bff.pid);
  const bffErrorLines = bff.tail().split('\n').filter((line) => line.trim() !== '' && !line.includes('Campaign GraphQL BFF') && !/^\s{2}\S/.test(line));
  await bff.stop();
  await emulator.stop();

  const sorted = Float64Array.from(stats.latenciesMs).sort();
  const growth = (end - rss.baseline) / rss.baseline;
  const failures: string[] = [];
  const status5xx = Object.entries(stats.byStatus).filter(([s]) => Number(s) >= 500).reduce((n, [, c]) => n + c, 0);
  if (status5xx) failures.push(`${status5xx} answers with a 5xx status`);
  if (stats.serverErrors.length) failures.push(`server errors: ${stats.serverErrors.slice(0, 5).join(' | ')}`);
  if (stats.leaks.length) failures.push(`cross-partner leaks: ${stats.leaks.slice(0, 5).join(' | ')}`);
  if (stats.anomalies.length) failures.push(`anomalies: ${stats.anomalies.slice(0, 5).join(' | ')}`);
  if (growth > MEMORY_GROWTH_LIMIT) failures.push(`BFF memory grew ${(growth * 100).toFixed(1)}% (${rss.baseline.toFixed(1)} → ${end.toFixed(1)} MB), over ${MEMORY_GROWTH_LIMIT * 100}%`);
  for (const check of state) for (const problem of check.problems) failures.push(`${check.partner}: ${problem}`);
  if (live.endedEarly.length) failures.push(`${live.endedEarly.length} of ${live.subscribers} subscriptions ended while the backend flapped: ${live.endedEarly.slice(0, 3).join(' | ')}`);
  if (live.chainBreaks.length) failures.push(`live events out of order: ${live.chainBreaks.slice(0, 3).join(' | ')}`);
  if (live.leaks.length) failures.push(`live events about another partner's campaigns: ${live.leaks.slice(0, 3).join(' | ')}`);
  if (live.leftOpen.subscriptions + live.leftOpen.partners + live.leftOpen.connections > 0) {
    failures.push(`after every subscriber left the BFF still holds ${JSON.stringify(live.leftOpen)}`);
  }
  if (bffErrorLines.length) failures.push(`the BFF logged errors: ${bffErrorLines.slice(0, 3).join(' | ')}`);
  const healthy = stats.byPhase.healthy;
  if (healthy.requests > 0 && healthy.clean / healthy.requests < HEALTHY_CLEAN_MIN) {
    failures.push(`while the backend was healthy only ${healthy.clean} of ${healthy.requests} requests answered without an error (at least ${HEALTHY_CLEAN_MIN * 100}% expected)`);
  }

  return {
    options,
    seconds,
    partners: partners.length,
    requests: stats.requests,
    requestsPerSecond: stats.requests / seconds,
    withErrors: stats.withErrors,
    byPhase: stats.byPhase,
    byStatus: stats.byStatus,
    byAction: stats.byAction,
    codes: stats.codes,
    latencyMs: { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 },
    phases: flapper.phases,
    rssMb: { start: rss.start, baseline: rss.baseline, end, peak, growth, samples: rss.samples },
    state,
    live,
    bffErrorLines,
    failures,
  };
}

function format(r: Report): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const pct = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : '-');
  const sortedEntries = (o: Record<string, number>) => Object.entries(o).sort((a, b) => b[1] - a[1]);
  const lines = [
    '',
    `Soak report: ${r.seconds.toFixed(0)} s, ${r.partners} partners, ${r.options.concurrency} requests in flight, backend flapping every ${r.options.flapMs / 1000} s (seed ${r.options.seed})`,
    '',
    `requests        ${n(r.requests)} (${r.requestsPerSecond.toFixed(0)}/s), ${n(r.withErrors)} with a top-level error`,
    `by phase        backend healthy: ${n(r.byPhase.healthy.requests)} requests, ${pct(r.byPhase.healthy.clean, r.byPhase.healthy.requests)} without any error; failing: ${n(r.byPhase.failing.requests)} requests, ${pct(r.byPhase.failing.clean, r.byPhase.failing.requests)} without any error`,
    `HTTP status     ${sortedEntries(r.byStatus).map(([s, c]) => `${s}: ${n(c)}`).join(', ')}`,
    `latency         p50 ${ms(r.latencyMs.p50)}, p90 ${ms(r.latencyMs.p90)}, p99 ${ms(r.latencyMs.p99)}, max ${ms(r.latencyMs.max)}`,
    `by action       ${sortedEntries(r.byAction).map(([a, c]) => `${a} ${n(c)}`).join(', ')}`,
    'error entries   (top-level code/reason, and user errors; a list answer can hold one per node)',
    ...sortedEntries(r.codes).map(([code, c]) => `                ${n(c).padStart(9)}  ${code}`),
    'backend phases  ' + sortedEntries(r.phases).map(([label, c]) => `${label} ×${c}`).join('; '),
    `BFF RSS         start ${r.rssMb.start.toFixed(1)} MB, after warm-up ${r.rssMb.baseline.toFixed(1)} MB, end ${r.rssMb.end.toFixed(1)} MB (${r.rssMb.growth >= 0 ? '+' : ''}${(r.rssMb.growth * 100).toFixed(1)}%), peak ${r.rssMb.peak.toFixed(1)} MB`,
    `live status     ${r.live.subscribers} subscribers (WebSocket and SSE) held open: ${n(r.live.events)} events, ${r.live.endedEarly.length} dropped, ${r.live.chainBreaks.length} out of order, ${r.live.leaks.length} about another partner; after they left: ${r.live.leftOpen.subscriptions} watchers, ${r.live.leftOpen.partners} partners read, ${r.live.leftOpen.connections} connections`,
    'backend state   (confirmed / refused / timed out → at the backend)',
    ...r.state.map(
      (s) =>
        `  ${s.partner.padEnd(26)} campaigns ${s.campaigns.initial}+${s.campaigns.confirmed}/${s.campaigns.refused}/${s.campaigns.unknown} → ${s.campaigns.atBackend} (${s.campaigns.unknownStored} timed-out creates stored); ` +
        `pins ${s.pins.confirmed}/${s.pins.refused}/${s.pins.unknown} → ${s.pins.atBackend}; leads ${s.leads.confirmed}/${s.leads.refused}/${s.leads.unknown} → ${s.leads.atBackend}${s.problems.length ? '  ✗' : '  ✓'}`,
    ),
    '',
    r.failures.length ? `FAIL\n  ${r.failures.join('\n  ')}` : 'PASS: no 5xx, no leak, no error logged, memory within 20%, backend state as reported, clean answers while the backend was healthy, subscribers held and freed',
    '',
  ];
  return lines.join('\n');
}

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAllNow();
    process.exit(1);
  });
}

try {
  const options = readOptions(process.argv.slice(2), process.env);
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const report = await run(options);
  process.stdout.write(format(report));
  if (options.json) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
  process.exit(report.failures.length ? 1 : 0);
} catch (error) {
  process.stderr.write(`soak could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  killAllNow();
  process.exit(1);
}
