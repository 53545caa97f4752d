import { createHash } from 'node:crypto';
import {
  GraphQLError,
  Kind,
  Source,
  TokenKind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { BoundedMemory } from '../bounded/index.js';
import type { KnownDocument } from './types.js';
import { clientError } from '../graphql/errors.js';

/**
 * The one document cache of the process: a text is parsed within the token limit (first, before
 * anything else reads it), validated with the specification's rules and the policies', and kept
 * with what policies and executors work out about it (their verdicts, a compiled function). Every
 * transport reads it: POST and GET, WebSocket and SSE. A refusal (a syntax error, a rule broken)
 * is kept as well, so a client repeating a bad document costs a lookup.
 *
 * Kept by the text itself (hashed by V8, without a digest per request) and, once a client names a
 * document by hash, by its SHA-256 too; bounded by bytes, the least recently used going first.
 * Texts longer than any document worth keeping are judged each time and never kept.
 */
export interface DocumentCacheOptions {
  schema: GraphQLSchema;
  maxTokens: number;
  /** Validation rules beyond the specification's own (the policies'). */
  rules: readonly ValidationRule[];
  /** Bytes the kept documents may hold, about (see `documentBytes`). */
  maxBytes: number;
  /** Texts longer than this are judged each time and never kept. */
  maxTextLength: number;
  /** Validation errors leave without graphql-js's suggestions of names. */
  hideSuggestions?: boolean;
}

/** A text the pipeline cannot run: why, as GraphQL errors with their codes. */
export interface RefusedDocument {
  readonly errors: readonly GraphQLError[];
}

export type DocumentOutcome = KnownDocument | RefusedDocument;

export const isKnown = (outcome: DocumentOutcome): outcome is KnownDocument => 'document' in outcome;

/**
 * About the memory a parsed document holds: its syntax tree and tokens (and what is kept with it,
 * such as compiled code) grow with its tokens, and its text is held whole by its location, however
 * little of it the tokens cover (a comment, a string).
 */
const BYTES_PER_TOKEN = 1024;
const BYTES_PER_CHARACTER = 3;

export function documentBytes(document: DocumentNode | undefined, textLength: number): number {
  let tokens = 0;
  for (let token = document?.loc?.startToken; token && token.kind !== TokenKind.EOF; token = token.next ?? undefined) tokens++;
  return BYTES_PER_CHARACTER * textLength + BYTES_PER_TOKEN * Math.max(tokens, 1);
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

class Known implements KnownDocument {
  #hash: string | undefined;
  // bounded: the document's own operations, by name.
  readonly #operations = new Map<string, OperationDefinitionNode>();
  readonly #count: number;
  // bounded: what is worked out once per document, under the code's names and the document's own
  // operations' names, kept as long as the document is.
  readonly #memo = new Map<string, unknown>();

  constructor(
    readonly text: string,
    readonly document: DocumentNode,
  ) {
    let count = 0;
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      count++;
      if (definition.name) this.#operations.set(definition.name.value, definition);
      if (count === 1) this.#operations.set('', definition);
    }
    this.#count = count;
  }

  get hash(): string {
    return (this.#hash ??= sha256Hex(this.text));
  }

  operation(name: string | undefined): OperationDefinitionNode | GraphQLError {
    const found = name ? this.#operations.get(name) : this.#count === 1 ? this.#operations.get('') : undefined;
    if (found) return found;
    const message = name
      ? `Unknown operation named ${JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name)}.`
      : this.#count === 0
        ? 'The document has no operation to run.'
        : 'The document has several operations: name the one to run in "operationName".';
    return clientError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } });
  }

  memo<T>(key: string, make: () => T): T {
    if (this.#memo.has(key)) return this.#memo.get(key) as T;
    const value = make();
    this.#memo.set(key, value);
    return value;
  }
}

/**
 * The part of a source a refusal's positions need: a location is worked out by reading the text
 * up to its position, and graphql-js reads on to the next line break, which a long one-line
 * document puts at its end.
 */
function throughPositions(source: Source | undefined, positions: readonly number[] | undefined): Source | undefined {
  if (!source || !positions?.length) return source;
  const end = Math.max(...positions) + 1;
  return end >= source.body.length ? source : new Source(source.body.slice(0, end), source.name, source.locationOffset);
}

/** Errors as the API answers them: what a syntax or validation error lacks in code, it gets here. */
function coded(error: GraphQLError, code: string, extra: Record<string, unknown> = {}, hideSuggestions = false): GraphQLError {
  // graphql-js ends a message with its suggestions: `Cannot query field "x" on type "Query". Did you mean "y"?`
  const message = hideSuggestions ? error.message.replace(/ Did you mean .+\?$/s, '') : error.message;
  return clientError(message, {
    nodes: error.nodes,
    source: throughPositions(error.source, error.positions),
    positions: error.positions,
    originalError: error.originalError ?? undefined,
    // Rules that name what they refused (a limit) keep saying so; the code is what kind of refusal it is.
    extensions: { ...error.extensions, ...extra, code },
  });
}

export interface DocumentCache {
  /** The text judged: a known document, or why it cannot run. */
  get(text: string): DocumentOutcome;
  /** A document kept earlier under its SHA-256 (a persisted query named by hash), if any. */
  byHash(hash: string): KnownDocument | undefined;
  /** Keeps a document under its SHA-256 as well, for clients that name it by hash. */
  nameByHash(document: KnownDocument): void;
  /** What the cache holds now: entries, and their bytes as counted against the bound. */
  stats(): { entries: number; bytes: number };
}

export function createDocumentCache(options: DocumentCacheOptions): DocumentCache {
  const rules = [...specifiedRules, ...options.rules];
  const byText = new BoundedMemory<string, DocumentOutcome>({
    maxBytes: options.maxBytes,
    sizeOf: (outcome, text) => documentBytes(isKnown(outcome) ? outcome.document : undefined, text.length),
  });
  // The same documents again, by their digest: each stands only while the text's entry does.
  const byDigest = new BoundedMemory<string, KnownDocument>({ maxEntries: 10_000 });

  function judge(text: string): DocumentOutcome {
    let document: DocumentNode;
    try {
      document = parse(text, { maxTokens: options.maxTokens });
    } catch (error) {
      // graphql-js parses recursively: a document nested deep enough overflows the stack first.
      if (error instanceof RangeError) return { errors: [clientError('Syntax Error: the document nests too deeply to be read.', { extensions: { code: 'GRAPHQL_PARSE_FAILED', limit: 'depth' } })] };
      if (!(error instanceof GraphQLError)) throw error;
      // graphql-js says so in words only: "Document contains more that N tokens. Parsing aborted."
      const limit = / tokens\. Parsing aborted\.$/.test(error.message) ? { limit: 'tokens' } : {};
      return { errors: [coded(error, 'GRAPHQL_PARSE_FAILED', limit)] };
    }
    let errors: readonly GraphQLError[];
    try {
      errors = validate(options.schema, document, rules);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      errors = [clientError('The document nests too deeply to be validated.', { extensions: { limit: 'depth' } })];
    }
    if (errors.length) return { errors: errors.map((error) => coded(error, 'GRAPHQL_VALIDATION_FAILED', {}, options.hideSuggestions)) };
    return new Known(text, document);
  }

  return {
    get(text) {
      let outcome = byText.get(text);
      if (outcome === undefined) {
        outcome = judge(text);
        if (text.length <= options.maxTextLength) byText.set(text, outcome);
      }
      return outcome;
    },
    byHash(hash) {
      const known = byDigest.get(hash);
      if (known === undefined) return undefined;
      // Still the cache's own: a document it let go of is judged again from its text.
      if (byText.peek(known.text) === known) return known;
      byDigest.delete(hash);
      return undefined;
    },
    nameByHash(document) {
      if (byText.peek(document.text) === document) byDigest.set(document.hash, document);
    },
    stats: () => ({ entries: byText.size, bytes: byText.bytes }),
  };
}
