import type { LoadResult } from './load.js';
import { isBff, noRequestLogTwin, type Target } from './scenarios.js';

/** What one scenario measured, as written to latest.json and printed. */
export interface ScenarioResult extends LoadResult {
  key: string;
  label: string;
  target: Target;
  backendLatencyMs: number;
  connections: number;
  /** Backend calls per request, by operation path, from the emulator's counters. */
  callsPerRequest: Record<string, number>;
  expectedCalls: Record<string, number> | null;
  /** null where the scenario has no call target. */
  callsAsExpected: boolean | null;
  /** Backend calls of the category directory's own refresh in the window, set apart from callsPerRequest. */
  directoryRefreshes?: number;
  /** CPU of the server under test over the run, in cores (1 = one core fully busy). */
  serverCpuCores: number;
  /**
   * Server CPU time per response in microseconds: what a request costs, whatever else runs on the
   * machine. 1e6 / this is the req/s one fully busy core would serve.
   */
  serverCpuUsPerRequest: number;
  serverPeakRssMb: number;
  /** False when the kernel would not reset the peak mark: the peak is then the process's lifetime peak. */
  peakRssPerScenario: boolean;
  /** The first wrong answer, if any. */
  sampleFailure?: string;
  /** Which of the interleaved floor and categories pairs this run belongs to, from 2 (run.ts, PAIR_ROUNDS); absent: the first. */
  pair?: number;
}

export interface MemoryCheck {
  scenario: string;
  backendLatencyMs: number;
  connections: number;
  seconds: number;
  /** The idle wait before the check, until the BFF was back near its RSS at rest (run.ts, settleRss). */
  settle: {
    /** RSS right after the parts before the check. */
    carriedInMb: number;
    restMb: number;
    /** Settled means within this many percent of restMb. */
    withinPercent: number;
    seconds: number;
    /** False when the wait hit its bound: the check's peak then includes what was carried in. */
    settled: boolean;
  };
  /** RSS when the load started. */
  idleBeforeMb: number;
  /** Median RSS over the first window once the load has run for `warmSeconds`. */
  startMb: number;
  warmSeconds: number;
  windowSeconds: number;
  peakMb: number;
  /** Median RSS over the last window. */
  endMb: number;
  idleAfterMb: number;
  growthPercent: number;
  /** Lowest RSS of each window: what is left after a major GC, where a leak shows first. */
  troughStartMb: number;
  troughEndMb: number;
  troughGrowthPercent: number;
  samplesMb: number[];
  load: LoadResult;
  /** The first wrong answer, if any. */
  sampleFailure?: string;
}

export interface TargetCheck {
  goal: string;
  measured: string;
  /** null for a figure reported without a verdict. */
  met: boolean | null;
}

const round = (n: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

const signed = (n: number, digits = 1) => `${n >= 0 ? '+' : ''}${round(n, digits)}`;

export function formatCalls(calls: Record<string, number>): string {
  const entries = Object.entries(calls).filter(([, n]) => n > 0);
  if (entries.length === 0) return '0';
  return entries
    .map(([op, n]) => `${op.replace(/^campaigns\//, '')} ${Number.isInteger(n) ? n : n.toFixed(3)}`)
    .join(' + ');
}

/** A pipe table, aligned for the terminal and valid Markdown for the README. */
export function formatTable(results: ScenarioResult[]): string {
  const header = ['scenario', 'backend', 'conns', 'req/s', 'p50 ms', 'p97.5 ms', 'p99 ms', 'backend calls/req', 'server CPU', 'CPU µs/req', 'peak RSS MB', 'failed'];
  const rows = results.map((r) => [
    r.label,
    `${r.backendLatencyMs} ms`,
    String(r.connections),
    String(Math.round(r.requestsPerSecond)),
    String(round(r.latencyMs.p50)),
    String(round(r.latencyMs.p97_5)),
    String(round(r.latencyMs.p99)),
    formatCalls(r.callsPerRequest),
    `${Math.round(r.serverCpuCores * 100)}%`,
    String(Math.round(r.serverCpuUsPerRequest)),
    String(Math.round(r.serverPeakRssMb)),
    // Always 0 in a printed table (a wrong answer rejects the run): shown as the proof it was checked.
    String(r.errors + r.non2xx + r.mismatches),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const numeric = new Set([2, 3, 4, 5, 6, 8, 9, 10, 11]);
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function formatTargets(checks: TargetCheck[]): string {
  return checks.map((c) => `${c.met === null ? '[ info ]' : c.met ? '[ met ]' : '[MISSED]'} ${c.goal}: ${c.measured}`).join('\n');
}

export function formatMemory(m: MemoryCheck): string {
  return (
    `memory: ${m.scenario} at ${m.backendLatencyMs} ms backend, ${m.connections} connections for ${m.seconds} s: ` +
    `idle ${round(m.settle.carriedInMb)} MB right after the parts before it, ` +
    `${m.settle.settled ? 'back to' : 'still'} ${round(m.idleBeforeMb)} MB after ${m.settle.seconds} s without load (at rest ${round(m.settle.restMb)} MB); median RSS over ${m.windowSeconds} s from ${m.warmSeconds} s ${round(m.startMb)} MB, over the last ${m.windowSeconds} s ${round(m.endMb)} MB ` +
    `(${signed(m.growthPercent)}%); after-GC troughs ${round(m.troughStartMb)} -> ${round(m.troughEndMb)} MB (${signed(m.troughGrowthPercent)}%); ` +
    `peak ${round(m.peakMb)} MB; idle after ${round(m.idleAfterMb)} MB ` +
    `(${Math.round(m.load.requestsPerSecond)} req/s, ${m.load.errors + m.load.non2xx + m.load.mismatches} failed)`
  );
}

/** The scenario's run at this latency and connections; of the floor and categories pairs, the first. */
function find(results: ScenarioResult[], key: string, latency: number, connections: number): ScenarioResult | undefined {
  return results.find((r) => r.key === key && r.backendLatencyMs === latency && r.connections === connections && r.pair === undefined);
}

/** The floor and warm-categories runs at one latency, paired in the order they ran (one pair when the run made no more). */
function categoriesPairs(results: ScenarioResult[], latency: number, connections: number): { floor: ScenarioResult; categories: ScenarioResult }[] {
  const runs = (key: string) => results.filter((r) => r.key === key && r.backendLatencyMs === latency && r.connections === connections);
  const floors = runs('floor');
  const categories = runs('categories');
  return floors.flatMap((floor) => {
    const twin = categories.find((c) => c.pair === floor.pair);
    return twin ? [{ floor, categories: twin }] : [];
  });
}

/** The middle value; of an even count, the mean of the two middle ones. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const pct = (ratio: number) => `${round(ratio * 100)}%`;
const us = (r: ScenarioResult) => Math.round(r.serverCpuUsPerRequest);
const rps = (r: ScenarioResult) => Math.round(r.requestsPerSecond);

/** The backend latency of the list-cards p50 target (10 ms per backend call). */
const P50_LATENCY_MS = 10;

/** The warm-categories target at one latency, and what the request log line costs there. */
function categoriesChecks(results: ScenarioResult[], latency: number, connections: number): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const floor = find(results, 'floor', latency, connections);
  const categories = find(results, 'categories', latency, connections);
  const pairs = categoriesPairs(results, latency, connections);
  if (pairs.length > 0) {
    // The issue words the target in req/s; CPU per request, which does not depend on other work
    // on the machine nor on the driver's limit, is shown beside it to tell a starved floor.
    const described = pairs.map(({ floor: f, categories: c }) => {
      const driverBound = f.serverCpuCores < 0.9;
      return (
        `${rps(c)} / ${rps(f)} req/s = ${pct(c.requestsPerSecond / f.requestsPerSecond)} ` +
        `(by CPU, not judged: ${us(f)} / ${us(c)} µs = ${pct(f.serverCpuUsPerRequest / c.serverCpuUsPerRequest)}` +
        (driverBound ? `; the floor ran at ${pct(f.serverCpuCores)} CPU, its req/s bounded by the driver` : '') +
        ')'
      );
    });
    const ratio = median(pairs.map(({ floor: f, categories: c }) => c.requestsPerSecond / f.requestsPerSecond));
    checks.push({
      goal: `warm categories >= 60% of the bare node:http floor's req/s in the same run, backend ${latency} ms` + (pairs.length > 1 ? `, median of ${pairs.length} interleaved pairs` : ''),
      measured: pairs.length > 1 ? `median ${pct(ratio)}; pairs in order: ${described.join('; ')}` : described[0]!,
      met: ratio >= 0.6,
    });
  }
  const floorLine = find(results, 'floor-line', latency, connections);
  if (floor && floorLine) {
    // What bounds the target: the same floor doing only what every BFF request must.
    checks.push({
      goal: `floor with the BFF's request line (JSON body, request id, log line and metrics), backend ${latency} ms`,
      measured:
        `${rps(floorLine)} req/s = ${pct(floorLine.requestsPerSecond / floor.requestsPerSecond)} of the floor (${us(floorLine)} vs ${us(floor)} µs/req)` +
        (categories ? `; warm categories ${pct(categories.requestsPerSecond / floorLine.requestsPerSecond)} of it (${us(categories)} µs/req)` : ''),
      met: null,
    });
  }
  const apolloClient = find(results, 'categories-apollo-client', latency, connections);
  if (categories && apolloClient) {
    checks.push({
      goal: `warm categories with Apollo Client's Accept header (application/graphql-response+json preferred), backend ${latency} ms`,
      measured: `${rps(apolloClient)} req/s, ${us(apolloClient)} µs/req; with Accept: application/json ${rps(categories)} req/s, ${us(categories)} µs/req`,
      met: null,
    });
  }
  const persisted = find(results, 'categories-persisted', latency, connections);
  if (categories && persisted) {
    checks.push({
      goal: `warm categories by persisted-query hash (Apollo Client's persisted-query link), backend ${latency} ms`,
      measured: `${rps(persisted)} req/s, ${us(persisted)} µs/req; as text ${rps(categories)} req/s, ${us(categories)} µs/req`,
      met: null,
    });
  }
  const quiet = find(results, `categories-${noRequestLogTwin.suffix.key}`, latency, connections);
  if (categories && quiet) {
    checks.push({
      goal: `request log line (warm categories, backend ${latency} ms)`,
      measured:
        `${signed(categories.serverCpuUsPerRequest - quiet.serverCpuUsPerRequest, 0)} µs CPU per request (${us(categories)} vs ${us(quiet)} µs/req), ` +
        `req/s ${rps(quiet)} without vs ${rps(categories)} with`,
      met: null,
    });
  }
  checks.push(...mercuriusChecks(results, latency, connections));
  return checks;
}

/**
 * Warm categories against the mercurius server written for it, both with a log line per request:
 * the rounds in which both ran (the median of their ratios), and mercurius without its line.
 */
function mercuriusChecks(results: ScenarioResult[], latency: number, connections: number): TargetCheck[] {
  const runs = (key: string) => results.filter((r) => r.key === key && r.backendLatencyMs === latency && r.connections === connections);
  const rounds = runs('mercurius').flatMap((m) => {
    const c = runs('categories').find((r) => r.pair === m.pair);
    return c ? [{ mercurius: m, categories: c }] : [];
  });
  if (rounds.length === 0) return [];
  const ratio = median(rounds.map((r) => r.categories.requestsPerSecond / r.mercurius.requestsPerSecond));
  const cpu = median(rounds.map((r) => r.categories.serverCpuUsPerRequest / r.mercurius.serverCpuUsPerRequest));
  const quiet = find(results, 'mercurius-no-log', latency, connections);
  return [
    {
      goal: `warm categories against mercurius written for the query (jit, its query cache, directory and token verdicts in memory, one log line per request each), backend ${latency} ms` + (rounds.length > 1 ? `, median of ${rounds.length} interleaved rounds` : ''),
      measured:
        `BFF ÷ mercurius by req/s ${round(ratio, 2)}, by CPU per request ${round(cpu, 2)}; rounds in order: ` +
        rounds.map((r) => `${rps(r.categories)} vs ${rps(r.mercurius)} req/s, ${us(r.categories)} vs ${us(r.mercurius)} µs/req`).join('; ') +
        (quiet ? `; mercurius without its log line ${rps(quiet)} req/s, ${us(quiet)} µs/req` : ''),
      met: null,
    },
  ];
}

/** The list-cards targets against the REST floor under load, at one latency. */
function listChecks(results: ScenarioResult[], latency: number, connections: number): TargetCheck[] {
  const cards = find(results, 'list-cards', latency, connections);
  const rest = find(results, 'rest-floor-list', latency, connections);
  if (!cards || !rest) return [];
  const cpuTimes = cards.serverCpuUsPerRequest / rest.serverCpuUsPerRequest;
  const ratio = cards.requestsPerSecond / rest.requestsPerSecond;
  return [
    {
      goal: `list cards CPU per request <= 1.5 x the REST floor's, ${connections} connections, backend ${latency} ms`,
      measured: `${us(cards)} vs ${us(rest)} µs/req = ${round(cpuTimes, 2)} x`,
      met: cpuTimes <= 1.5,
    },
    {
      goal: `list cards req/s >= 80% of the REST floor's, ${connections} connections, backend ${latency} ms`,
      measured: `${rps(cards)} / ${rps(rest)} req/s = ${pct(ratio)}`,
      met: ratio >= 0.8,
    },
  ];
}

/**
 * The targets, checked against this run, with the figures reported beside
 * them (what the request log line costs, the RSS at rest) as checks without a verdict.
 */
export function checkTargets(
  results: ScenarioResult[],
  connections: { load: number; probe: number },
  memory: MemoryCheck | null,
  rssAtRestMb: number,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const latencies = [...new Set(results.map((r) => r.backendLatencyMs))].sort((a, b) => a - b);

  for (const latency of latencies) checks.push(...categoriesChecks(results, latency, connections.load));

  const stock = find(results, 'stock-apollo', 0, connections.load);
  const warm = find(results, 'categories', 0, connections.load);
  if (stock && warm) {
    checks.push({
      goal: 'warm categories faster than stock Apollo Server 5 (standalone, defaults, same answer), backend 0 ms, by req/s and by CPU per request',
      measured: `${rps(warm)} vs ${rps(stock)} req/s = ${pct(warm.requestsPerSecond / stock.requestsPerSecond)}; CPU ${us(warm)} vs ${us(stock)} µs/req`,
      met: warm.requestsPerSecond > stock.requestsPerSecond && warm.serverCpuUsPerRequest < stock.serverCpuUsPerRequest,
    });
  }

  for (const latency of latencies) checks.push(...listChecks(results, latency, connections.load));
  const probe = find(results, 'list-cards', P50_LATENCY_MS, connections.probe);
  if (probe) {
    const restProbe = find(results, 'rest-floor-list', P50_LATENCY_MS, connections.probe);
    checks.push({
      goal: `list cards p50 <= 25 ms with ${P50_LATENCY_MS} ms per backend call and ${connections.probe} concurrent clients`,
      measured: `p50 ${round(probe.latencyMs.p50)} ms` + (restProbe ? ` (REST floor ${round(restProbe.latencyMs.p50)} ms)` : ''),
      met: probe.latencyMs.p50 <= 25,
    });
  }

  const withCallTargets = results.filter((r) => r.expectedCalls && isBff(r.target));
  if (withCallTargets.length > 0) {
    const wrong = withCallTargets.filter((r) => !r.callsAsExpected);
    checks.push({
      goal: 'backend calls per request exactly minimal in every BFF run: categories 0 (warm), card 1, campaignsByIds 50 (1 for one id 50 times), list ids 1, list cards 51, create 1',
      measured:
        wrong.length === 0
          ? `all ${withCallTargets.length} BFF runs exact`
          : wrong.map((r) => `${r.label} @${r.backendLatencyMs} ms/${r.connections}c: ${formatCalls(r.callsPerRequest)}, expected ${formatCalls(r.expectedCalls!)}`).join('; '),
      met: wrong.length === 0,
    });
  }

  if (memory) {
    checks.push({
      goal: `peak RSS of the BFF under ${memory.connections} connections for ${memory.seconds} s <= 200 MB`,
      measured:
        `${round(memory.peakMb)} MB (${memory.scenario}); ` +
        (memory.settle.settled
          ? `started from ${round(memory.idleBeforeMb)} MB, after ${memory.settle.seconds} s idle gave back what earlier parts left (${round(memory.settle.carriedInMb)} MB)`
          : `started still holding ${round(memory.idleBeforeMb)} MB from earlier parts (not back within ${memory.settle.withinPercent}% of rest after ${memory.settle.seconds} s): the peak includes it`),
      met: memory.peakMb <= 200,
    });
    checks.push({
      goal: `no RSS growth over the ${memory.seconds} s run (within +-10%, after ${memory.warmSeconds} s of warm-up; medians and after-GC troughs of ${memory.windowSeconds} s windows)`,
      measured:
        `median ${round(memory.startMb)} -> ${round(memory.endMb)} MB = ${signed(memory.growthPercent)}%, ` +
        `after-GC troughs ${round(memory.troughStartMb)} -> ${round(memory.troughEndMb)} MB = ${signed(memory.troughGrowthPercent)}%`,
      met: Math.abs(memory.growthPercent) <= 10 && Math.abs(memory.troughGrowthPercent) <= 10,
    });
  }
  checks.push({
    goal: 'RSS of the BFF at rest (after start-up and warm-up, before any load)',
    measured: `${round(rssAtRestMb)} MB` + (memory ? `; idle after the memory check ${round(memory.idleAfterMb)} MB` : ''),
    met: null,
  });
  return checks;
}
