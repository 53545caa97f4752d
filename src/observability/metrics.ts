import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallReport } from '../campaign-api/api.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One registry per BFF instance (not prom-client's global one), so several instances in one
 * process (tests) keep their own counts.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

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
  const breakerState = new Gauge({
    name: 'bff_backend_breaker_state',
    help: 'Circuit breaker state of the backend: 0 closed, 1 half-open, 2 open.',
    registers: [registry],
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
    setBreakerState(state: 'closed' | 'half-open' | 'open'): void {
      breakerState.set(state === 'closed' ? 0 : state === 'half-open' ? 1 : 2);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
