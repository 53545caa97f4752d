import type { ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, type DocumentNode, type GraphQLSchema, type ValidationContext, type ValidationRule } from 'graphql';
import { estimateCost, type CostEstimate } from './cost.js';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxBackendCalls: number;
  maxListNodes: number;
}

export type LimitName = 'depth' | 'aliases' | 'directives' | 'backend_calls' | 'list_nodes' | 'tokens';

/** The code every limit refusal carries in `extensions.code`. */
export const LIMIT_ERROR_CODE = 'QUERY_LIMIT_EXCEEDED';

/**
 * graphql-armor's rules, reporting through the validation context (a 400 with every problem)
 * instead of throwing out of graphql-js's validator.
 */
export function limitValidationRules(limits: QueryLimits, onReject?: (limit: LimitName) => void): ValidationRule[] {
  const reporter = (limit: LimitName) => ({
    propagateOnRejection: false,
    exposeLimits: true,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        onReject?.(limit);
        context?.reportError(
          new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { code: LIMIT_ERROR_CODE, limit } }),
        );
      },
    ],
  });
  return [
    maxDepthRule({ n: limits.maxDepth, flattenFragments: true, ...reporter('depth') }),
    // No allow-list: aliases of __typename count too, or `a1: __typename … a9999: __typename` is free.
    maxAliasesRule({ n: limits.maxAliases, allowList: [], ...reporter('aliases') }),
    maxDirectivesRule({ n: limits.maxDirectives, ...reporter('directives') }),
  ] as ValidationRule[];
}

/**
 * Refuses, before execution and so before any backend call, an operation whose estimated
 * backend calls or returned objects exceed the limits. Runs after validation because only then
 * are the variables known (`first: $n`).
 */
export function createCostLimit<T extends object>(limits: QueryLimits, onReject?: (limit: LimitName) => void) {
  // Apollo hands out the same parsed document for the same query text, so a document without
  // variables needs its cost worked out once.
  const fixedCosts = new WeakMap<DocumentNode, Map<string, CostEstimate>>();
  const costOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables?: Record<string, unknown>) => {
    if (variables && Object.keys(variables).length > 0) return estimateCost(schema, document, operationName, variables);
    let byName = fixedCosts.get(document);
    if (!byName) fixedCosts.set(document, (byName = new Map()));
    let cost = byName.get(operationName ?? '');
    if (!cost) byName.set(operationName ?? '', (cost = estimateCost(schema, document, operationName, undefined)));
    return cost;
  };
  const overLimits = (cost: CostEstimate): [LimitName, number, number, string][] => {
    const over: [LimitName, number, number, string][] = [];
    if (cost.backendCalls > limits.maxBackendCalls) over.push(['backend_calls', cost.backendCalls, limits.maxBackendCalls, 'backend calls']);
    if (cost.listNodes > limits.maxListNodes) over.push(['list_nodes', cost.listNodes, limits.maxListNodes, 'returned objects']);
    return over;
  };

  const plugin: ApolloServerPlugin<T> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operationName, request }) {
          const cost = costOf(schema, document, operationName, request.variables);
          const over = overLimits(cost);
          if (!over.length) return;
          for (const [limit] of over) onReject?.(limit);
          const [limit, value, max, what] = over[0]!;
          throw new GraphQLError(
            `Query cost limit exceeded: this operation could make ${value} ${what}, at most ${max} are allowed. Ask for fewer items (first, ids) or fewer nested lists.`,
            { extensions: { code: LIMIT_ERROR_CODE, limit, cost, http: { status: 400 } } },
          );
        },
      };
    },
  };

  return {
    plugin,
    /** The same decision, as a yes or no, for the compiled-operation path. */
    within: (schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown> | undefined) =>
      overLimits(costOf(schema, document, operationName, variables)).length === 0,
  };
}
