import type { ApolloServer, ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLError } from 'graphql';
import type { Executor } from './executors.js';

/**
 * Apollo Server as an executor of the pipeline. Its one plugin holds it to that: it runs only an
 * operation the pipeline prepared and handed to it (a request reaching Apollo any other way is
 * refused as a fault of this server), and tells the log about the errors of what it ran.
 */
export type ApolloExecution<C extends BaseContext> = ReturnType<typeof apolloExecution<C>>;

export function apolloExecution<C extends BaseContext>(onErrors: (contextValue: C, errors: readonly GraphQLError[]) => void) {
  // The text a context was handed to Apollo with, by the executor below and nothing else; a
  // property of the context itself, as Apollo runs each operation on a copy of the context.
  const handed = Symbol('handed to Apollo by the pipeline');

  const plugin: ApolloServerPlugin<C> = {
    async requestDidStart({ contextValue, request }) {
      if ((contextValue as Record<symbol, unknown>)[handed] !== request.query) throw new Error('Apollo Server runs only operations the request pipeline prepared.');
      return {
        async didEncounterErrors({ errors }) {
          onErrors(contextValue, errors);
        },
      };
    },
  };

  function executor(apollo: ApolloServer<C>): Executor<C> {
    return {
      name: 'apollo',
      async execute(prepared, contextValue) {
        (contextValue as Record<symbol, unknown>)[handed] = prepared.document.text;
        const response = await apollo.executeOperation(
          {
            query: prepared.document.text,
            ...(prepared.operationName ? { operationName: prepared.operationName } : {}),
            ...(prepared.variables ? { variables: { ...prepared.variables } } : {}),
          },
          { contextValue },
        );
        if (response.body.kind !== 'single') throw new Error('Apollo answered an operation in parts; this server runs no incremental delivery.');
        const { data, errors } = response.body.singleResult;
        return { data, errors: errors?.length ? errors : undefined };
      },
    };
  }

  return { plugin, executor };
}
