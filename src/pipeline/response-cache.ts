import { createHash } from 'node:crypto';
import {
  Kind,
  TypeInfo,
  getNamedType,
  isCompositeType,
  visit,
  visitWithTypeInfo,
  type DirectiveNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { BoundedMemory, UnderWay } from '../bounded/index.js';
import type { Prepared } from './pipeline.js';
import type { Caller, KnownDocument } from './types.js';

/**
 * Answers remembered after an execution and sent again as they are, while they still hold: no
 * context, no execution, no serialisation. A stage after the policies, so a remembered answer only
 * ever reaches a request every policy let through.
 *
 * What may be remembered, and for whom, is declared in the schema with `@cacheControl` (Apollo's
 * directive): an answer is remembered only when every field it selects has a hint, for the
 * smallest `maxAge` among them, and shared by every caller only when all of them are
 * `scope: PUBLIC`; otherwise it is kept for its caller alone. A field added to the schema without
 * a hint makes every answer that selects it be executed each time.
 *
 * An answer also holds only while the data it was made from does: what a resolver read tells the
 * request (`ResponseFacts.depends`) how to know when it changed (a new copy of the category
 * directory, a new version of an offer feed), and the remembered answer gives way then.
 *
 * Requests for an answer that is being made wait for it rather than execute it again: a burst of
 * the same request on a cold cache (an app's opens after a push) is executed, serialised and
 * encoded once, and every request of it is sent the same bytes.
 */

/** Whether data an answer was made from is still what a read would get now. */
export interface Freshness {
  fresh(): boolean;
  /** When it stops being fresh at the latest (epoch ms), if known: the answer is let go then. */
  until?: number;
}

/** What one request's execution tells the response stage, besides its result. */
export class ResponseFacts {
  #depends: Freshness[] | undefined;
  #extensions: Record<string, unknown> | undefined;
  /** Something read was not fresh (a stale feed, a cold copy): the answer is not remembered. */
  #uncacheable = false;

  /** The answer holds while `freshness` does; without any (undefined), it cannot be remembered. */
  depends(freshness: Freshness | undefined): void {
    if (!freshness) this.#uncacheable = true;
    else (this.#depends ??= []).push(freshness);
  }

  /** Adds to the answer's `extensions` (a stale feed says so); such an answer is not remembered. */
  extend(key: string, merge: (previous: unknown) => unknown): void {
    this.#extensions ??= {};
    this.#extensions[key] = merge(this.#extensions[key]);
    this.#uncacheable = true;
  }

  get extensions(): Record<string, unknown> | undefined {
    return this.#extensions;
  }

  get uncacheable(): boolean {
    return this.#uncacheable;
  }

  get freshness(): readonly Freshness[] {
    return this.#depends ?? [];
  }
}

export interface CachePolicy {
  scope: 'PUBLIC' | 'PRIVATE';
  maxAgeMs: number;
}

/** A remembered answer, as the writer sends it. */
export interface RememberedAnswer {
  /**
   * The body encoded once, sent as these bytes to every request it answers. Its text is not kept:
   * sent as text, a body that is not ASCII (a feed's Russian cards) would be encoded again for
   * each request, and the store would hold it twice while counting once.
   */
  readonly bytes: Buffer;
  /** A strong validator of the body, for HTTP caches (`ETag`). */
  readonly etag: string;
  readonly operationName: string | undefined;
  readonly operationType: string;
}

interface Entry extends RememberedAnswer {
  readonly freshness: readonly Freshness[];
}

export interface ResponseCacheOptions {
  schema: GraphQLSchema;
  /** Bytes the remembered answers may hold, with their keys. */
  maxBytes: number;
  /**
   * A key for what is remembered for one caller alone, never derived from a secret without one of
   * the server's (an app's key hash; a keyed hash of a partner's token); undefined: nothing is
   * remembered for that caller.
   */
  callerKey(caller: Caller): string | undefined;
  /**
   * Whether a caller's credentials are known to be good right now (an app key the server holds; a
   * partner token the campaign API accepted lately): only such callers get remembered answers, so
   * a refused token gets the same refusal whatever is remembered.
   */
  trusts(caller: Caller): boolean;
  /** Bytes an answer's writer may keep beside it (its compressed copies), counted with it. */
  allowance?: (bodyBytes: number) => number;
}

const ENTRY_OVERHEAD = 512;

/** The `@cacheControl` hint of a field or type, if it has one. */
function hintOf(directives: readonly DirectiveNode[] | undefined): { maxAge?: number; scope?: string } | undefined {
  const directive = directives?.find((d) => d.name.value === 'cacheControl');
  if (!directive) return undefined;
  const hint: { maxAge?: number; scope?: string } = {};
  for (const argument of directive.arguments ?? []) {
    if (argument.name.value === 'maxAge' && argument.value.kind === Kind.INT) hint.maxAge = Number(argument.value.value);
    if (argument.name.value === 'scope' && argument.value.kind === Kind.ENUM) hint.scope = argument.value.value;
  }
  return hint;
}

/**
 * The cache policy of an operation, from the schema's hints: null when any field it selects, or
 * any object it returns, has none (it is then executed every time).
 */
export function cachePolicyOf(schema: GraphQLSchema, document: KnownDocument, operation: OperationDefinitionNode): CachePolicy | null {
  if (operation.operation !== 'query') return null;
  let maxAge = Infinity;
  let scope: CachePolicy['scope'] = 'PUBLIC';
  let cacheable = true;
  const typeInfo = new TypeInfo(schema);
  // bounded: the fragments of one document, for this call (the visitor runs within it).
  const fragments = new Set<string>();
  const judge = (node: OperationDefinitionNode | FragmentDefinitionNode) =>
    visit(
      node,
      visitWithTypeInfo(typeInfo, {
        FragmentSpread(spread) {
          fragments.add(spread.name.value);
        },
        Field() {
          const field = typeInfo.getFieldDef();
          if (!field) return undefined;
          if (field.name === '__typename') return undefined;
          if (field.name.startsWith('__')) {
            cacheable = false;
            return undefined;
          }
          const type = getNamedType(field.type);
          const hint = hintOf(field.astNode?.directives) ?? (isCompositeType(type) ? hintOf(type.astNode?.directives) : undefined);
          if (!hint) {
            // A scalar inherits its parent's hint; anything else unhinted is never remembered.
            if (isCompositeType(type) || typeInfo.getParentType() === schema.getQueryType()) cacheable = false;
            return undefined;
          }
          if (hint.maxAge !== undefined) maxAge = Math.min(maxAge, hint.maxAge);
          if (hint.scope === 'PRIVATE') scope = 'PRIVATE';
          return undefined;
        },
      }),
    );
  judge(operation);
  // Fragments spread anywhere in the operation, followed once each.
  const seen = new Set<string>();
  for (let added = true; added && cacheable; ) {
    added = false;
    for (const name of [...fragments]) {
      if (seen.has(name)) continue;
      seen.add(name);
      added = true;
      const fragment = document.document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
      if (fragment) judge(fragment);
    }
  }
  if (!cacheable || !(maxAge > 0) || maxAge === Infinity) return null;
  return { scope, maxAgeMs: maxAge * 1000 };
}

export interface ResponseCache {
  /** The remembered answer to a prepared request, while it holds and its caller may have it. */
  lookup(prepared: Prepared): RememberedAnswer | undefined;
  /**
   * Remembers an answer made for `prepared` (without errors), when its policy and facts allow;
   * returns what was remembered (with its ETag), or undefined.
   */
  remember(prepared: Prepared, body: string, facts: ResponseFacts): RememberedAnswer | undefined;
  /** The cache policy of a prepared request (kept with its document). */
  policy(prepared: Prepared): CachePolicy | null;
  /**
   * A request that found nothing to look up is about to execute: if another request is making the
   * same answer right now, `waitFor` resolves to what that one remembered when this request's
   * caller may have it then, or to undefined (execute then, and make no one wait). Otherwise this
   * request makes it, so that requests for the same answer arriving meanwhile wait for it rather
   * than execute it again, and calls `made` once its execution is over, with what it remembered
   * (if anything).
   */
  share(prepared: Prepared): Sharing;
  stats(): { entries: number; bytes: number };
}

/** What `share` gives: the answer to wait for, or the end of this request's own making. */
export type Sharing =
  | { readonly waitFor: Promise<RememberedAnswer | undefined>; readonly made?: undefined }
  | { readonly waitFor?: undefined; readonly made: (remembered: RememberedAnswer | undefined) => void };

interface BeingMade {
  readonly answer: Promise<RememberedAnswer | undefined>;
  readonly settle: (remembered: RememberedAnswer | undefined) => void;
}

/** Answers being made at once at most; past it a request is not waited for by later ones. */
const MAX_BEING_MADE = 10_000;

const madeAlone: Sharing = { made: () => undefined };

export const etagOf = (body: string): string => `"${createHash('sha1').update(body).digest('base64url')}"`;

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const answers = new BoundedMemory<string, Entry>({
    maxBytes: options.maxBytes,
    sizeOf: (entry, key) => entry.bytes.length + (options.allowance?.(entry.bytes.length) ?? 0) + key.length * 2 + ENTRY_OVERHEAD,
    // Expired answers leave at once: an idle process gives them back.
    dropExpired: true,
  });
  let documents = 0;
  const beingMade = new UnderWay<string, BeingMade>(MAX_BEING_MADE);

  const policy = (prepared: Prepared) =>
    prepared.document.memo(`cache-policy:${prepared.operationName ?? ''}`, () => cachePolicyOf(options.schema, prepared.document, prepared.operation));

  /** The key of a request's answer, or undefined when nothing may be remembered for it. */
  function keyOf(prepared: Prepared): string | undefined {
    const cachePolicy = policy(prepared);
    if (!cachePolicy) return undefined;
    const { caller } = prepared.situation;
    const who = cachePolicy.scope === 'PUBLIC' ? '*' : options.callerKey(caller);
    if (who === undefined) return undefined;
    const id = prepared.document.memo('response-cache:id', () => ++documents);
    const values = prepared.variablesKey;
    if (values === undefined) return undefined;
    return `${id}|${prepared.operationName ?? ''}|${who}|${values}`;
  }

  return {
    policy,
    lookup(prepared) {
      const key = keyOf(prepared);
      if (key === undefined) return undefined;
      const entry = answers.get(key);
      if (!entry) return undefined;
      if (!options.trusts(prepared.situation.caller)) return undefined;
      for (const freshness of entry.freshness) {
        if (!freshness.fresh()) {
          answers.delete(key);
          return undefined;
        }
      }
      return entry;
    },
    remember(prepared, body, facts) {
      if (facts.uncacheable) return undefined;
      const key = keyOf(prepared);
      if (key === undefined) return undefined;
      // Made from data that changed while it ran: not remembered.
      for (const freshness of facts.freshness) if (!freshness.fresh()) return undefined;
      const entry: Entry = {
        bytes: Buffer.from(body, 'utf8'),
        etag: etagOf(body),
        operationName: prepared.operation.name?.value,
        operationType: prepared.operation.operation,
        freshness: facts.freshness,
      };
      // Kept no longer than the schema allows, nor past the freshness of what it was made from.
      let ttl = policy(prepared)!.maxAgeMs;
      for (const freshness of facts.freshness) if (freshness.until !== undefined) ttl = Math.min(ttl, freshness.until - Date.now());
      if (!(ttl > 0)) return undefined;
      answers.set(key, entry, ttl);
      return entry;
    },
    share(prepared) {
      const key = keyOf(prepared);
      if (key === undefined) return madeAlone;
      const other = beingMade.get(key);
      if (other) {
        // What a waiting request gets is a remembered answer: only for a caller a lookup would serve
        // once it is made (a token first seen in this burst is accepted by the execution it waits for).
        const { caller } = prepared.situation;
        return { waitFor: other.answer.then((remembered) => (remembered && options.trusts(caller) ? remembered : undefined)) };
      }
      let settle!: BeingMade['settle'];
      const answer = new Promise<RememberedAnswer | undefined>((resolve) => (settle = resolve));
      const own: BeingMade = { answer, settle };
      if (!beingMade.enter(key, own)) return madeAlone;
      return {
        made(remembered) {
          beingMade.leave(key, own);
          settle(remembered);
        },
      };
    },
    stats: () => ({ entries: answers.size, bytes: answers.bytes }),
  };
}
