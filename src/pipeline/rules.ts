import { NoSchemaIntrospectionCustomRule, type GraphQLError, OperationTypeNode, type GraphQLSchema } from 'graphql';
import { estimateCost, type CostEstimate } from '../graphql/limits/cost.js';
import { LIMIT_ERROR_CODE, limitValidationRules, type QueryLimits } from '../graphql/limits/index.js';
import { firstVariableError, type VariableOptions } from '../graphql/variables.js';
import { clientError, noTokenError } from '../graphql/errors.js';
import { isStreaming, type Policy, type Refusal } from './types.js';

/**
 * The rules of the GraphQL engine itself, as policies: what any GraphQL request must satisfy
 * whoever sends it. Rules of a domain (what an app key reaches, trusted documents, rate limits)
 * are declared by their own modules; the composition root puts them all in one list.
 */

/** `MAX_TOKENS`: parsing stops there, before anything else reads the document. */
export const tokenLimit = (maxTokens: number): Policy => ({ name: 'token limit', maxTokens });

/** `MAX_DEPTH`, `MAX_ALIASES`, `MAX_DIRECTIVES`: graphql-armor's rules, run with validation. */
export const documentLimits = (limits: QueryLimits): Policy => ({ name: 'depth, aliases, directives', rules: limitValidationRules(limits) });

/**
 * What a production server keeps to itself of its schema: no introspection, and no names
 * suggested in validation errors ("Did you mean …?").
 */
export const schemaPrivacy = (hidden: boolean): Policy =>
  hidden ? { name: 'schema privacy', rules: [NoSchemaIntrospectionCustomRule], hideSuggestions: true } : { name: 'schema privacy' };

/** What a refusal may carry besides its status, message and code. */
export interface RefusalDetails {
  headers?: Readonly<Record<string, string>>;
  /** Facts a client can branch on besides `code` (the limit, a retry delay). */
  extensions?: Readonly<Record<string, unknown>>;
  /** Where in the document the problem is. */
  nodes?: GraphQLError['nodes'];
}

/**
 * A request refused before anything runs: one error with `extensions.code`. The message names the
 * field or limit and quotes at most a short prefix of what was received (src/text/).
 */
export const refusal = (status: number, message: string, code: string, { headers, extensions, nodes }: RefusalDetails = {}): Refusal => ({
  status,
  errors: [clientError(message, { ...(nodes ? { nodes } : {}), extensions: { code, ...extensions } })],
  ...(headers ? { headers } : {}),
});

/**
 * Which operation types each transport carries: queries and mutations over POST, only queries over
 * GET (a mutation must not be a link), only subscriptions over the streams (WebSocket and SSE),
 * whose clients are told where the others go.
 */
export function operationTypes(schema: GraphQLSchema): Policy {
  return {
    name: 'operation types',
    document(_document, operation, { transport }) {
      const type = operation.operation;
      if (!schema.getRootType(type)) return refusal(400, `This API has no ${type} operations.`, 'GRAPHQL_VALIDATION_FAILED', { nodes: [operation] });
      const streaming = transport === 'websocket' || transport === 'sse';
      if (streaming) {
        if (type === OperationTypeNode.SUBSCRIPTION) return undefined;
        return refusal(400, `Only subscriptions are served over this transport; send ${type === 'query' ? 'queries' : 'mutations'} as HTTP POST to /graphql.`, 'BAD_REQUEST');
      }
      if (type === OperationTypeNode.SUBSCRIPTION) {
        return refusal(
          400,
          'Subscriptions are served over WebSocket (graphql-ws) at /graphql and over SSE (graphql-sse) at /graphql/stream, not over a plain HTTP request.',
          'GRAPHQL_VALIDATION_FAILED',
          { nodes: [operation] },
        );
      }
      if (transport === 'get' && type === OperationTypeNode.MUTATION) {
        return refusal(405, 'Only queries may be sent with GET; send mutations with POST.', 'METHOD_NOT_ALLOWED', { headers: { allow: 'POST' } });
      }
      return undefined;
    },
  };
}

/**
 * Variables coerced by graphql-js's rules before anything runs, with messages that quote at most a
 * short prefix of a value and suggest no names in production (graphql/variables.ts).
 */
export function variables(schema: GraphQLSchema, options: VariableOptions): Policy {
  return {
    name: 'variables',
    operation({ operation, variables: values }) {
      const definitions = operation.variableDefinitions;
      if (!definitions?.length && !values) return undefined;
      const error = firstVariableError(schema, definitions ?? [], values ?? {}, options);
      return error ? { status: 400, errors: [error] } : undefined;
    },
  };
}

/** What a refusal of the cost limit names: the limit, the estimate and its bound. */
const OVER: [keyof CostEstimate, 'backend_calls' | 'list_nodes', 'maxBackendCalls' | 'maxListNodes', string][] = [
  ['backendCalls', 'backend_calls', 'maxBackendCalls', 'backend calls'],
  ['listNodes', 'list_nodes', 'maxListNodes', 'returned objects'],
];

/**
 * The cost limit, with the actual variables (`first: $n`): the backend calls and returned objects
 * an operation could cause, estimated before the first call. An operation without variables is
 * costed once, with its document.
 */
export function cost(schema: GraphQLSchema, limits: Pick<QueryLimits, 'maxBackendCalls' | 'maxListNodes'>): Policy {
  return {
    name: 'cost',
    operation({ document, operation, operationName, variables: values }, { transport }) {
      const estimate =
        values && Object.keys(values).length > 0
          ? estimateCost(schema, document.document, operationName, values)
          : document.memo(`cost:${operationName ?? ''}`, () => estimateCost(schema, document.document, operationName, undefined));
      const over = OVER.find(([measure, , bound]) => estimate[measure] > limits[bound]);
      if (!over) return undefined;
      const [measure, limit, bound, what] = over;
      const each = operation.operation === 'subscription' || transport === 'websocket' || transport === 'sse' ? 'each event of this subscription' : 'this operation';
      const advice = operation.operation === 'subscription' ? '' : ' Ask for fewer items (first, ids) or fewer nested lists.';
      return refusal(400, `Query cost limit exceeded: ${each} could make ${estimate[measure]} ${what}, at most ${limits[bound]} are allowed.${advice}`, LIMIT_ERROR_CODE, {
        extensions: { limit, cost: estimate },
      });
    },
  };
}

/** What the campaign API says of a partner token: accepted, refused, or nothing (it could not be asked). */
export type TokenStanding = 'accepted' | 'refused' | 'unknown';

/**
 * Who a stream is held open for: a partner whose token the campaign API accepted, and nobody
 * else. A WebSocket or SSE stream lasts, and what it holds (a reader polling the API with the
 * token) must not be given to a token nobody has checked: the token is checked when the stream
 * opens and again for each subscription on it (a connection outlives its first check), with the
 * process's one token check. A token the API could not be asked about is refused as for now only
 * (the client tries again); an app key reaches no stream at all.
 */
export function streamCallers(check: (token: string) => TokenStanding | Promise<TokenStanding>): Policy {
  return {
    name: 'stream callers',
    admit({ caller, transport }) {
      if (!isStreaming(transport)) return undefined;
      if (caller.kind === 'app') return refusal(403, 'An app key (X-App-Key) reaches only offerFeed and categories, not subscriptions.', 'FORBIDDEN');
      if (caller.kind === 'anonymous') return { status: 401, errors: [noTokenError(caller.problem)] };
      const standing = check(caller.token);
      return standing instanceof Promise ? standing.then(tokenRefusal) : tokenRefusal(standing);
    },
  };
}

/** What a partner is told of its token when it must have been accepted: nothing, refused, or try again. */
export function tokenRefusal(standing: TokenStanding): Refusal | undefined {
  if (standing === 'accepted') return undefined;
  if (standing === 'refused') return refusal(401, 'The campaign API did not accept the partner token. Send a valid token as "Bearer <token>".', 'UNAUTHENTICATED');
  return refusal(503, 'The campaign API could not be asked whether it accepts the partner token; send the request again shortly.', 'BACKEND_UNAVAILABLE', {
    headers: { 'retry-after': '1' },
  });
}
