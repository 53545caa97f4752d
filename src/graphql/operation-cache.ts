import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import {
  execute,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { documentBytes } from './document-size.js';
import { formatGraphQLError } from './errors.js';
import type { RequestMeta, RequestRecorder } from './plugins/observability.js';
import type { SharedAnswers } from './shared-answers.js';
import { firstVariableError } from './variables.js';

/**
 * The hot path for operations Apollo has already accepted.
 *
 * Apollo's request pipeline (content negotiation, a SHA-256 of the query, the document store,
 * context cloning, a dozen awaited plugin hooks) costs several times the execution of a typical
 * BFF query. Front ends send the same few documents over and over, so once Apollo has parsed and
 * validated a document (every limit that depends on the document alone included), later requests
 * with the very same text execute that document directly. Everything that depends on the request
 * is still checked each time: variables are coerced, the cost limit sees the actual variables, the
 * context is made by the same factory, errors go through the same `formatError`, and metrics and
 * logs through the same recorder. Whatever this path would answer differently from Apollo
 * (invalid variables, a refused cost, persisted queries, another response type, an unknown
 * document) is left to Apollo.
 */

interface Accepted {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** graphql-jit's compilation, made on first use; null where it cannot compile the document. */
  compiled?: CompiledQuery | null;
  /** Whether its answer depends on shared data alone (shared-answers.ts), judged on first use. */
  shared?: boolean;
}

export interface OperationCacheOptions {
  /** Documents remembered at most; the oldest goes first. */
  maxEntries: number;
  /** Query texts longer than this are not remembered. */
  maxQueryLength: number;
  /** Bytes the remembered documents may hold, about (see document-size.ts); the least recently used go first. */
  maxBytes: number;
  /** Execute with graphql-jit (compiled resolvers and JSON serialiser) instead of graphql-js. */
  jit: boolean;
  /** As Apollo's variables check is configured (production); see variables.ts. */
  hideSuggestions: boolean;
}

export interface FastPathRequest {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

export interface FastPathAnswer {
  status: number;
  body: string;
}

const key = (query: string, operationName: string | null | undefined) => (operationName ? `${operationName}\u0000${query}` : query);

/** The JSON body Apollo would send for a POST: errors first, a newline at the end. */
function serialize(errors: GraphQLFormattedError[] | undefined, data: unknown): string {
  return `${JSON.stringify(errors ? { errors, data } : { data })}\n`;
}

export function createOperationCache<C extends BaseContext & RequestMeta>(
  options: OperationCacheOptions,
  deps: {
    schema: GraphQLSchema;
    recorder: RequestRecorder;
    /** The same cost check Apollo's plugin makes; false when the operation must be refused. */
    withinCost: (document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown> | undefined) => boolean;
    /** Where answers that depend on shared data alone are remembered; none remembers nothing. */
    shared?: SharedAnswers | undefined;
  },
) {
  // Keyed by text, which is bounded (`maxQueryLength`) and counted in the bytes of its entry.
  const accepted = new LRUCache<string, Accepted>({
    max: options.maxEntries,
    maxSize: options.maxBytes,
    // The key is the document's own text (and a short name): counted with the document.
    sizeCalculation: (entry) => documentBytes(entry.document),
  });

  const plugin: ApolloServerPlugin<C> = {
    async requestDidStart() {
      return {
        // Reached only once parsing and every validation rule passed.
        async didResolveOperation({ request, document, operation }) {
          const query = request.query;
          if (!query || !operation || query.length > options.maxQueryLength || operation.operation === 'subscription') return;
          // Keyed by what the client sends, so the same request finds it again.
          const k = key(query, request.operationName);
          if (accepted.has(k)) return;
          accepted.set(k, { document, operation });
        },
      };
    },
  };

  /**
   * Answers a request Apollo has accepted before, or returns undefined to let Apollo answer it.
   * `context` is called only when this path answers; `admits`, when given, may leave the
   * accepted document to Apollo too (a caller's own rule over it).
   */
  async function tryExecute(
    request: FastPathRequest,
    context: () => Promise<C>,
    admits?: (document: DocumentNode) => boolean,
  ): Promise<FastPathAnswer | undefined> {
    const entry = accepted.get(key(request.query, request.operationName));
    if (!entry || (admits && !admits(entry.document))) return undefined;
    const variables = request.variables ?? undefined;
    // The same check as Apollo's: invalid variables are answered there, by the same message, and
    // graphql-jit's own coercion (which quotes values whole) only ever sees valid ones.
    if (firstVariableError(deps.schema, entry.operation.variableDefinitions ?? [], variables ?? {}, options)) return undefined;
    const operationName = entry.operation.name?.value;
    if (!deps.withinCost(entry.document, request.operationName ?? undefined, variables)) return undefined;

    const started = performance.now();
    const shared = deps.shared;
    // Taken before execution: an answer is remembered only if the data did not change while it ran.
    const sharedCopy = shared && (entry.shared ??= shared.covers(entry.document)) ? shared.freshCopy() : undefined;
    const contextValue = await context();
    const compiled = options.jit ? compiledOf(entry, request.operationName ?? undefined) : null;
    const result = compiled
      ? await compiled.query(undefined, contextValue, variables ?? {})
      : await execute({
          schema: deps.schema,
          document: entry.document,
          contextValue,
          variableValues: variables,
          operationName: request.operationName ?? undefined,
        });
    if (result.errors?.length) deps.recorder.reportErrors(contextValue, result.errors);
    const errors = result.errors?.length ? result.errors.map(formatGraphQLError) : undefined;
    deps.recorder.record({
      meta: contextValue,
      operationName,
      operationType: entry.operation.operation,
      errors: errors ?? [],
      hasData: result.data != null,
      durationMs: performance.now() - started,
      path: 'compiled',
    });
    // The compiled serialiser writes exactly what JSON.stringify would, faster; errors are rare.
    const body = compiled && !errors ? `${compiled.stringify({ data: result.data })}\n` : serialize(errors, result.data);
    if (sharedCopy && !errors) shared!.remember(request, sharedCopy, { body, operationName });
    return { status: 200, body };
  }

  function compiledOf(entry: Accepted, operationName: string | undefined): CompiledQuery | null {
    if (entry.compiled === undefined) {
      // The generated serialiser knows only built-in scalars; with a custom one (URL, DateTime)
      // the document still compiles, with JSON.stringify as its serialiser.
      const compile = (customJSONSerializer: boolean) =>
        compileQuery(deps.schema, entry.document, operationName, { customJSONSerializer });
      let compiled = compile(true);
      if (!isCompiledQuery(compiled)) compiled = compile(false);
      entry.compiled = isCompiledQuery(compiled) ? compiled : null;
    }
    return entry.compiled;
  }

  return { plugin, tryExecute };
}
