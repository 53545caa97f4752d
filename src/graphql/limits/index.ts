import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { GraphQLError, ValidationContext, ValidationRule } from 'graphql';
import { clientError } from '../errors.js';

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
          clientError(error.message.replace(/^Syntax Error: /, ''), { extensions: { code: LIMIT_ERROR_CODE, limit } }),
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
