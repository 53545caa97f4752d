import type { Service } from './children.js';
import { startBff, warmCategoriesBody } from './bff.js';
import { measure, type Bench, type RunShape } from './measure.js';
import { partOf, type Profile } from './options.js';
import type { ScenarioResult } from './report.js';
import { noRequestLogTwin, tracedTwin, twinScenario, type Scenario } from './scenarios.js';
import type { World } from './world.js';
import { measureStages, type StagesResult } from '../stages/stages.js';

/** The table's rows: every scenario at each latency, the interleaved rounds, the stages, the probes. */

/** Concurrent clients of the probes: the list-cards p50 target is at 4. */
export const PROBE_CONNECTIONS = 4;

/** Whether a run's parts include a scenario. */
export function selected(profile: Profile, key: string): boolean {
  return profile.parts.has(partOf(key));
}

/**
 * The rows of the floor, warm categories and mercurius that follow a latency's scenarios: rounds
 * 2 and on, each in the other order from the round before (the first round is the rows in their
 * place), so no server always runs after the same one.
 */
export function roundOrder(round: number, keys: readonly string[]): string[] {
  return round % 2 === 0 ? [...keys].reverse() : [...keys];
}

export async function measureRows(world: World, bench: Bench, profile: Profile, scenarios: Scenario[]): Promise<{ results: ScenarioResult[]; stages: StagesResult | null }> {
  const results: ScenarioResult[] = [];
  let stages: StagesResult | null = null;
  const byKey = (key: string) => scenarios.find((s) => s.key === key)!;
  const targetOf = (scenario: Scenario): Service => {
    const target = world.servers[scenario.target];
    if (!target) throw new Error(`scenario ${scenario.key} needs the ${scenario.target} server, which this run did not start`);
    return target;
  };
  const twins = [...(world.traceSink ? [tracedTwin(world.traceSink.origin)] : []), noRequestLogTwin].filter((t) => world.twins[t.target]);
  for (const latency of profile.latenciesMs) {
    const shape: RunShape = { backendLatencyMs: latency, connections: profile.connections, warmupSeconds: profile.warmupSeconds, measureSeconds: profile.measureSeconds };
    await bench.admin.setLatency(latency);
    for (const scenario of scenarios.filter((s) => selected(profile, s.key))) {
      results.push(await measure(bench, targetOf(scenario), scenario, shape));
      // Right after the BFF's own run: the same world, the same moment of the machine.
      for (const twin of twins.filter((t) => t.keys.includes(scenario.key))) {
        const again = twinScenario(scenario, twin);
        results.push(await measure(bench, targetOf(again), again, shape));
      }
    }
    if (profile.parts.has('floor') && profile.parts.has('categories')) {
      const keys = ['floor', 'categories', ...(profile.parts.has('mercurius') ? ['mercurius'] : [])];
      for (let round = 2; round <= profile.pairRounds; round++) {
        for (const key of roundOrder(round, keys)) {
          const again = { ...byKey(key), label: `${byKey(key).label}, pair ${round} of ${profile.pairRounds}` };
          results.push({ ...(await measure(bench, targetOf(again), again, shape)), pair: round });
        }
      }
    }
    if (profile.parts.has('stages') && stages === null) {
      const split = await measureStages(
        bench,
        {
          build: 'working tree',
          start: (nodeArgs) => startBff({ name: 'BFF profiled', env: world.bffEnv.env, nodeArgs: [...profile.bffNodeArgs, ...nodeArgs], pin: world.pinned }),
          warm: async (bff) => void (await warmCategoriesBody(bff)),
        },
        byKey('categories'),
        shape,
      );
      results.push(split.row);
      stages = split.stages;
    }
    if (profile.parts.has('probes')) {
      // Latency with a few clients at once (4), the list against its REST floor.
      for (const key of ['list-cards', 'rest-floor-list']) {
        const scenario = { ...byKey(key), label: `${byKey(key).label}, ${PROBE_CONNECTIONS} conns` };
        results.push(await measure(bench, targetOf(scenario), scenario, { ...shape, connections: PROBE_CONNECTIONS, warmupSeconds: Math.min(profile.warmupSeconds, 1), measureSeconds: profile.probeSeconds }));
      }
    }
  }
  return { results, stages };
}
