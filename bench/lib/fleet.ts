import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { feedBuildsIn, metricsOf } from './bff-metrics.js';
import { redisAvailable, startRedis } from '../../test/helpers/redis.js';
import { freePort, startService, type Service } from './children.js';
import type { EmulatorAdmin } from './emulator-admin.js';
import { appHeaders, COLD_APP_KEY, COLD_TOKEN, FEED_APP_KEY, feedPath } from './feed.js';
import { fire } from './load.js';

/**
 * Two BFF instances sharing a real redis-server in front of the same emulator: app
 * opens on both at once, counting the feed builds of the fleet; then a `stopCampaign` through
 * instance A, timing until instance B no longer serves the card.
 */
export interface FleetResult {
  connections: number;
  backendLatencyMs: number;
  seconds: number;
  requestsPerSecond: number;
  feedBuilds: number;
  backendCalls: Record<string, number>;
  failed: number;
  /** From the stopCampaign answer on A to the first answer of B without the card. */
  stopReachedOtherInstanceMs: number | null;
}

const builds = async (bff: Service): Promise<number> => feedBuildsIn(await metricsOf(bff));

const feedIds = async (bff: Service, key: string): Promise<string[]> => {
  const response = await fetch(`${bff.origin}${feedPath}`, { headers: appHeaders(key), signal: AbortSignal.timeout(10_000) });
  const body = (await response.json()) as { data: { offerFeed: { nodes: { id: string }[] } } };
  return body.data.offerFeed.nodes.map((n) => n.id);
};

export async function measureFleet(options: {
  bffEnv: Record<string, string>;
  admin: EmulatorAdmin;
  connections: number;
  warmupSeconds: number;
  measureSeconds: number;
  pin: boolean;
  log: (message: string) => void;
}): Promise<FleetResult | null> {
  if (!redisAvailable) {
    options.log('fleet: redis-server is not installed; the two-instance run is skipped');
    return null;
  }
  const redis = await startRedis();
  // A fleet on Redis shares one secret (production refuses to start on Redis without it).
  const cursorSecret = randomBytes(32).toString('base64url');
  const services: Service[] = [];
  try {
    for (const name of ['BFF A (Redis)', 'BFF B (Redis)']) {
      const port = await freePort();
      services.push(
        await startService({
          name,
          program: { product: 'bff' },
          env: { ...options.bffEnv, PORT: String(port), CACHE_URL: redis.url, CURSOR_SECRET: cursorSecret },
          discardStdout: true,
          ...(options.pin ? { core: 0 } : {}),
          port,
          metricsPort: await freePort(),
          readyPath: '/healthz',
        }),
      );
    }
    const [a, b] = services as [Service, Service];
    const { admin } = options;
    await admin.setLatency(10);
    await feedIds(a, FEED_APP_KEY);
    await feedIds(b, FEED_APP_KEY);
    const request = { method: 'GET' as const, path: feedPath, headers: appHeaders(FEED_APP_KEY) };
    const half = Math.max(1, Math.round(options.connections / 2));
    await Promise.all([a, b].map((s) => fire({ url: s.origin, connections: half, requests: [request], durationSeconds: options.warmupSeconds, hardStopMs: 60_000 })));
    await admin.resetCalls();
    const before = (await builds(a)) + (await builds(b));
    const loads = await Promise.all(
      [a, b].map((s) =>
        fire({ url: s.origin, connections: half, requests: [request], durationSeconds: options.measureSeconds, hardStopMs: options.measureSeconds * 3000 + 30_000 }),
      ),
    );
    const seconds = Math.max(...loads.map((l) => l.seconds));
    const result: FleetResult = {
      connections: half * 2,
      backendLatencyMs: 10,
      seconds,
      requestsPerSecond: loads.reduce((sum, l) => sum + l.requestsPerSecond, 0),
      feedBuilds: (await builds(a)) + (await builds(b)) - before,
      backendCalls: await admin.calls(),
      failed: loads.reduce((sum, l) => sum + l.errors + l.non2xx + l.mismatches, 0),
      stopReachedOtherInstanceMs: null,
    };

    // A change through A, seen from B.
    const shown = await feedIds(b, COLD_APP_KEY);
    await feedIds(a, COLD_APP_KEY);
    const target = shown[0];
    if (target) {
      const stop = await fetch(`${a.origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${COLD_TOKEN}` },
        body: JSON.stringify({ query: `mutation { stopCampaign(id: "${target}") { campaign { status } } }` }),
        signal: AbortSignal.timeout(10_000),
      });
      await stop.text();
      const stoppedAt = performance.now();
      while (performance.now() - stoppedAt < 5000) {
        if (!(await feedIds(b, COLD_APP_KEY)).includes(target)) {
          result.stopReachedOtherInstanceMs = Math.round(performance.now() - stoppedAt);
          break;
        }
        await sleep(5);
      }
    }
    await admin.clearFaults();
    options.log(
      `fleet: 2 instances on Redis, ${result.connections} connections at 10 ms: ${Math.round(result.requestsPerSecond)} req/s, ` +
        `${result.feedBuilds} feed build(s) in ${seconds.toFixed(1)} s, a stop through A left B's feed in ${result.stopReachedOtherInstanceMs ?? 'more than 5000'} ms`,
    );
    return result;
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await redis.close();
  }
}
