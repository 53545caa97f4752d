import { execute, type ExecutionResult, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Prepared } from './pipeline.js';

/**
 * The two executors of a `Prepared` operation. Apollo Server runs an operation the first time its
 * document is seen (and always, with `COMPILED_OPERATIONS=false`): its plugins see every such
 * request. From then on the same document runs compiled, with graphql-jit (or graphql-js with
 * `GRAPHQL_JIT=false`): no parse, no validation, no plugin chain, a generated serialiser. Both get
 * the same prepared operation, the same context, and their errors are formatted by the same
 * function; what they answer is written by the same writer.
 *
 * One difference of graphql-jit's that resolvers must avoid: an item of a list that is a rejected
 * promise is answered as null at the end of the list rather than in its place. A resolver that
 * returns a list of promises lets each settle to its value or its error (an `Error` item, which
 * both executors answer as that item's error).
 */
export interface Execution {
  readonly data: unknown;
  /** As the client sees them. */
  readonly errors: readonly GraphQLFormattedError[] | undefined;
  /** The result's JSON, `{"data":…}`, when the executor has a faster serialiser than JSON.stringify. */
  readonly json?: string;
}

export interface Executor<C> {
  readonly name: 'apollo' | 'compiled';
  execute(prepared: Prepared, contextValue: C): Promise<Execution>;
}

export interface CompiledExecutorOptions {
  schema: GraphQLSchema;
  /** graphql-jit; false runs graphql-js's `execute` on the prepared document. */
  jit: boolean;
  /** Formats an error as every path does (src/graphql/errors.ts). */
  format(error: GraphQLError): GraphQLFormattedError;
  /** Told of the raw errors of an execution (the log keeps what is unexpected). */
  onErrors(contextValue: unknown, errors: readonly GraphQLError[]): void;
}

export function compiledExecutor<C>(options: CompiledExecutorOptions): Executor<C> {
  const compiledOf = (prepared: Prepared): CompiledQuery | null =>
    prepared.document.memo(`jit:${prepared.operationName ?? ''}`, () => {
      // The generated serialiser knows only built-in scalars; with a custom one (URL, DateTime)
      // the document still compiles, with JSON.stringify as its serialiser.
      const compile = (customJSONSerializer: boolean) => compileQuery(options.schema, prepared.document.document, prepared.operationName, { customJSONSerializer });
      let compiled = compile(true);
      if (!isCompiledQuery(compiled)) compiled = compile(false);
      return isCompiledQuery(compiled) ? compiled : null;
    });

  return {
    name: 'compiled',
    async execute(prepared, contextValue) {
      const compiled = options.jit ? compiledOf(prepared) : null;
      const variables = prepared.variables ?? {};
      const result: ExecutionResult = compiled
        ? await compiled.query(undefined, contextValue, variables)
        : await execute({ schema: options.schema, document: prepared.document.document, contextValue, variableValues: variables, operationName: prepared.operationName });
      if (result.errors?.length) {
        options.onErrors(contextValue, result.errors);
        return { data: result.data, errors: result.errors.map(options.format) };
      }
      // The compiled serialiser writes exactly what JSON.stringify would, faster.
      return { data: result.data, errors: undefined, ...(compiled ? { json: compiled.stringify({ data: result.data }) } : {}) };
    },
  };
}
