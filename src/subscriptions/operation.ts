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
import type { TrustedDocuments } from '../apps/trusted-documents.js';
import { estimateCost } from '../graphql/limits/cost.js';
import { LIMIT_ERROR_CODE, limitValidationRules, type LimitName, type QueryLimits } from '../graphql/limits/index.js';
import { firstVariableError, type VariableOptions } from '../graphql/variables.js';

export interface OperationRequest {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  /** Apollo's `persistedQuery: { sha256Hash }` names a trusted document (graphql-ws and graphql-sse carry it). */
  extensions?: unknown;
  /** GraphQL over HTTP's name for a trusted document (`sha256:<hex>`), also taken here. */
  documentId?: unknown;
}

/** The server's trusted documents (`TRUSTED_DOCUMENTS`), as HTTP requests get them. */
export interface SubscriptionTrust {
  documents: TrustedDocuments;
  /** `TRUSTED_DOCUMENTS_ONLY`: a partner token runs only documents of the manifest. */
  only: boolean;
  onRefused?: () => void;
}

export interface PreparedOperation {
  document: DocumentNode;
  operationName: string | undefined;
  variableValues: Record<string, unknown> | undefined;
}

export interface OperationLimits extends QueryLimits, VariableOptions {
  maxTokens: number;
}

/**
 * The checks an operation over HTTP gets from Apollo, for the streaming transports: the token
 * limit at parse, graphql-js validation with the depth, alias and directive rules, the variables
 * by the same function and messages as over HTTP, the cost limit on the actual variables. Only
 * subscriptions are taken: queries and mutations have their own pipeline over HTTP, with its
 * deadline, CSRF rules and caches.
 */
export function createOperationPreparer(schema: GraphQLSchema, limits: OperationLimits, onLimit?: (limit: LimitName) => void, trust?: SubscriptionTrust) {
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

  /**
   * The text to run, by the rules of the HTTP gate (src/apps/gate.ts): a document named by
   * `documentId` or `extensions.persistedQuery.sha256Hash` (with no text) runs as the manifest has
   * it, or is PERSISTED_QUERY_NOT_FOUND (there is no APQ store for subscriptions); with
   * `TRUSTED_DOCUMENTS_ONLY` a text runs only when it is one of the manifest's documents, else
   * TRUSTED_DOCUMENT_REQUIRED. Subscriptions are partner-token only (an app key is refused at
   * connect), so `only` is the partners' setting.
   */
  function textOf(request: OperationRequest): string | readonly GraphQLError[] | undefined {
    const text = typeof request.query === 'string' && request.query.length > 0 ? request.query : undefined;
    const documentId = typeof request.documentId === 'string' ? request.documentId : undefined;
    const persisted = isObject(request.extensions) && isObject(request.extensions.persistedQuery) ? request.extensions.persistedQuery.sha256Hash : undefined;
    const hash = typeof persisted === 'string' ? persisted : undefined;
    const documents = trust?.documents;
    if (documentId !== undefined || (hash !== undefined && text === undefined)) {
      const id = (documentId ?? hash)!;
      const trusted = documents?.byId(id);
      if (!trusted) {
        trust?.onRefused?.();
        return [
          new GraphQLError(
            `No trusted document has the id ${JSON.stringify(id.slice(0, 80))}: this server runs only the documents of its manifest (TRUSTED_DOCUMENTS, ${documents?.size ?? 0} documents). Build the app with this manifest, or send a document it lists.`,
            { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } },
          ),
        ];
      }
      return trusted.query;
    }
    if (trust?.only) {
      const trusted = text === undefined ? undefined : trust.documents.byText(text);
      if (!trusted) {
        trust.onRefused?.();
        return [
          new GraphQLError(
            text === undefined
              ? 'This server runs only trusted documents: send a documentId from its manifest (TRUSTED_DOCUMENTS).'
              : 'This server runs only trusted documents for partner tokens: send a documentId from its manifest (TRUSTED_DOCUMENTS) instead of a query text.',
            { extensions: { code: 'TRUSTED_DOCUMENT_REQUIRED' } },
          ),
        ];
      }
      return trusted.query;
    }
    return text;
  }

  return function prepare(request: OperationRequest): PreparedOperation | readonly GraphQLError[] {
    const bad = (message: string) => [new GraphQLError(message, { extensions: { code: 'BAD_REQUEST' } })];
    const query = textOf(request);
    if (query !== undefined && typeof query !== 'string') return query;
    if (query === undefined) return bad('The operation has no "query" string.');
    if (request.operationName != null && typeof request.operationName !== 'string') return bad('"operationName" must be a string.');
    const variables = request.variables ?? undefined;
    if (variables !== undefined && (typeof variables !== 'object' || Array.isArray(variables))) return bad('"variables" must be an object.');

    const document = documentOf(query);
    if (!('kind' in document)) return document;
    const operationName = (request.operationName as string | null | undefined) ?? undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation) return bad(operationName ? `The document has no operation named "${operationName}".` : 'The document has several operations: name one in "operationName".');
    if (operation.operation !== 'subscription') {
      return bad(`Only subscriptions are served over this transport; send ${operation.operation === 'query' ? 'queries' : 'mutations'} as HTTP POST to /graphql.`);
    }
    const variableValues = variables as Record<string, unknown> | undefined;
    // Before graphql-js coerces them itself, with messages that quote whole values.
    const variableError = firstVariableError(schema, operation.variableDefinitions ?? [], variableValues ?? {}, limits);
    if (variableError) return [variableError];
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
