import type { IncomingMessage } from 'node:http';
import type { Credentials } from '../http/auth.js';
import type { Execution, Executors } from '../pipeline/executors.js';
import type { GraphQLParams } from '../pipeline/params.js';
import type { Pipeline, Prepared } from '../pipeline/pipeline.js';
import { refusal } from '../pipeline/rules.js';
import type { Caller, Refusal, Situation } from '../pipeline/types.js';
import type { GraphQLContext } from '../schema/context.js';
import type { LiveStatus } from './hub.js';

/**
 * What the stream transports (GraphQL over WebSocket and over SSE) share, so that each only speaks
 * its protocol: who the caller is (the one caller resolution, from the headers or a
 * `connection_init` payload alike), whether a stream may open for it (the pipeline's admission:
 * the one token check, then this instance's count of the partner's connections), the pipeline's
 * judgement of each operation, and the one executor's `subscribe`. A refusal is a `Refusal`
 * whatever stage made it; each transport tells it in its own words (a close code, an HTTP status,
 * an `error` message), its errors formatted by the one formatter.
 */
export interface StreamsOptions {
  callerOf(credentials: Credentials): Caller | Refusal;
  clientAddress(req: IncomingMessage): string;
  pipeline: Pipeline;
  executors: Pick<Executors<unknown>, 'subscribe'>;
  live: LiveStatus;
  /** `SUBSCRIPTION_CONNECTIONS_PER_PARTNER`. */
  connectionsPerPartner: number;
  /** The context of one subscription: the request context with `live`, for this token. */
  contextFor(token: string, signal: AbortSignal): GraphQLContext;
  /** Told about every refusal (the metrics count the limits they name). */
  onRefusal?(refusal: Refusal): void;
}

/** A stream the pipeline let open: its partner's situation, until `close`. */
export interface OpenStream {
  readonly situation: Situation;
  /** Judges one operation sent on the stream (a `subscribe` payload's, an SSE request's parameters). */
  prepare(params: GraphQLParams): Promise<Prepared | Refusal>;
  /** Runs a prepared subscription with the partner's context; `signal` ends its backend calls with the stream. */
  subscribe(prepared: Prepared, signal: AbortSignal): Promise<AsyncIterableIterator<Execution> | Execution>;
  /** The stream ended: its place among the partner's connections is free. */
  close(): void;
}

export type OpenStreams = (credentials: Credentials, transport: 'websocket' | 'sse', req: IncomingMessage) => Promise<OpenStream | Refusal>;

export function createStreams(options: StreamsOptions): OpenStreams {
  const { pipeline, live } = options;
  const refused = (value: Refusal): Refusal => {
    options.onRefusal?.(value);
    return value;
  };
  return async (credentials, transport, req) => {
    const caller = options.callerOf(credentials);
    if ('errors' in caller) return refused(caller);
    const situation: Situation = { caller, transport, client: options.clientAddress(req) };
    const admission = await pipeline.admit(situation);
    if (admission) return refused(admission);
    // Admission lets partners alone through, with a token the campaign API accepted.
    if (caller.kind !== 'partner') throw new Error('A stream was admitted for a caller without a partner token.');
    const { token } = caller;
    if (!live.admit(token, options.connectionsPerPartner)) {
      return refused(refusal(429, `Too many connections: this partner already has ${options.connectionsPerPartner}.`, 'SUBSCRIPTION_LIMIT_EXCEEDED'));
    }
    let open = true;
    return {
      situation,
      async prepare(params) {
        const prepared = await pipeline.prepare(params, situation);
        return 'errors' in prepared ? refused(prepared) : prepared;
      },
      subscribe: (prepared, signal) => options.executors.subscribe(prepared, options.contextFor(token, signal)),
      close() {
        if (!open) return;
        open = false;
        live.leave(token);
      },
    };
  };
}
