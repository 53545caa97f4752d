import type { Service } from './children.js';
import { feedBuildsIn, metricsOf } from './bff-metrics.js';
import type { EmulatorAdmin } from './emulator-admin.js';
import type { StampedeResult } from './feed.js';
import type { FleetResult } from './fleet.js';
import { fire, keepingFirstWrong } from './load.js';
import { log, quiesce } from './measure.js';
import type { Profile } from './options.js';
import { peakRssMb, resetPeakRss } from './proc-stats.js';
import type { ScenarioResult, TargetCheck } from './report.js';
import { PAGE_SIZE, type Scenario } from './scenarios.js';

/** The app feed's parts beyond its rows: app opens at 200 connections, and the feed's targets. */

/** Connections of the feed-load run: app opens of many phones at once. */
export const FEED_LOAD_CONNECTIONS = 200;
/** The app opens run for 60 s in a full run: two freshness windows, so a second build would show. */
const FEED_LOAD_SECONDS = 60;
export const STAMPEDE_REQUESTS = 500;

export interface FeedLoadRow {
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
export async function measureFeedLoad(bff: Service, admin: EmulatorAdmin, byKey: (key: string) => Scenario, profile: Profile): Promise<FeedLoadRow[]> {
  await admin.setLatency(10);
  const rows: FeedLoadRow[] = [];
  for (const key of ['feed', 'feed-partner']) {
    const scenario = byKey(key);
    await fire({ url: bff.origin, connections: FEED_LOAD_CONNECTIONS, requests: scenario.requests, durationSeconds: profile.warmupSeconds, hardStopMs: 60_000 });
    await quiesce(admin, bff);
    await admin.resetCalls();
    const buildsBefore = feedBuildsIn(await metricsOf(bff));
    resetPeakRss(bff.pid);
    // The partner query's calls per minute are a rate: its usual run length tells them.
    const seconds = key === 'feed' && !profile.quick ? FEED_LOAD_SECONDS : profile.measureSeconds;
    const check = keepingFirstWrong(scenario.verify);
    const load = await fire({
      url: bff.origin,
      connections: FEED_LOAD_CONNECTIONS,
      requests: scenario.requests,
      verify: check.verify,
      durationSeconds: seconds,
      hardStopMs: seconds * 3000 + 30_000,
    });
    await quiesce(admin, bff);
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
      feedBuilds: (feedBuildsIn(await metricsOf(bff))) - buildsBefore,
      peakRssMb: peakRssMb(bff.pid),
      failed: load.errors + load.non2xx + load.mismatches,
      ...(firstWrongBody !== undefined ? { firstWrongBody } : {}),
    };
    rows.push(row);
    log(`${row.scenario} @10 ms, ${FEED_LOAD_CONNECTIONS}c: ${Math.round(row.requestsPerSecond)} req/s, p99 ${row.p99Ms} ms, ${Math.round(row.backendCallsPerMinute)} backend calls/min, ${row.feedBuilds} feed builds, peak RSS ${row.peakRssMb.toFixed(1)} MB, ${row.failed} failed`);
  }
  await admin.clearFaults();
  return rows;
}

export function formatFeedLoad(rows: FeedLoadRow[]): string {
  return [
    `App opens, ${FEED_LOAD_CONNECTIONS} connections, backend 10 ms per call:`,
    ...rows.map(
      (r) =>
        `  ${r.scenario.padEnd(40)} ${String(Math.round(r.requestsPerSecond)).padStart(7)} req/s  p99 ${String(r.p99Ms).padStart(4)} ms  ` +
        `${String(Math.round(r.backendCallsPerMinute)).padStart(9)} backend calls/min  feed builds ${r.feedBuilds}  peak RSS ${Math.round(r.peakRssMb)} MB  failed ${r.failed}`,
    ),
  ].join('\n');
}

export function feedTargets(
  results: ScenarioResult[],
  connections: number,
  load: FeedLoadRow[] | null,
  burst: StampedeResult | null,
  fleet: FleetResult | null,
) {
  const checks: TargetCheck[] = [];
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
