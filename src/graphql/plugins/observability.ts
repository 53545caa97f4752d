import type { ApolloServerPlugin } from '@apollo/server';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import { ErrorCode, formatError } from '../errors.js';

const MAX_OPERATION_LABELS = 200;

/** What the server adds to every GraphQL context so a request can be followed. */
export interface RequestMeta {
  requestId: string;
  /** Backend calls this request made (all attempts count once per call). */
  backend: { calls: number };
}

/**
 * One log line and one set of metrics per GraphQL request: operation name, outcome, duration,
 * backend calls and error codes. Nothing per field, so the hot path stays cheap.
 */
export function observabilityPlugin<C extends RequestMeta>(metrics: Metrics, logger: Logger): ApolloServerPlugin<C> {
  // Operation names come from clients: bound the label values so metrics cannot be flooded.
  const knownNames = new Set<string>();
  const label = (name: string) => {
    if (knownNames.has(name)) return name;
    if (knownNames.size >= MAX_OPERATION_LABELS || name.length > 64) return 'other';
    knownNames.add(name);
    return name;
  };
  return {
    async requestDidStart({ contextValue }) {
      const started = performance.now();
      return {
        async didEncounterErrors({ errors }) {
          // Clients see an opaque "Internal server error."; the cause belongs in the log. Errors
          // formatError maps to a code of their own (a backend outage, a bad answer) are expected.
          for (const error of errors) {
            if (formatError(error.toJSON(), error).extensions?.code === ErrorCode.INTERNAL_SERVER_ERROR) {
              logger.error({ requestId: contextValue.requestId, err: error.originalError ?? error, path: error.path }, 'unexpected error');
            }
          }
        },
        async willSendResponse({ response, operationName, errors, operation }) {
          const durationMs = performance.now() - started;
          const codes = [
            ...new Set(
              (errors ?? [])
                .map((e) => e.extensions?.code)
                .concat(response.body.kind === 'single' ? (response.body.singleResult.errors ?? []).map((e) => e.extensions?.code) : [])
                .filter((c): c is string => typeof c === 'string'),
            ),
          ];
          const hasData = response.body.kind === 'single' && response.body.singleResult.data != null;
          const outcome = codes.length === 0 ? 'ok' : hasData ? 'partial' : codes[0]!;
          const name = operationName ?? operation?.name?.value ?? 'anonymous';
          const labels = { operation: label(name), outcome };
          metrics.graphqlRequests.inc(labels);
          metrics.graphqlDuration.observe(labels, durationMs / 1000);
          logger.info(
            {
              requestId: contextValue.requestId,
              operation: name,
              operationType: operation?.operation,
              outcome,
              errorCodes: codes.length ? codes : undefined,
              durationMs: Math.round(durationMs * 10) / 10,
              backendCalls: contextValue.backend?.calls ?? 0,
            },
            'graphql request',
          );
        },
      };
    },
  };
}
