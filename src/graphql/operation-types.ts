import { GraphQLError, OperationTypeNode, type ValidationRule } from 'graphql';

const PLURAL: Record<OperationTypeNode, string> = {
  [OperationTypeNode.QUERY]: 'queries',
  [OperationTypeNode.MUTATION]: 'mutations',
  [OperationTypeNode.SUBSCRIPTION]: 'subscriptions',
};

/**
 * Refuses an operation whose type the schema has no root for (a subscription here), as the
 * spec's "Operation Type Existence" rule and graphql-js 17's KnownOperationTypesRule do. On
 * graphql 16 such an operation passed validation and failed at execution with HTTP 200 and an
 * error without a code, which read as a server fault.
 */
export const knownOperationTypesRule: ValidationRule = (context) => {
  const schema = context.getSchema();
  const served = Object.values(OperationTypeNode).filter((type) => schema.getRootType(type)).map((type) => PLURAL[type]);
  return {
    OperationDefinition(node) {
      if (schema.getRootType(node.operation)) return;
      context.reportError(
        new GraphQLError(`This API has no ${PLURAL[node.operation]}; it serves ${served.join(' and ')}.`, { nodes: node }),
      );
    },
  };
};
