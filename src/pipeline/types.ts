import type { DocumentNode, GraphQLError, OperationDefinitionNode, ValidationRule } from 'graphql';

/**
 * The words of the request pipeline: how a request arrived, who sent it, and the rules that decide
 * whether and how it is answered. The pipeline knows no domain: app keys, trusted documents and
 * the campaign API come in as policies and caller kinds declared by their own modules.
 */

/** How a GraphQL request arrived: an HTTP POST or GET to /graphql, a WebSocket or an SSE stream. */
export type Transport = 'post' | 'get' | 'websocket' | 'sse';

/** The transports that hold a stream open for a caller: what they admit, they serve for as long as it lasts. */
export const isStreaming = (transport: Transport): boolean => transport === 'websocket' || transport === 'sse';

/** Why a request carries no partner token: no Authorization header, or one that is not "Bearer <token>". */
export type TokenProblem = 'missing' | 'malformed';

/**
 * Who sent a request: a partner with its token, an app with its key (the app's own module knows
 * what an app is), or nobody the server knows.
 */
export type Caller =
  | { readonly kind: 'partner'; readonly token: string }
  | { readonly kind: 'app'; readonly app: AppCaller }
  | { readonly kind: 'anonymous'; readonly problem: TokenProblem };

/** What the pipeline needs of an app: a name for messages and a key for what is kept per app. */
export interface AppCaller {
  readonly name: string;
  /** The key's keyed hash, never the key: what per-app caches and limits are keyed on. */
  readonly keyHash: string;
  readonly partnerTokens: readonly string[];
}

export type CallerKind = Caller['kind'];

/** A request answered without running anything: its status, its errors and any headers it needs. */
export interface Refusal {
  readonly status: number;
  readonly errors: readonly GraphQLError[];
  readonly headers?: Readonly<Record<string, string>>;
  /** The operation refused, once the pipeline knew it (for the request's log line). */
  readonly operation?: { readonly name: string | undefined; readonly type: string };
}

/** Where a request stands while the pipeline judges it. */
export interface Situation {
  readonly caller: Caller;
  readonly transport: Transport;
  /** The client's address (behind trusted proxies, the one they name), for limits per client. */
  readonly client: string;
}

/** Where the text to run came from: the request itself, the trusted-documents manifest, or the persisted-query store. */
export type DocumentOrigin = 'text' | 'manifest' | 'persisted';

/** The document a request names, once its name is resolved (undefined text: named but unknown). */
export interface NamedDocument {
  readonly text: string | undefined;
  readonly origin: DocumentOrigin | undefined;
  /** The id or hash it was named by, if any. */
  readonly id: string | undefined;
  /** Named by GraphQL over HTTP's `documentId` (which names manifest documents only). */
  readonly byDocumentId: boolean;
}

/**
 * A text that parsed within the token limit and passed validation, kept by the document cache with
 * whatever policies and executors worked out about it.
 */
export interface KnownDocument {
  readonly text: string;
  /** SHA-256 of the text in hex: how persisted queries and trusted documents name it. */
  readonly hash: string;
  readonly document: DocumentNode;
  /** The operation a request names (none: the only one), or why there is none to run. */
  operation(name: string | undefined): OperationDefinitionNode | GraphQLError;
  /** What `make` gives for `key`, made once for this document and kept with it. */
  memo<T>(key: string, make: () => T): T;
}

/** An operation of a document with the request's variables, as operation policies judge it. */
export interface OperationRequest {
  readonly document: KnownDocument;
  readonly operation: OperationDefinitionNode;
  readonly operationName: string | undefined;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
}

/**
 * One rule of the pipeline, declared once in the list every path runs (src/pipeline/pipeline.ts).
 * A rule has one or more of these hooks, each run at its stage for every request on every
 * transport; what depends on the document alone is worked out once and kept with the document.
 */
export interface Policy {
  readonly name: string;
  /** The most tokens a document may have: parsing stops there, before anything else reads it. */
  readonly maxTokens?: number;
  /** graphql-js validation rules, run once per document with the specification's own. */
  readonly rules?: readonly ValidationRule[];
  /** Validation errors leave without graphql-js's "Did you mean …?": the schema's names are not disclosed. */
  readonly hideSuggestions?: boolean;
  /** Before the document is looked up: whether this caller may send a request now (rate limits). */
  admit?(situation: Situation): Refusal | undefined | Promise<Refusal | undefined>;
  /** Once the document's name is resolved: whether it may be run from where it came (trusted documents). */
  source?(named: NamedDocument, situation: Situation): Refusal | undefined;
  /**
   * An operation of a valid document, for a kind of caller on a transport: kept with the document,
   * so it is worked out once for each (operation types per transport, what an app key reaches).
   */
  document?(document: KnownDocument, operation: OperationDefinitionNode, on: { callerKind: CallerKind; transport: Transport }): Refusal | undefined;
  /**
   * An operation with a request's variables (their coercion, the cost of the operation with them).
   * It sees the kind of caller and the transport, never who the caller is: the verdict is kept by
   * the variables' values and given again to the same request.
   */
  operation?(request: OperationRequest, on: { callerKind: CallerKind; transport: Transport }): Refusal | undefined;
}
