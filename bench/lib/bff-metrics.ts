import type { Service } from './children.js';

/** What the bench reads from a BFF's /metrics (Prometheus text, as prom-client writes it). */

export async function metricsOf(bff: Service): Promise<string> {
  if (!bff.metricsUrl) throw new Error(`${bff.name} was started without a METRICS_PORT: its metrics are not on its API port`);
  return (await fetch(bff.metricsUrl, { signal: AbortSignal.timeout(5000) })).text();
}

/** The feed builds made so far (`bff_feed_builds_total`, every outcome). */
export function feedBuildsIn(metrics: string): number {
  return [...metrics.matchAll(/^bff_feed_builds_total\{outcome="(?:ok|error)"\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/**
 * Requests with backend work under way or waiting to start it (`bff_admission_active` +
 * `bff_admission_waiting`); 0 when admission control is off, as nothing then waits.
 */
export function backendWorkUnderWayIn(metrics: string): number {
  return [...metrics.matchAll(/^bff_admission_(?:active|waiting) (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}
