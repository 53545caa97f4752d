import { execute, subscribe, type ExecutionResult, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Prepared } from './pipeline.js';

/**
 * What runs a `Prepared` operation, for every transport: `execute` for queries and mutations
 * (HTTP), `subscribe` for subscriptions (WebSocket and SSE). Both take only what the pipeline
 * prepared and the request's context, and give results as the client sees them: errors leave
 * through the one formatter (src/graphql/errors.ts) whichever library ran.
 *
 * Apollo Server runs an operation the first time its document is seen (and always, with
 * `COMPILED_OPERATIONS=false`): its plugins see every such request. From then on the same document
 * runs compiled, with graphql-jit (or graphql-js with `GRAPHQL_JIT=false`): no plugin chain.
 * Subscriptions run with graphql-js's `subscribe` over the live status hub.
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
}

/** One library's way of running a query or mutation. */
export interface Executor<C> {
  readonly name: 'apollo' | 'compiled';
  execute(prepared: Prepared, contextValue: C): Promise<Execution>;
}

/** A query or mutation under way: which executor runs it (for the request's log line), and its result. */
export interface Running {
  readonly path: Executor<unknown>['name'];
  readonly execution: Promise<Execution>;
}

/** What the transports run prepared operations with. */
export interface Executors<C> {
  /** A query or mutation. */
  execute(prepared: Prepared, contextValue: C): Running;
  /**
   * A subscription: its events, each as the client sees it, or one result (errors) when it cannot
   * start. Its context is the stream's own (no request of HTTP behind it).
   */
  subscribe(prepared: Prepared, contextValue: object): Promise<AsyncIterableIterator<Execution> | Execution>;
}

export interface ExecutorsOptions<C> {
  schema: GraphQLSchema;
  apollo: Executor<C>;
  /** Runs documents already run once (undefined: Apollo runs every request). */
  compiled: Executor<C> | undefined;
  /** Formats an error as every path does (src/graphql/errors.ts). */
  format(error: GraphQLError): GraphQLFormattedError;
  /** Told of the raw errors of an execution (the log keeps what is unexpected). */
  onErrors(contextValue: unknown, errors: readonly GraphQLError[]): void;
}

export function createExecutors<C>(options: ExecutorsOptions<C>): Executors<C> {
  const { schema, apollo, compiled } = options;
  const formatted = (contextValue: unknown, result: ExecutionResult): Execution => {
    if (!result.errors?.length) return { data: result.data, errors: undefined };
    options.onErrors(contextValue, result.errors);
    return { data: result.data, errors: result.errors.map(options.format) };
  };
  /**
   * The source's events, formatted. Not a generator: a transport whose client left ends the
   * subscription with `return` while it waits for the next event, which must reach the source (the
   * watch) at once rather than wait for an event that may never come.
   */
  const events = (contextValue: unknown, source: AsyncGenerator<ExecutionResult>): AsyncIterableIterator<Execution> => ({
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () => source.next().then((step) => (step.done ? { done: true, value: undefined } : { done: false, value: formatted(contextValue, step.value) })),
    return: () => source.return(undefined).then(() => ({ done: true, value: undefined })),
  });
  return {
    execute(prepared, contextValue) {
      // The first run of a document is Apollo's; the same document again runs compiled.
      const runs = compiled && prepared.document.memo(`runs:${prepared.operationName ?? ''}`, () => ({ count: 0 }));
      const executor = runs && runs.count++ > 0 ? compiled! : apollo;
      return { path: executor.name, execution: executor.execute(prepared, contextValue) };
    },
    async subscribe(prepared, contextValue) {
      const result = await subscribe({
        schema,
        document: prepared.document.document,
        operationName: prepared.operationName,
        variableValues: prepared.variables,
        contextValue,
      });
      return Symbol.asyncIterator in result ? events(contextValue, result) : formatted(contextValue, result);
    },
  };
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
      // Without graphql-jit's generated serialiser (fast-json-stringify): it builds the answer
      // by string concatenation, a few pieces per field, which a list of small items pays for in
      // garbage; JSON.stringify writes the whole answer at once, and needs nothing compiled.
      const compiled = compileQuery(options.schema, prepared.document.document, prepared.operationName);
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
      return { data: result.data, errors: undefined };
    },
  };
}
