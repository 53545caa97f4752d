import type { IncomingMessage } from 'node:http';
import type { DocumentNode, GraphQLError } from 'graphql';
import { paramsOf } from '../pipeline/params.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Refusal } from '../pipeline/types.js';

/** What a streaming transport runs: the prepared operation, as graphql-js's `subscribe` takes it. */
export interface PreparedOperation {
  document: DocumentNode;
  operationName: string | undefined;
  variableValues: Record<string, unknown> | undefined;
}

/** A subscription's request as its transport carried it (a graphql-ws `subscribe` payload, an SSE body). */
export interface OperationRequest {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
  /** GraphQL over HTTP's name for a trusted document, also taken here. */
  documentId?: unknown;
}

export type OperationPreparer = (
  request: OperationRequest,
  token: string,
  transport: 'websocket' | 'sse',
  req: IncomingMessage,
) => Promise<PreparedOperation | readonly GraphQLError[]>;

/**
 * The streaming transports' way into the pipeline: a subscription gets every rule a request over
 * HTTP gets (trusted documents, the token limit, validation and its limits, operation types,
 * variables, cost), from the same list, judged on the same cached document.
 */
export function createOperationPreparer(pipeline: Pipeline, clientAddress: (req: IncomingMessage) => string, onRefusal?: (refusal: Refusal) => void): OperationPreparer {
  return async (request, token, transport, req) => {
    const params = paramsOf(request);
    const prepared = 'errors' in params ? params : await pipeline.prepare(params, { caller: { kind: 'partner', token }, transport, client: clientAddress(req) });
    if ('errors' in prepared) {
      onRefusal?.(prepared);
      return prepared.errors;
    }
    return {
      document: prepared.document.document,
      operationName: prepared.operationName,
      variableValues: prepared.variables ? { ...prepared.variables } : undefined,
    };
  };
}
