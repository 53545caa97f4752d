import { GraphQLError, OperationTypeNode, type ValidationRule } from 'graphql';

/**
 * The operation types a plain HTTP request (POST or GET /graphql) may carry: queries and
 * mutations. A subscription needs a stream, so it is refused here with where to send it, as a
 * validation error (400, GRAPHQL_VALIDATION_FAILED). Without this rule graphql 16 executed it once,
 * answered HTTP 200 and read as a server fault. An operation type the schema has no root for is
 * refused too, as the spec's "Operation Type Existence" rule and graphql-js 17 do.
 */
export const httpOperationTypesRule: ValidationRule = (context) => {
  const schema = context.getSchema();
  return {
    OperationDefinition(node) {
      if (!schema.getRootType(node.operation)) {
        context.reportError(new GraphQLError(`This API has no ${node.operation} operations.`, { nodes: node }));
      } else if (node.operation === OperationTypeNode.SUBSCRIPTION) {
        context.reportError(
          new GraphQLError(
            'Subscriptions are served over WebSocket (graphql-ws) at /graphql and over SSE (graphql-sse) at /graphql/stream, not over a plain HTTP request.',
            { nodes: node },
          ),
        );
      }
    },
  };
};
