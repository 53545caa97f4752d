import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, startService, type Service } from '../lib/children.js';
import { figuresOf, interleave, ratiosOf, type SideFigures } from '../lib/interleave.js';
import { alignedTable } from '../lib/text-table.js';
import { log, measure, type Bench } from '../lib/measure.js';
import type { Profile } from '../lib/options.js';
import { formatCalls, type ScenarioResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenarios.js';
import { ensureHive, HIVE_DIR } from './install.js';
import { hiveScenarios, HIVE_ROWS } from './queries.js';

/**
 * The hive part: the same API through Hive Gateway, composed by Mesh Compose from the OpenAPI
 * document the emulator serves (the one zod contract the BFF's client and the emulator follow),
 * over the same emulator, against the BFF under test. Both on core 0, the emulator and the driver
 * on core 1; each row on each server in rounds alternating which goes first; CPU per request from
 * /proc, and each server's peak RSS over the part.
 */

/** The connections of the comparison as the figures it is held to were measured. */
const HIVE_CONNECTIONS = 20;

export interface HiveRow {
  key: string;
  label: string;
  backendLatencyMs: number;
  bff: SideFigures;
  hive: SideFigures;
  /** Hive ÷ BFF, the median of the rounds' ratios. */
  cpuRatio: number;
  requestsPerSecondRatio: number;
  callsPerRequest: { bff: Record<string, number>; hive: Record<string, number> };
}

export interface HiveResult {
  versions: Record<string, string>;
  installSeconds: number;
  connections: number;
  measureSeconds: number;
  rounds: number;
  table: HiveRow[];
  peakRssMb: { bff: number; hive: number };
  /** Every run of both servers, for the verdict. */
  rows: ScenarioResult[];
}

/** The supergraph of the emulator's OpenAPI document, composed by Mesh Compose into a temp file. */
function compose(composeScript: string, emulatorOrigin: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'campaign-bff-bench-hive-')), 'supergraph.graphql');
  const run = spawnSync(process.execPath, [composeScript, '-o', file], { cwd: HIVE_DIR, env: { ...process.env, EMULATOR_ORIGIN: emulatorOrigin }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`hive: mesh-compose failed (exit ${run.status}):\n${run.stderr || run.stdout}`);
  return file;
}

export interface HiveInputs {
  bench: Bench;
  bff: Service;
  /** The BFF's scenarios; the rows of HIVE_ROWS are taken from them. */
  bffScenarios: Scenario[];
  emulatorOrigin: string;
  profile: Profile;
  pin: boolean;
  ids: number[];
}

export async function measureHive(inputs: HiveInputs): Promise<HiveResult> {
  const { bench, profile } = inputs;
  const install = ensureHive();
  const supergraph = compose(install.compose, inputs.emulatorOrigin);
  const port = await freePort();
  const gateway = await startService({
    name: 'Hive Gateway',
    // From the supergraph's directory: in bench/hive it would take Mesh Compose's configuration for its own.
    program: { script: install.gateway, args: ['supergraph', supergraph, '--host', '127.0.0.1', '--port', String(port), '--fork', '1'], cwd: dirname(supergraph) },
    env: { NODE_ENV: 'production' },
    ...(inputs.pin ? { core: 0 } : {}),
    port,
    readyPath: '/healthcheck',
    discardStdout: true,
  });
  const hive = hiveScenarios(inputs.ids);
  const connections = profile.quick ? Math.min(profile.connections, HIVE_CONNECTIONS) : HIVE_CONNECTIONS;
  const rounds = profile.rounds ?? (profile.quick ? 1 : 2);
  const table: HiveRow[] = [];
  const rows: ScenarioResult[] = [];
  try {
    for (const latency of profile.latenciesMs) {
      await bench.admin.setLatency(latency);
      const shape = { backendLatencyMs: latency, connections, warmupSeconds: profile.warmupSeconds, measureSeconds: profile.measureSeconds };
      for (const key of HIVE_ROWS) {
        const ours = inputs.bffScenarios.find((s) => s.key === key)!;
        const theirs = hive.find((s) => s.key === key)!;
        const sides = [
          { service: inputs.bff, scenario: { ...ours, key: `hive-bff-${key}`, label: `${ours.label} [BFF]` } },
          { service: gateway, scenario: theirs },
        ];
        const [bffRuns, hiveRuns] = await interleave(sides, rounds, (side) => measure(bench, side.service, side.scenario, shape));
        rows.push(...bffRuns!, ...hiveRuns!);
        const ratio = ratiosOf(bffRuns!, hiveRuns!);
        table.push({
          key,
          label: ours.label,
          backendLatencyMs: latency,
          bff: figuresOf(bffRuns!),
          hive: figuresOf(hiveRuns!),
          cpuRatio: ratio.cpu,
          requestsPerSecondRatio: ratio.requestsPerSecond,
          callsPerRequest: { bff: bffRuns![0]!.callsPerRequest, hive: hiveRuns![0]!.callsPerRequest },
        });
      }
    }
  } finally {
    await bench.admin.clearFaults();
    await gateway.stop();
  }
  const peak = (runs: ScenarioResult[]) => Math.max(0, ...runs.map((r) => r.serverPeakRssMb));
  const result: HiveResult = {
    versions: install.versions,
    installSeconds: install.installSeconds,
    connections,
    measureSeconds: profile.measureSeconds,
    rounds,
    table,
    peakRssMb: { bff: peak(rows.filter((r) => r.target !== 'hive')), hive: peak(rows.filter((r) => r.target === 'hive')) },
    rows,
  };
  log(`hive: ${table.map((r) => `${r.label} @${r.backendLatencyMs} ms ${r.cpuRatio.toFixed(1)}× the BFF's CPU`).join(', ')}`);
  return result;
}

const fixed = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function formatHive(result: HiveResult): string {
  const header = ['row', 'backend', 'BFF µs/req', 'Hive µs/req', 'Hive ÷ BFF', 'BFF req/s', 'Hive req/s', 'BFF p50 ms', 'Hive p50 ms', 'backend calls/req BFF', 'Hive'];
  const rows = result.table.map((r) => [
    r.label,
    `${r.backendLatencyMs} ms`,
    fixed(r.bff.cpuUsPerRequest),
    fixed(r.hive.cpuUsPerRequest),
    `${fixed(r.cpuRatio, 1)}×`,
    fixed(r.bff.requestsPerSecond),
    fixed(r.hive.requestsPerSecond),
    fixed(r.bff.p50Ms, 1),
    fixed(r.hive.p50Ms, 1),
    formatCalls(r.callsPerRequest.bff),
    formatCalls(r.callsPerRequest.hive),
  ]);
  return [
    `Hive Gateway ${result.versions['@graphql-hive/gateway']} (Mesh Compose ${result.versions['@graphql-mesh/compose-cli']}, @omnigraph/openapi ${result.versions['@omnigraph/openapi']}) ` +
      `over the emulator's OpenAPI document, against the BFF: both on core 0, ${result.connections} connections, ${result.measureSeconds} s windows, ` +
      `${result.rounds} round(s) alternating which goes first, CPU from /proc (medians; the ratio is the median of the rounds' ratios)`,
    alignedTable(header, rows),
    `peak RSS over the part: BFF ${fixed(result.peakRssMb.bff)} MB, Hive Gateway ${fixed(result.peakRssMb.hive)} MB`,
  ].join('\n');
}
