import { BREAK, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { FastPathRequest } from './operation-cache.js';

/**
 * Answers that depend on shared data alone, remembered as they were sent.
 *
 * The category directory is one for all partners, and a warm read of it answers every partner
 * alike. So a query that selects nothing but directory fields has one answer per document and
 * variables for as long as this process serves the same fresh copy of the directory. That answer
 * is remembered after an execution and sent again as it is: no context, no execution, no
 * serialisation. Everything that depends on the request is still done for each one by the HTTP
 * layer (the gate, the token check, CORS and caching headers, the request line and metrics), and
 * it is sent only to a token the data's source would serve without asking the backend (one the
 * campaign API accepted lately): any other token is executed, and checked there.
 *
 * A field counts as shared only when it is listed here by its coordinate. A field added to the
 * schema later is not, so a document that selects it is executed every time until someone has
 * checked that its answer is the same for every partner.
 */
export const SHARED_FIELDS: ReadonlySet<string> = new Set(['Query.categories', 'Query.category', 'Category.id', 'Category.name']);

/** The data shared answers come from. */
export interface SharedSource {
  /**
   * The copy a read would be served from right now without leaving the process, while it is fresh;
   * undefined when a read would go further (cold, stale). Its identity changes whenever the data does.
   */
  freshCopy(): object | undefined;
  /** Whether a read with this token would be served from that copy without asking the backend. */
  accepts(token: string): boolean;
}

export interface SharedAnswer {
  /** The body as the compiled path sent it. */
  body: string;
  /**
   * The same body encoded once when it was remembered: sent as these bytes, the answer is not
   * joined to its headers and encoded again for each request (about 1 µs of one).
   */
  bytes: Buffer;
  /** The operation it answered, for the request line of each request it serves. */
  operationName: string | undefined;
}

interface Remembered extends SharedAnswer {
  copy: object;
}

export interface SharedAnswersOptions {
  schema: GraphQLSchema;
  source: SharedSource;
  /** Answers remembered at most; the oldest goes first. */
  maxEntries: number;
  fields?: ReadonlySet<string>;
}

export interface SharedAnswers {
  /** Whether every field the document selects is shared, so its answer is the same for every partner. */
  covers(document: DocumentNode): boolean;
  /** The copy an execution starting now reads; hand it to `remember` with the answer. */
  freshCopy(): object | undefined;
  /** Remembers an answer without errors, made from `copy`, unless the data changed meanwhile. */
  remember(request: FastPathRequest, copy: object, answer: Omit<SharedAnswer, 'bytes'>): void;
  /**
   * The remembered answer to this request, when the copy it was made from is still the one served
   * and the source would serve it to this token as it is.
   */
  lookup(request: FastPathRequest, token: string): SharedAnswer | undefined;
}

/** Longer requests are not remembered: the memory kept stays small whatever clients send. */
const MAX_KEY_LENGTH = 4096;

/**
 * The request's key, or undefined for one that is not remembered: too long, or with a variable
 * that is not a scalar (the shared fields take ids; a nested value is never hashed or kept).
 */
function keyOf(request: FastPathRequest): string | undefined {
  if (request.query.length > MAX_KEY_LENGTH) return undefined;
  let scalars = false;
  const variables = request.variables;
  if (variables) {
    for (const name in variables) {
      const value = variables[name];
      if (value !== null && typeof value === 'object') return undefined;
      if (typeof value === 'string' && value.length > MAX_KEY_LENGTH) return undefined;
      scalars = true;
    }
  }
  // No variables and `{}` mean the same: most clients send the empty object.
  const key = `${request.operationName ?? ''}\u0000${scalars ? JSON.stringify(variables) : ''}\u0000${request.query}`;
  return key.length <= MAX_KEY_LENGTH ? key : undefined;
}

export function createSharedAnswers(options: SharedAnswersOptions): SharedAnswers {
  const fields = options.fields ?? SHARED_FIELDS;
  const remembered = new Map<string, Remembered>();

  return {
    covers(document) {
      // Every operation and fragment of the document: the one run is among them, and a document
      // that mixes shared and partner fields elsewhere is simply not remembered.
      let shared = true;
      const typeInfo = new TypeInfo(options.schema);
      visit(
        document,
        visitWithTypeInfo(typeInfo, {
          OperationDefinition(node) {
            if (node.operation !== 'query') {
              shared = false;
              return BREAK;
            }
            return undefined;
          },
          Field(node) {
            if (node.name.value === '__typename') return undefined;
            const parent = typeInfo.getParentType();
            if (!parent || !fields.has(`${parent.name}.${node.name.value}`)) {
              shared = false;
              return BREAK;
            }
            return undefined;
          },
        }),
      );
      return shared;
    },
    freshCopy: () => options.source.freshCopy(),
    remember(request, copy, answer) {
      const key = keyOf(request);
      if (key === undefined || options.source.freshCopy() !== copy) return;
      remembered.delete(key);
      if (remembered.size >= options.maxEntries) remembered.delete(remembered.keys().next().value!);
      remembered.set(key, { copy, body: answer.body, bytes: Buffer.from(answer.body, 'utf8'), operationName: answer.operationName });
    },
    lookup(request, token) {
      const key = keyOf(request);
      const hit = key === undefined ? undefined : remembered.get(key);
      if (hit === undefined) return undefined;
      if (hit.copy !== options.source.freshCopy()) {
        // Made from a copy no longer served: executed again, and remembered anew from the new copy.
        remembered.delete(key!);
        return undefined;
      }
      return options.source.accepts(token) ? hit : undefined;
    },
  };
}
