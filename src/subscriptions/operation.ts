import {
  GraphQLError,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { estimateCost } from '../graphql/limits/cost.js';
import { LIMIT_ERROR_CODE, limitValidationRules, type LimitName, type QueryLimits } from '../graphql/limits/index.js';

export interface OperationRequest {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
}

export interface PreparedOperation {
  document: DocumentNode;
  operationName: string | undefined;
  variableValues: Record<string, unknown> | undefined;
}

export interface OperationLimits extends QueryLimits {
  maxTokens: number;
}

/**
 * The checks an operation over HTTP gets from Apollo, for the streaming transports: the token
 * limit at parse, graphql-js validation with the depth, alias and directive rules, the cost limit
 * on the actual variables. Only subscriptions are taken: queries and mutations have their own
 * pipeline over HTTP, with its deadline, CSRF rules and caches.
 */
export function createOperationPreparer(schema: GraphQLSchema, limits: OperationLimits, onLimit?: (limit: LimitName) => void) {
  const rules: ValidationRule[] = [...specifiedRules, ...limitValidationRules(limits, onLimit)];
  // Thousands of watchers send the same few documents: parse and validate each text once.
  const known = new Map<string, DocumentNode | readonly GraphQLError[]>();

  function documentOf(query: string): DocumentNode | readonly GraphQLError[] {
    const cached = known.get(query);
    if (cached) return cached;
    let result: DocumentNode | readonly GraphQLError[];
    try {
      const document = parse(query, { maxTokens: limits.maxTokens });
      const errors = validate(schema, document, rules);
      result = errors.length
        ? errors.map((e) => (e.extensions?.code ? e : new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })))
        : document;
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      result = [new GraphQLError(error.message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
    }
    if (query.length <= 64 * 1024) {
      if (known.size >= 500) known.delete(known.keys().next().value!);
      known.set(query, result);
    }
    return result;
  }

  return function prepare(request: OperationRequest): PreparedOperation | readonly GraphQLError[] {
    const bad = (message: string) => [new GraphQLError(message, { extensions: { code: 'BAD_REQUEST' } })];
    if (typeof request.query !== 'string' || request.query.length === 0) return bad('The operation has no "query" string.');
    if (request.operationName != null && typeof request.operationName !== 'string') return bad('"operationName" must be a string.');
    const variables = request.variables ?? undefined;
    if (variables !== undefined && (typeof variables !== 'object' || Array.isArray(variables))) return bad('"variables" must be an object.');

    const document = documentOf(request.query);
    if (!('kind' in document)) return document;
    const operationName = (request.operationName as string | null | undefined) ?? undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation) return bad(operationName ? `The document has no operation named "${operationName}".` : 'The document has several operations: name one in "operationName".');
    if (operation.operation !== 'subscription') {
      return bad(`Only subscriptions are served over this transport; send ${operation.operation === 'query' ? 'queries' : 'mutations'} as HTTP POST to /graphql.`);
    }
    const variableValues = variables as Record<string, unknown> | undefined;
    const cost = estimateCost(schema, document, operationName, variableValues);
    const over: [LimitName, number, number, string] | undefined =
      cost.backendCalls > limits.maxBackendCalls
        ? ['backend_calls', cost.backendCalls, limits.maxBackendCalls, 'backend calls']
        : cost.listNodes > limits.maxListNodes
          ? ['list_nodes', cost.listNodes, limits.maxListNodes, 'returned objects']
          : undefined;
    if (over) {
      const [limit, value, max, what] = over;
      onLimit?.(limit);
      return [
        new GraphQLError(`Query cost limit exceeded: each event of this subscription could make ${value} ${what}, at most ${max} are allowed.`, {
          extensions: { code: LIMIT_ERROR_CODE, limit, cost },
        }),
      ];
    }
    return { document, operationName, variableValues };
  };
}

export type OperationPreparer = ReturnType<typeof createOperationPreparer>;
