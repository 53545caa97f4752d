import { mkdirSync, writeFileSync } from 'node:fs';
import type { RequestSpec } from 'autocannon';
import { bffEnvironment, DEMO_AGGREGATOR_TOKEN, DEMO_STORE_TOKEN, seedWorld, startBff, startEmulator, warmCategoriesBody } from '../lib/bff.js';
import type { Service } from '../lib/children.js';
import { feedScenarios, warmFeedBody } from '../lib/feed.js';
import { interleave } from '../lib/interleave.js';
import { describeTree, type MachineInfo } from '../lib/machine.js';
import { log, measure, type Bench, type RunShape } from '../lib/measure.js';
import { COMPARABLE, partOf, type Profile } from '../lib/options.js';
import { REPO_ROOT, WORKING_TREE, type ProductTree } from '../lib/product.js';
import type { ScenarioResult } from '../lib/report.js';
import { buildScenarios, type Scenario } from '../lib/scenarios.js';
import { wrongScenarios } from '../lib/verdict.js';
import { formatStages, measureStages, type StagesResult } from '../stages/stages.js';
import { checkoutCommit } from './checkout.js';
import { formatComparison, type ComparedRow } from './table.js';

/**
 * `npm run bench -- --compare <commit>`: the commit built beside the working tree, both BFFs
 * started against the same emulator (each with its own build's start options, the same
 * environment), both on core 0, the emulator and the driver on core 1; each row run on both in
 * rounds alternating which goes first; each row's ratio (working tree ÷ commit) by CPU per request
 * and by req/s, the median of the rounds. A row one build cannot answer (a query an older schema
 * lacks, a refused setting) is reported as such and measured on neither.
 */

const COMPARE_FILE = 'bench/results/compare.json';
const DEFAULT_ROUNDS = 5;

interface Side {
  build: string;
  tree: ProductTree;
  bff: Service;
  /** The side's scenarios, made from its own warm answers (an older build may word them otherwise). */
  scenarios: Scenario[];
  /** Why the side cannot run the warm scenarios at all, when it cannot. */
  broken?: string;
}

/** The body a scenario's first request sends, as autocannon would make it. */
function firstRequest(scenario: Scenario): RequestSpec {
  const spec = scenario.requests[0]!;
  return spec.setupRequest ? { ...spec, ...spec.setupRequest({ ...spec }, {}) } : spec;
}

/** Whether a build answers the scenario right: one request, checked as the load's answers are. */
async function probe(bff: Service, scenario: Scenario): Promise<string | null> {
  const request = firstRequest(scenario);
  try {
    const response = await fetch(`${bff.origin}${request.path ?? '/'}`, {
      method: request.method ?? 'GET',
      headers: request.headers ?? {},
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    const body = await response.text();
    return scenario.verify(body) ? null : `answers HTTP ${response.status}: ${body.slice(0, 160)}`;
  } catch (error) {
    return `no answer: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function prepareSide(build: string, tree: ProductTree, bff: Service, ids: number[]): Promise<Side> {
  try {
    const categoriesBody = await warmCategoriesBody(bff);
    const feedBody = await warmFeedBody(bff.origin).catch(() => '(no feed)');
    const scenarios = [...buildScenarios({ readToken: DEMO_STORE_TOKEN, createToken: DEMO_AGGREGATOR_TOKEN, ids, categoriesBody }), ...feedScenarios(feedBody)];
    return { build, tree, bff, scenarios };
  } catch (error) {
    return { build, tree, bff, scenarios: buildScenarios({ readToken: DEMO_STORE_TOKEN, createToken: DEMO_AGGREGATOR_TOKEN, ids, categoriesBody: '' }), broken: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}

/** The rows both builds run: the BFF's own scenarios among the parts asked for. */
function rowKeys(profile: Profile, side: Side): string[] {
  return side.scenarios.filter((s) => s.target === 'bff' && COMPARABLE.has(partOf(s.key)) && profile.parts.has(partOf(s.key))).map((s) => s.key);
}

export async function compare(profile: Profile, machine: MachineInfo): Promise<boolean> {
  const started = Date.now();
  const pin = machine.cores >= 2;
  const baseTree = checkoutCommit(profile.compare!);
  const tree = describeTree(REPO_ROOT);
  const { emulator, admin } = await startEmulator(pin);
  const bffEnv = bffEnvironment(emulator.origin);
  const bench: Bench = { admin, directoryTtlMs: bffEnv.directoryTtlMs };
  const start = (name: string, buildTree: ProductTree, nodeArgs: string[] = []) => startBff({ name, env: bffEnv.env, nodeArgs: [...profile.bffNodeArgs, ...nodeArgs], tree: buildTree, pin });
  const base = await start(`BFF ${baseTree.label}`, baseTree);
  const now = await start('BFF working tree', WORKING_TREE);
  const ids = await seedWorld(emulator.origin, admin, true);
  const sides = [await prepareSide(baseTree.label, baseTree, base, ids), await prepareSide('working tree', WORKING_TREE, now, ids)];
  for (const side of sides) if (side.broken) log(`--compare: ${side.build} cannot run the warm scenarios: ${side.broken}`);
  const rounds = profile.rounds ?? (profile.quick ? 2 : DEFAULT_ROUNDS);
  const keys = rowKeys(profile, sides[1]!);
  const perRun = profile.warmupSeconds + profile.measureSeconds + 1.5;
  log(
    `--compare ${baseTree.label}: ${keys.length} rows × ${profile.latenciesMs.length} latencies × ${rounds} rounds × 2 builds, about ` +
      `${Math.round((keys.length * profile.latenciesMs.length * rounds * 2 * perRun) / 60)} minutes (${profile.measureSeconds} s windows; --only, --latency, --rounds and --duration shorten it)`,
  );

  const rows: ComparedRow[] = [];
  const measured: ScenarioResult[] = [];
  for (const latency of profile.latenciesMs) {
    await admin.setLatency(latency);
    const shape: RunShape = { backendLatencyMs: latency, connections: profile.connections, warmupSeconds: profile.warmupSeconds, measureSeconds: profile.measureSeconds };
    for (const key of keys) {
      const scenarioOf = (side: Side) => side.scenarios.find((s) => s.key === key);
      const unable = await Promise.all(sides.map(async (side) => side.broken ?? (scenarioOf(side) ? await probe(side.bff, scenarioOf(side)!) : 'no such scenario')));
      const label = scenarioOf(sides[1]!)!.label;
      if (unable.some((u) => u !== null)) {
        const why = unable.map((u, i) => (u === null ? '' : `cannot run on ${sides[i]!.build}: ${u}`)).filter(Boolean).join('; ');
        log(`${label} @${latency} ms: ${why}`);
        rows.push({ key, label, backendLatencyMs: latency, runs: null, unable: why });
        continue;
      }
      const runs = await interleave(sides, rounds, (side, round) =>
        measure(bench, side.bff, { ...scenarioOf(side)!, label: `${label} [${side.build}, round ${round}]` }, shape),
      );
      measured.push(...runs.flat());
      rows.push({ key, label, backendLatencyMs: latency, runs: { base: runs[0]!, now: runs[1]! } });
    }
  }
  await admin.clearFaults();
  await Promise.all([base.stop(), now.stop()]);

  const stages: StagesResult[] = [];
  if (profile.parts.has('stages') && sides.every((s) => !s.broken)) {
    await admin.setLatency(profile.latenciesMs[0] ?? 0);
    for (const side of sides) {
      const categories = side.scenarios.find((s) => s.key === 'categories')!;
      const shape: RunShape = { backendLatencyMs: profile.latenciesMs[0] ?? 0, connections: profile.connections, warmupSeconds: profile.warmupSeconds, measureSeconds: profile.measureSeconds };
      const split = await measureStages(bench, { build: side.build, start: (nodeArgs) => start(`BFF ${side.build} profiled`, side.tree, nodeArgs), warm: async (bff) => void (await warmCategoriesBody(bff)) }, categories, shape);
      measured.push(split.row);
      stages.push(split.stages);
    }
    await admin.clearFaults();
  }
  await emulator.stop();

  // A build making other backend calls than the minimal ones is a finding the table notes, not a wrong answer.
  const wrong = wrongScenarios({ results: measured.map((r) => ({ ...r, callsAsExpected: null })), memory: null, feedLoad: null, stampede: null, fleet: null, live: null });
  const summary = formatComparison(rows, baseTree.label, wrong);
  mkdirSync(`${REPO_ROOT}bench/results`, { recursive: true });
  writeFileSync(
    `${REPO_ROOT}${COMPARE_FILE}`,
    `${JSON.stringify({ version: 1, startedAt: new Date(started).toISOString(), seconds: Math.round((Date.now() - started) / 1000), machine, tree, base: baseTree.label, rounds, profile: { ...profile, parts: [...profile.parts] }, bff: { env: bffEnv.env, inheritedSettings: bffEnv.inherited }, rows, stages, wrong }, null, 2)}\n`,
  );
  process.stdout.write(
    [
      '',
      `Compare: working tree (${tree ? `${tree.commit}${tree.changed.length ? ` with ${tree.changed.length} changed files` : ''}` : 'not a git checkout'}) against ${baseTree.label}; ` +
        `${machine.cores} cores ${machine.cpuModel}, Node ${machine.node}, load average at start ${machine.loadAverage.join(' ')}; ` +
        `${pin ? 'both BFFs on core 0, emulator and driver on core 1; ' : ''}${rounds} rounds alternating which build goes first, ${profile.connections} connections, ${profile.measureSeconds} s windows`,
      '',
      summary,
      '',
      ...(stages.length ? [formatStages(stages), ''] : []),
      `written to ${COMPARE_FILE} (${Math.round((Date.now() - started) / 1000)} s)`,
      '',
    ].join('\n'),
  );
  return wrong.length === 0;
}
