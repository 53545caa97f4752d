import { figuresOf, ratiosOf } from '../lib/interleave.js';
import { alignedTable } from '../lib/text-table.js';
import { formatCalls, type ScenarioResult } from '../lib/report.js';
import type { WrongScenario } from '../lib/verdict.js';

/** The table `--compare` prints: each row's figures on both builds, and their ratio. */

export interface ComparedRow {
  key: string;
  label: string;
  backendLatencyMs: number;
  /** Every round's run on each build, in round order; null when the row could not run. */
  runs: { base: ScenarioResult[]; now: ScenarioResult[] } | null;
  /** Why the row could not run, naming the build. */
  unable?: string;
}

const fixed = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The backend calls a build made per request, when they are not the row's minimal ones. */
function callsNote(build: string, runs: ScenarioResult[]): string {
  const off = runs.find((r) => r.callsAsExpected === false);
  return off ? `${build} made ${formatCalls(off.callsPerRequest)} backend calls per request (minimal: ${formatCalls(off.expectedCalls ?? {})})` : '';
}

export function formatComparison(rows: ComparedRow[], base: string, wrong: WrongScenario[]): string {
  const header = ['row', 'backend', `CPU µs/req ${base}`, 'CPU µs/req now', 'now ÷ base', `req/s ${base}`, 'req/s now', 'now ÷ base', `p50 ms ${base}`, 'p50 ms now'];
  const table: string[][] = [];
  const notes: string[] = [];
  for (const row of rows) {
    const backend = `${row.backendLatencyMs} ms`;
    if (!row.runs) {
      table.push([row.label, backend, 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a']);
      notes.push(`${row.label} @${backend}: ${row.unable}`);
      continue;
    }
    const before = figuresOf(row.runs.base);
    const after = figuresOf(row.runs.now);
    const ratio = ratiosOf(row.runs.base, row.runs.now);
    table.push([
      row.label,
      backend,
      fixed(before.cpuUsPerRequest, 1),
      fixed(after.cpuUsPerRequest, 1),
      fixed(ratio.cpu, 3),
      fixed(before.requestsPerSecond),
      fixed(after.requestsPerSecond),
      fixed(ratio.requestsPerSecond, 3),
      fixed(before.p50Ms, 1),
      fixed(after.p50Ms, 1),
    ]);
    const calls = [callsNote(base, row.runs.base), callsNote('the working tree', row.runs.now)].filter(Boolean);
    if (calls.length) notes.push(`${row.label} @${backend}: ${calls.join('; ')}`);
  }
  return [
    `Each figure the median of its rounds; each ratio the median of the rounds' ratios (working tree ÷ ${base}): below 1 by CPU, above 1 by req/s, is better.`,
    alignedTable(header, table),
    ...notes.map((n) => `note: ${n}`),
    ...(wrong.length
      ? [`WRONG ANSWERS: ${wrong.length} run(s) answered wrong or stopped early; their rows' figures are not the builds' (details in compare.json):`, ...wrong.map((w) => `  - ${w.scenario}: ${w.problems.join('; ')}; first wrong body ${w.firstWrongBody ?? '(none kept)'}`)]
      : []),
  ].join('\n');
}
