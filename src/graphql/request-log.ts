import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { answerSender, requestLineWriter, type Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { DOCUMENTED_OPERATIONS } from '../observability/operation-names.js';
import { outcomeLabel } from '../observability/outcomes.js';
import { annotateRequestSpan, type AnswerPath } from '../tracing/graphql.js';
import { activeTracer } from '../tracing/state.js';
import { ErrorCode } from './errors.js';

const NO_CODES: readonly string[] = [];
const NO_ERRORS: readonly GraphQLFormattedError[] = [];
/** The backend calls of a request answered without an execution: read only, shared by all of them. */
const NO_CALLS: RequestMeta['backend'] = Object.freeze({ calls: 0 });

/** What the server adds to every GraphQL context so a request can be followed. */
export interface RequestMeta {
  requestId: string;
  /** Backend calls this request made (all attempts count once per call). */
  backend: { calls: number };
}

/** A request answered without running anything: no context, no backend call. */
export interface UnexecutedRecord {
  requestId: string;
  operationName?: string | undefined;
  operationType?: string | undefined;
  /** The code of a refusal; none for an answer that was remembered. */
  errorCode?: string | undefined;
  durationMs: number;
  path: 'remembered' | 'gate' | 'http';
}

export interface RequestRecord {
  meta: RequestMeta;
  operationName: string | undefined;
  operationType: string | undefined;
  /** Errors as the client sees them. */
  errors: readonly GraphQLFormattedError[];
  hasData: boolean;
  durationMs: number;
  path: AnswerPath;
}

export interface RecorderOptions {
  /**
   * The operation names the metrics count under their own label (the trusted documents' and the
   * documented ones by default); any other name is `other`, and a request without one `anonymous`.
   */
  knownOperations?: Iterable<string>;
  /**
   * How every error leaves the server: an error that leaves as an internal one is logged, with its
   * cause. By default, an error without a code is one.
   */
  format?: (error: GraphQLError) => GraphQLFormattedError;
}

const codeOnly = (error: GraphQLError): GraphQLFormattedError => ({ message: error.message, extensions: { code: error.extensions?.code ?? ErrorCode.INTERNAL_SERVER_ERROR } });

/**
 * One log line and one set of metrics per GraphQL request: operation name, outcome, duration,
 * backend calls and error codes. Nothing per field, so the hot path stays cheap. Shared by the
 * Apollo plugin, the compiled-operation path and the HTTP layer (for what the app gate answers
 * itself), so all report alike.
 */
export function createRequestRecorder(metrics: Metrics, logger: Logger, options: RecorderOptions = {}) {
  const format = options.format ?? codeOnly;
  const writeLine = requestLineWriter(logger);
  // Operation names come from clients: only names the service knows of are label values. Not the
  // first names to arrive, which any client could take up with made-up ones (and which would
  // differ from one instance to the next); the request line still has every name.
  const knownNames: ReadonlySet<string> = new Set<string>([...(options.knownOperations ?? DOCUMENTED_OPERATIONS), 'anonymous']);
  const label = (name: string) => (knownNames.has(name) ? name : 'other');
  function record({ meta, operationName, operationType, errors, hasData, durationMs, path }: RequestRecord): void {
    // Most requests have no errors: no Set or arrays made for them.
    const codes = errors.length === 0 ? NO_CODES : [...new Set(errors.map((e) => e.extensions?.code).filter((c): c is string => typeof c === 'string'))];
    const outcome = codes.length === 0 ? 'ok' : hasData ? 'partial' : codes[0]!;
    const name = operationName ?? 'anonymous';
    const labels = { operation: label(name), outcome: codes.length === 0 || hasData ? outcome : outcomeLabel(outcome) };
    metrics.graphqlRequests.inc(labels);
    metrics.graphqlDuration.observe(labels, durationMs / 1000);
    if (activeTracer()) {
      annotateRequestSpan({
        operationName,
        label: labels.operation,
        operationType,
        outcome,
        errorCodes: codes,
        path,
        backendCalls: meta.backend?.calls ?? 0,
      });
    }
    writeLine({
      requestId: meta.requestId,
      operation: name,
      operationType,
      outcome,
      errorCodes: codes.length ? codes : undefined,
      durationMs: Math.round(durationMs * 10) / 10,
      backendCalls: meta.backend?.calls ?? 0,
      path,
    });
  }

  return {
    /**
     * What sends an answer whose line this recorder writes in the same turn: after the line, so
     * that no answer is sent whose line a process killed right after could lose.
     */
    sendAnswer: answerSender(logger),
    /** Clients see an opaque "Internal server error."; the cause belongs in the log. */
    reportErrors(meta: RequestMeta, errors: readonly GraphQLError[]): void {
      // Judged as the client will see them: errors that get a code of their own (a backend outage,
      // a bad answer, a client's mistake) are expected and show in the request's line.
      for (const error of errors) {
        if (format(error).extensions?.code === ErrorCode.INTERNAL_SERVER_ERROR) {
          logger.error({ requestId: meta.requestId, err: error.originalError ?? error, path: error.path }, 'unexpected error');
        }
      }
    },
    /** The same line and metrics for a request the gate answered itself (a remembered feed, a 304, a refusal). */
    recordUnexecuted({ requestId, operationName, operationType, errorCode, durationMs, path }: UnexecutedRecord): void {
      record({
        meta: { requestId, backend: NO_CALLS },
        operationName,
        operationType,
        errors: errorCode ? [{ message: errorCode, extensions: { code: errorCode } }] : NO_ERRORS,
        hasData: !errorCode,
        durationMs,
        path,
      });
    },
    record,
  };
}
