import type { ApolloServer, ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import type { DocumentNode, GraphQLError } from 'graphql';
import type { Executor } from './executors.js';

/**
 * Apollo Server as an executor of the pipeline, holding no second copy of anything the pipeline
 * owns. The pipeline parsed and validated the document (within every rule); Apollo is handed that
 * very document through its document store, which it reads before parsing: it keeps no documents
 * of its own, parses nothing and validates nothing, so no limit or rule is restated in its
 * settings. Its one plugin holds it to that: it runs only an operation the pipeline prepared and
 * handed to it (a request reaching Apollo any other way, or a document it would parse itself, is
 * refused as a fault of this server), and tells the log about the errors of what it ran.
 */
export interface ApolloExecution<C extends BaseContext> {
  plugin: ApolloServerPlugin<C>;
  /** Apollo's `documentStore`: the documents being handed to it, and nothing else. */
  documentStore: KeyValueCache<DocumentNode>;
  executor(apollo: ApolloServer<C>): Executor<C>;
}

/** Apollo keys its store by the SHA-256 of the text in hex, after a prefix of its own. */
const HASH_LENGTH = 64;

export function apolloExecution<C extends BaseContext>(onErrors: (contextValue: C, errors: readonly GraphQLError[]) => void): ApolloExecution<C> {
  // The text a context was handed to Apollo with, by the executor below and nothing else; a
  // property of the context itself, as Apollo runs each operation on a copy of the context.
  const handed = Symbol('handed to Apollo by the pipeline');
  // Documents being handed over, by the SHA-256 of their text: only while an execution is under
  // way (concurrent executions of one document share its entry).
  // bounded: an entry lives only while an execution of its document is in flight.
  const handing = new Map<string, { document: DocumentNode; executions: number }>();

  const documentStore: KeyValueCache<DocumentNode> = {
    get: async (key) => handing.get(key.slice(-HASH_LENGTH))?.document,
    // Apollo offers what it parsed itself: never kept, it parses nothing the pipeline handed over.
    set: async () => {},
    delete: async () => {},
  };

  const plugin: ApolloServerPlugin<C> = {
    async requestDidStart({ contextValue, request }) {
      if ((contextValue as Record<symbol, unknown>)[handed] !== request.query) throw new Error('Apollo Server runs only operations the request pipeline prepared.');
      return {
        async parsingDidStart() {
          throw new Error('Apollo Server was about to parse a document the request pipeline had prepared: its document store did not hand it over.');
        },
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
        const hash = prepared.document.hash;
        const entry = handing.get(hash) ?? { document: prepared.document.document, executions: 0 };
        entry.executions++;
        handing.set(hash, entry);
        try {
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
        } finally {
          if (--entry.executions === 0) handing.delete(hash);
        }
      },
    };
  }

  return { plugin, documentStore, executor };
}
