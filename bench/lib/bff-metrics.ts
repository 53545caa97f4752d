import type { Service } from './children.js';

/** What the bench reads from a BFF's /metrics (Prometheus text, as prom-client writes it). */

/**
 * The BFF's metrics text: from its metrics listener (METRICS_PORT), or from its API port where a
 * build serves them there (an older commit under `--compare`, which knows no METRICS_PORT); empty
 * when neither answers.
 */
export async function metricsOf(bff: Service): Promise<string> {
  for (const url of [bff.metricsUrl, `${bff.origin}/metrics`]) {
    if (url === undefined) continue;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const text = await response.text();
      if (response.ok) return text;
    } catch {
      // nothing listening there: the other place, if any
    }
  }
  return '';
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
