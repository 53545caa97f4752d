import { context, createContextKey, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { GraphQLError, isObjectType, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { traceResponsePath, traceText } from './text.js';

/**
 * What answered a request: Apollo Server's execution, the compiled executor's, an answer remembered
 * from an earlier execution (or its 304), a refusal by a rule of the pipeline, or the HTTP layer's
 * refusal of a request it could not read as GraphQL.
 */
export type AnswerPath = 'apollo' | 'compiled' | 'remembered' | 'gate' | 'http';

// GraphQL semantic conventions are still incubating: copied here rather than imported from the
// unstable entry point, as the semantic-conventions package advises.
const ATTR_GRAPHQL_OPERATION_NAME = 'graphql.operation.name';
const ATTR_GRAPHQL_OPERATION_TYPE = 'graphql.operation.type';

/** Error codes are short words of the API's; anything longer is cut to this. */
const CODE_MAX = 64;

/** The resolver running in the current async context, whose span is opened on its first backend call. */
const RESOLVER = createContextKey('campaign-bff resolver');

/**
 * A resolver's span, opened only if the resolver makes (or is the first to ask for) a backend
 * call. Most resolvers of a list read a record another field already loaded; a span for each
 * would multiply the spans of a page by its fields and say nothing.
 */
class ResolverSpan {
  #span: Span | undefined;
  #context: Context | undefined;
  #done = false;

  constructor(
    private readonly tracer: Tracer,
    private readonly coordinate: string,
    private readonly info: GraphQLResolveInfo,
    private readonly parent: Context,
  ) {}

  /** The context this resolver's backend calls start in: its span's, opened on first use. */
  context(): Context {
    if (this.#context) return this.#context;
    // Work left running after the resolver answered belongs to the request, not to a closed span.
    if (this.#done) return this.parent;
    const { info } = this;
    const attributes: Record<string, string> = { 'graphql.field.name': info.fieldName, 'graphql.parent.type': info.parentType.name };
    // The path names fields, aliases and list indexes: the client's choice of names, never its
    // values, yet of the client's length, so it is built cut short.
    if (info.path) attributes['graphql.field.path'] = traceResponsePath(info.path);
    this.#span = this.tracer.startSpan(this.coordinate, { attributes }, this.parent);
    this.#context = trace.setSpan(this.parent, this.#span);
    return this.#context;
  }

  finish(error?: unknown): void {
    this.#done = true;
    const span = this.#span;
    if (!span) return;
    if (error !== undefined) {
      // The code only: messages may quote what the client sent.
      const code = error instanceof GraphQLError && typeof error.extensions.code === 'string' ? traceText(error.extensions.code, CODE_MAX) : 'INTERNAL_SERVER_ERROR';
      span.setAttribute(ATTR_ERROR_TYPE, code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    }
    span.end();
  }
}

/** True unless the context holds a span that is not recorded (its trace was sampled out). */
export function isRecordedOrRoot(ctx: Context): boolean {
  const span = trace.getSpan(ctx);
  return span === undefined || span.isRecording();
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

function traced(resolve: GraphQLFieldResolver<unknown, unknown>, tracer: Tracer, coordinate: string): GraphQLFieldResolver<unknown, unknown> {
  return function tracedResolver(this: unknown, source, args, contextValue, info) {
    const parent = context.active();
    // A request the sampler left out: its spans would record nothing, so none are made.
    if (!isRecordedOrRoot(parent)) return resolve.call(this, source, args, contextValue, info);
    const holder = new ResolverSpan(tracer, coordinate, info, parent);
    let result: unknown;
    try {
      result = context.with(parent.setValue(RESOLVER, holder), resolve, this, source, args, contextValue, info);
    } catch (error) {
      holder.finish(error);
      throw error;
    }
    if (isThenable(result)) {
      result.then(
        () => holder.finish(),
        (error: unknown) => holder.finish(error),
      );
    } else if (Array.isArray(result) && result.some(isThenable)) {
      // campaignsByIds answers a list of promises, one per id.
      void Promise.allSettled(result).then(() => holder.finish());
    } else {
      holder.finish();
    }
    return result;
  };
}

/**
 * Wraps, in place, every resolver that can reach the backend so it gets a span when it does. Only
 * resolvers that declare the context parameter can: the context is where the partner API, the
 * loaders and the category directory are. The plain field readers (`title: (d) => ...`), the
 * bulk of a page, stay as they are. Must run before the first operation is compiled. Returns the
 * coordinates wrapped.
 */
export function traceResolvers(schema: GraphQLSchema, tracer: Tracer): string[] {
  const wrapped: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve || resolve.length < 3) continue;
      const coordinate = `${type.name}.${field.name}`;
      field.resolve = traced(resolve, tracer, coordinate);
      wrapped.push(coordinate);
    }
  }
  return wrapped;
}

/**
 * Where a backend call's span starts: under the resolver that made it (opening that resolver's
 * span now), or under whatever span is current.
 */
export function callParentContext(): Context {
  const active = context.active();
  const resolver = active.getValue(RESOLVER) as ResolverSpan | undefined;
  return resolver ? resolver.context() : active;
}

/**
 * A DataLoader runs a batch in the async context of whichever load started the batch, so every
 * call of a page would hang under the first node's resolver. This remembers, per key, the
 * resolver that first asked for it, and runs that key's call there.
 */
export class LoaderContexts<K> {
  // bounded: one request's loader keys, kept as long as the loader, which lives for the request.
  readonly #byKey = new Map<K, Context>();

  remember(key: K): void {
    if (!this.#byKey.has(key)) this.#byKey.set(key, callParentContext());
  }

  run<T>(key: K, fetch: () => T): T {
    const ctx = this.#byKey.get(key);
    return ctx ? context.with(ctx, fetch) : fetch();
  }
}

export interface RequestSpanFacts {
  /** The operation's name from the document, when it has one. */
  operationName: string | undefined;
  /** A bounded label for the span name (the same the metrics use). */
  label: string;
  operationType: string | undefined;
  outcome: string;
  errorCodes: readonly string[];
  path: AnswerPath;
  backendCalls: number;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,127}$/;
/** The distinct error codes a request span lists at most. */
const CODES_MAX = 8;

/**
 * Adds what the GraphQL layer learnt to the request's span (opened by the HTTP layer). The
 * operation's name and the metrics label are the client's text: they go on the span only
 * through traceText.
 */
export function annotateRequestSpan(facts: RequestSpanFacts): void {
  const span = trace.getSpan(context.active());
  if (!span?.isRecording()) return;
  if (facts.operationType) span.updateName(traceText(`${facts.operationType} ${facts.label}`));
  if (facts.operationType) span.setAttribute(ATTR_GRAPHQL_OPERATION_TYPE, traceText(facts.operationType));
  if (facts.operationName && GRAPHQL_NAME.test(facts.operationName)) span.setAttribute(ATTR_GRAPHQL_OPERATION_NAME, traceText(facts.operationName));
  span.setAttributes({
    'bff.graphql.path': facts.path,
    'bff.graphql.outcome': traceText(facts.outcome, CODE_MAX),
    'bff.backend_calls': facts.backendCalls,
  });
  if (facts.errorCodes.length) {
    const codes = facts.errorCodes.slice(0, CODES_MAX).map((code) => traceText(code, CODE_MAX));
    span.setAttribute('bff.graphql.error_codes', codes);
    span.setStatus({ code: SpanStatusCode.ERROR, message: traceText(codes.join(',')) });
  }
}
