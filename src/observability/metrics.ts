import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallReport } from '../campaign-api/api.js';
import { BUILD_VERSION } from './build.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type BreakerState = 'closed' | 'half-open' | 'open';
const BREAKER_VALUES: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export interface BuildFacts {
  /** The commit the running build was made from (`BUILD_COMMIT`), when the build says. */
  commit?: string | undefined;
}

/**
 * One registry per BFF instance (not prom-client's global one), so several instances in one
 * process (tests) keep their own counts.
 */
export function createMetrics(build: BuildFacts = {}) {
  const registry = new Registry();
  // The process's CPU, resident memory, heap, event loop delay and GC: what memory and saturation alerts read.
  collectDefaultMetrics({ register: registry });

  // Which build each instance runs, for a dashboard's version panel and for joining it onto
  // other series (`* on(instance) group_left(version) bff_build_info`) during a rollout.
  new Gauge({
    name: 'bff_build_info',
    help: 'The running build: always 1, with the package version, the Node.js version and the commit (when known) as labels.',
    labelNames: ['version', 'node_version', 'commit'] as const,
    registers: [registry],
  }).set({ version: BUILD_VERSION, node_version: process.versions.node, ...(build.commit ? { commit: build.commit } : {}) }, 1);

  // The memory the process may use (its container's limit), so an alert can read resident memory
  // as a share of it, whatever limit a deployment sets; 0 where there is no limit to read.
  const memoryLimit = process.constrainedMemory();
  new Gauge({
    name: 'bff_memory_limit_bytes',
    help: 'The memory this process may use: the limit of its container (cgroup), or 0 when it has none.',
    registers: [registry],
  }).set(memoryLimit > 0 && memoryLimit <= Number.MAX_SAFE_INTEGER ? memoryLimit : 0);

  // Each Redis connection this instance holds, read at scrape time from the client itself.
  // bounded: the Redis clients the composition root names.
  const redisClients = new Map<string, () => boolean>();
  new Gauge({
    name: 'bff_redis_connected',
    help: 'Whether each Redis client of this instance (cache, feed coordination, live status bus) is connected and ready (1) or not (0).',
    labelNames: ['client'] as const,
    registers: [registry],
    collect() {
      for (const [client, connected] of redisClients) this.set({ client }, connected() ? 1 : 0);
    },
  });

  const graphqlRequests = new Counter({
    name: 'bff_graphql_requests_total',
    help: 'GraphQL requests by operation name and outcome (ok, user_error, error code).',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const graphqlDuration = new Histogram({
    name: 'bff_graphql_request_duration_seconds',
    help: 'GraphQL request latency by operation name and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const backendCalls = new Counter({
    name: 'bff_backend_calls_total',
    help: 'Calls to the campaign REST API by operation and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const backendDuration = new Histogram({
    name: 'bff_backend_call_duration_seconds',
    help: 'Campaign REST API call latency (all attempts) by operation and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const backendRetries = new Counter({
    name: 'bff_backend_retries_total',
    help: 'Extra attempts made by the REST client, by operation.',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  // Read at scrape time: set after each call, an instance that stops calling would show the
  // breaker open long after its wait is over, and an alert on it would not end.
  let readBreaker: (() => BreakerState) | undefined;
  const breakerState = new Gauge({
    name: 'bff_backend_breaker_state',
    help: 'Circuit breaker state of the backend: 0 closed, 1 half-open, 2 open.',
    registers: [registry],
    collect() {
      if (readBreaker) this.set(BREAKER_VALUES[readBreaker()]);
    },
  });
  const cacheLookups = new Counter({
    name: 'bff_cache_lookups_total',
    help: 'Cache lookups by cache (categories, apq) and result (hit, stale, miss, error).',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
  });
  const limitRejections = new Counter({
    name: 'bff_limit_rejections_total',
    help: 'Requests refused by a limit, by limit.',
    labelNames: ['limit'] as const,
    registers: [registry],
  });

  return {
    registry,
    graphqlRequests,
    graphqlDuration,
    backendRetries,
    breakerState,
    cacheLookups,
    limitRejections,
    /** Feeds the REST client's per-call reports into the backend metrics. */
    recordBackendCall(report: CallReport): void {
      backendCalls.inc({ operation: report.operation, outcome: report.outcome });
      backendDuration.observe({ operation: report.operation, outcome: report.outcome }, report.durationMs / 1000);
      if (report.attempts > 1) backendRetries.inc({ operation: report.operation }, report.attempts - 1);
    },
    /** Where `bff_backend_breaker_state` is read from at each scrape. */
    watchBreaker(read: () => BreakerState): void {
      readBreaker = read;
    },
    /** Reports a Redis client's readiness in `bff_redis_connected{client}` (only clients in use have a series). */
    watchRedis(client: 'cache' | 'feed_coordination' | 'live_bus', connected: () => boolean): void {
      redisClients.set(client, connected);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
