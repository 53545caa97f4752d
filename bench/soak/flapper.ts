import type { Backend } from './backend.js';

/** The backend's bad moods, one per failing phase; every emulator fault mode appears. */
export const FAULT_PROFILES: { label: string; faults: Record<string, unknown>[] }[] = [
  { label: 'HTTP 500 on half the calls', faults: [{ mode: 'http500', probability: 0.5 }] },
  { label: 'connection resets on 30%', faults: [{ mode: 'reset', probability: 0.3 }] },
  { label: 'slow: 40% of calls take 800 ms', faults: [{ mode: 'latency', probability: 0.4, latencyMs: 800 }] },
  { label: 'campaigns/get hangs on 20%', faults: [{ mode: 'hang', operation: 'campaigns/get', probability: 0.2 }] },
  { label: 'malformed JSON on 30%', faults: [{ mode: 'malformed', probability: 0.3 }] },
  { label: 'campaigns/info breaks its contract', faults: [{ mode: 'contract', operation: 'campaigns/info' }] },
  { label: 'error envelopes with HTTP 200 on 30%', faults: [{ mode: 'error200', probability: 0.3 }] },
  { label: 'down: HTTP 500 on everything', faults: [{ mode: 'http500' }] },
  {
    label: 'writes failing: create resets, add-pins 500s, redeem hangs',
    faults: [
      { mode: 'reset', operation: 'campaigns/create', probability: 0.5 },
      { mode: 'http500', operation: 'campaigns/add-pins', probability: 0.5 },
      { mode: 'hang', operation: 'campaigns/redeem', probability: 0.3 },
      { mode: 'latency', operation: 'campaigns/start', latencyMs: 900, probability: 0.5 },
    ],
  },
];

export interface Flapper {
  /** Phases run so far, by label (healthy included). */
  phases: Record<string, number>;
  stop(): Promise<void>;
}

/** Alternates healthy and failing phases of `phaseMs` each until stopped; ends healthy. */
export function startFlapping(backend: Backend, phaseMs: number, random: () => number, log: (m: string) => void, onPhase: (failing: boolean) => void): Flapper {
  const phases: Record<string, number> = {};
  let failing = false;
  let stopped = false;
  let current = Promise.resolve();

  const flip = async () => {
    failing = !failing;
    // Answers from here on count as the failing phase's only once its faults are set.
    if (!failing) onPhase(false);
    await backend.admin('faults', undefined, 'DELETE');
    let label = 'healthy';
    if (failing) {
      const profile = FAULT_PROFILES[Math.floor(random() * FAULT_PROFILES.length)]!;
      for (const fault of profile.faults) await backend.admin('faults', fault);
      label = profile.label;
    }
    phases[label] = (phases[label] ?? 0) + 1;
    onPhase(failing);
    log(`backend ${label}`);
  };

  const timer = setInterval(() => {
    if (stopped) return;
    current = current.then(flip).catch((error: unknown) => log(`could not change the faults: ${String(error)}`));
  }, phaseMs);
  phases.healthy = 1;

  return {
    phases,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
      await backend.admin('faults', undefined, 'DELETE');
    },
  };
}
