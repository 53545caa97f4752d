import type { StampedeResult } from './feed.js';
import type { FleetResult } from './fleet.js';
import type { LoadResult } from './load.js';
import { formatCalls, type MemoryCheck, type ScenarioResult } from './report.js';
import type { CallCounts } from './emulator-admin.js';
import type { SubscriptionsResult } from './subscriptions.js';

/**
 * Whether a run may be reported: figures measured on wrong answers, or on more backend
 * calls than the minimum, are not the figures of the BFF, so such a run is refused as a whole.
 */

/**
 * The REST operation the category directory reads again once its copy is CATEGORY_TTL_MS old, or
 * once the token in use is due to be checked again (it checks a token by reading with it).
 */
export const DIRECTORY_REFRESH = 'categories/get';

/**
 * The backend calls of a measured window with the category directory's own refreshes set apart.
 * The directory reads the backend again once its copy is `ttlMs` old, whatever the traffic, so a
 * window that spans that moment sees a call no request of it made (a run that is a few seconds
 * longer moves a scenario onto it). At most one for every `ttlMs` the window spans, plus one, are
 * the directory's; more stay in the counts and fail the scenario. In a scenario whose minimal
 * calls include this operation, or that has none to check, nothing is set apart.
 */
export function withoutDirectoryRefreshes(calls: CallCounts, expected: Record<string, number> | null, windowMs: number, ttlMs: number): { calls: CallCounts; refreshes: number } {
  const count = calls[DIRECTORY_REFRESH] ?? 0;
  if (count === 0 || expected === null || DIRECTORY_REFRESH in expected) return { calls, refreshes: 0 };
  if (count > Math.floor(windowMs / ttlMs) + 1) return { calls, refreshes: 0 };
  const { [DIRECTORY_REFRESH]: _refreshes, ...rest } = calls;
  return { calls: rest, refreshes: count };
}

/** A scenario whose answers were wrong or whose backend calls were not minimal. */
export interface WrongScenario {
  scenario: string;
  /** null where the part has no single latency or connection count. */
  backendLatencyMs: number | null;
  connections: number | null;
  problems: string[];
  /** The first body that failed its check, where the part kept one. */
  firstWrongBody: string | null;
}

/** A row of the feed-load part (app opens, then the partner query). */
export interface FeedLoadAnswers {
  scenario: string;
  connections: number;
  backendLatencyMs: number;
  failed: number;
  firstWrongBody?: string;
}

/** Everything a run answered, part by part; null for a part the run did not include. */
export interface RunAnswers {
  results: ScenarioResult[];
  memory: MemoryCheck | null;
  feedLoad: FeedLoadAnswers[] | null;
  stampede: StampedeResult | null;
  fleet: FleetResult | null;
  live: SubscriptionsResult | null;
}

function loadProblems(load: Pick<LoadResult, 'errors' | 'non2xx' | 'mismatches' | 'stoppedEarly'>): string[] {
  return [
    load.errors > 0 ? `${load.errors} connection errors` : '',
    load.non2xx > 0 ? `${load.non2xx} non-2xx` : '',
    load.mismatches > 0 ? `${load.mismatches} wrong bodies` : '',
    load.stoppedEarly ? 'stopped before its last answer' : '',
  ].filter(Boolean);
}

function scenarioProblems(r: ScenarioResult): string[] {
  const problems = loadProblems(r);
  // Every row with a call target counts, the REST floor's too: a floor making other calls is no floor.
  if (r.callsAsExpected === false) problems.push(`backend calls per request ${formatCalls(r.callsPerRequest)}, minimal ${formatCalls(r.expectedCalls ?? {})}`);
  return problems;
}

function liveProblems(live: SubscriptionsResult): string[] {
  const reads = live.backendCallsPerInterval['campaigns/get-all-campaigns'] ?? 0;
  return [
    live.deliveries.missing > 0 ? `${live.deliveries.missing} deliveries missing` : '',
    live.deliveries.duplicates > 0 ? `${live.deliveries.duplicates} deliveries duplicated or foreign` : '',
    reads > live.expectedCallsPerInterval * 1.25 ? `${reads} backend reads per interval for ${live.expectedCallsPerInterval} pages (more than 25% over)` : '',
    live.freed.subscriptions > 0 ? `${live.freed.subscriptions} subscriptions left after every subscriber left` : '',
    live.freed.backendCallsAfter > 0 ? `${live.freed.backendCallsAfter} backend reads after every subscriber left` : '',
  ].filter(Boolean);
}

/** Every scenario whose answers were wrong; the run is reported only when there is none. */
export function wrongScenarios(run: RunAnswers): WrongScenario[] {
  const wrong: WrongScenario[] = [];
  const add = (scenario: string, latency: number | null, connections: number | null, problems: string[], firstWrongBody?: string) => {
    if (problems.length > 0) wrong.push({ scenario, backendLatencyMs: latency, connections, problems, firstWrongBody: firstWrongBody ?? null });
  };
  for (const r of run.results) add(r.label, r.backendLatencyMs, r.connections, scenarioProblems(r), r.sampleFailure);
  const { memory, stampede, fleet, live } = run;
  if (memory) add(`memory check: ${memory.scenario}`, memory.backendLatencyMs, memory.connections, loadProblems(memory.load), memory.sampleFailure);
  for (const row of run.feedLoad ?? []) add(row.scenario, row.backendLatencyMs, row.connections, row.failed > 0 ? [`${row.failed} failed answers`] : [], row.firstWrongBody);
  if (stampede) {
    const failed = stampede.requests - stampede.ok;
    add('stampede (cold app feed)', 10, stampede.requests, failed > 0 ? [`${failed} of ${stampede.requests} answers not 200 with data`] : [], stampede.firstWrongAnswer);
  }
  if (fleet) add('fleet (two instances on Redis)', fleet.backendLatencyMs, fleet.connections, fleet.failed > 0 ? [`${fleet.failed} failed answers`] : []);
  if (live) add('live status (subscriptions)', null, live.subscribers, liveProblems(live));
  return wrong;
}

/** What a rejected run prints instead of its table. */
export function formatRejection(wrong: WrongScenario[], file: string): string {
  return [
    `RUN REJECTED: ${wrong.length} scenario(s) answered wrong or made other than the minimal backend calls, so no figure of this run is reported.`,
    ...wrong.map(
      (w) =>
        `  - ${w.scenario}` +
        (w.backendLatencyMs !== null ? ` @${w.backendLatencyMs} ms` : '') +
        (w.connections !== null ? `, ${w.connections} conns` : '') +
        `: ${w.problems.join('; ')}` +
        `\n      first wrong body: ${w.firstWrongBody ?? '(none kept)'}`,
    ),
    `details in ${file}`,
  ].join('\n');
}
