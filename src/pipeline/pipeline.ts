import { GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { createDocumentCache, isKnown, type DocumentCache } from './documents.js';
import type { GraphQLParams } from './params.js';
import { badRequest } from './params.js';
import type { PersistedQueries } from './persisted-queries.js';
import type { TrustedDocuments } from './trusted-documents.js';
import { Repeats } from './repeats.js';
import { createVerdictCache, variablesKeyOf, type OperationVerdict } from './verdicts.js';
import type { CallerKind, DocumentOrigin, KnownDocument, NamedDocument, OperationRequest, Policy, Refusal, Situation, Transport } from './types.js';
import { clientError } from '../graphql/errors.js';

/**
 * The request pipeline: the one place where every rule that decides whether and how a GraphQL
 * request is answered is applied, for every transport and every kind of caller.
 *
 *   name the document (text, documentId, persisted-query hash)
 *   → admit (rate limits) → source (trusted documents)
 *   → the document cache (parse within the token limit, validate with every rule)
 *   → the operation → document verdicts (operation types, scope), kept with the document
 *   → operation verdicts (variables, cost), kept by the variables' values
 *   → a `Prepared` operation, which is what every executor takes.
 *
 * The rules are the `policies` list given once at start-up; no path chooses among them. An
 * executor (Apollo, the compiled path, the subscription transports) can only run a `Prepared`,
 * and only this module makes one: a path that skipped a rule has nothing to run.
 */

declare const preparedBrand: unique symbol;

/** An operation every policy let through, for one request: the only thing executors run. */
export interface Prepared {
  readonly [preparedBrand]: true;
  readonly document: KnownDocument;
  readonly operation: OperationDefinitionNode;
  /** The name the request gave (an operation of the document); undefined for its only one. */
  readonly operationName: string | undefined;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  /** The declared variables' values as one text (undefined: too deep to write): what answers are kept by. */
  readonly variablesKey: string | undefined;
  readonly situation: Situation;
  readonly origin: DocumentOrigin;
}

/** What the pipeline judged of a request, but for whom: kept for a request repeated byte for byte. */
type Judged = Omit<Prepared, typeof preparedBrand | 'situation'>;

/** A judgement for this request's situation. Written out: every Prepared has one shape (see `judge`). */
function preparedOf(judged: Judged, situation: Situation): Prepared {
  const { document, operation, operationName, variables, variablesKey, origin } = judged;
  const prepared: Omit<Prepared, typeof preparedBrand> = { document, operation, operationName, variables, variablesKey, situation, origin };
  return prepared as Prepared;
}

export interface PipelineOptions {
  schema: GraphQLSchema;
  policies: readonly Policy[];
  trusted: TrustedDocuments;
  persisted: PersistedQueries | undefined;
  /** The document cache's bounds: bytes kept, and the longest text worth keeping. */
  documents: { maxBytes: number; maxTextLength: number };
  /** Bytes the operation policies' remembered verdicts may hold. */
  verdictBytes: number;
}

export interface Pipeline {
  readonly policies: readonly Policy[];
  /**
   * Judges a request: a `Prepared` operation to run, or the refusal to answer. Synchronous
   * whenever nothing needs a store (a rate limit on Redis, a persisted query): most requests.
   */
  prepare(params: GraphQLParams, situation: Situation): Prepared | Refusal | Promise<Prepared | Refusal>;
  /**
   * Whether a caller may be served now on a transport, before any operation: the policies'
   * admission alone (rate limits, who a stream is for). A stream asks it when it opens; `prepare`
   * asks it again for every operation.
   */
  admit(situation: Situation): Refusal | undefined | Promise<Refusal | undefined>;
  /**
   * `prepare`, from a request's raw parameters as its transport read them (a POST's body, a GET's
   * query string): `read` makes its parameters when the text is new; a text repeated byte for
   * byte by the same kind of caller on the same transport is judged as it was (repeats.ts), with
   * the admission policies run for it as for any request.
   */
  prepareRaw(raw: string, read: (raw: string) => GraphQLParams | Refusal, situation: Situation): Prepared | Refusal | Promise<Prepared | Refusal>;
  /** The document cache every transport reads (for its stats). */
  readonly documents: DocumentCache;
}

const persistedQueryNotFound = (): Refusal => ({
  // The automatic persisted queries protocol: the client sends the text with the hash next.
  status: 200,
  headers: { 'cache-control': 'private, no-cache, must-revalidate' },
  errors: [clientError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } })],
});

/** Where a document's verdicts for one kind of caller, transport and operation are kept. */
const verdictKey = (callerKind: CallerKind, transport: Transport, operationName: string | undefined) => `policies:${callerKind}:${transport}:${operationName ?? ''}`;

export function createPipeline(options: PipelineOptions): Pipeline {
  const { policies, trusted, persisted } = options;
  // The token limit and every validation rule come from the list: a policy cannot be left out of parsing.
  const maxTokens = Math.min(...policies.map((p) => p.maxTokens ?? Infinity));
  const documents = createDocumentCache({
    schema: options.schema,
    maxTokens: Number.isFinite(maxTokens) ? maxTokens : Number.MAX_SAFE_INTEGER,
    rules: policies.flatMap((p) => p.rules ?? []),
    hideSuggestions: policies.some((p) => p.hideSuggestions),
    ...options.documents,
  });
  const admitting = policies.filter((p) => p.admit);
  const sourcing = policies.filter((p) => p.source);
  const judgingDocuments = policies.filter((p) => p.document);
  const judgingOperations = policies.filter((p) => p.operation);
  const verdicts = createVerdictCache(options.verdictBytes);
  const repeats = new Repeats<Judged>();
  let documentIds = 0;

  /** The document a request names, before the persisted-query store is asked. */
  function named(params: GraphQLParams): NamedDocument | Refusal {
    if (params.documentId !== undefined) {
      return { text: trusted.byId(params.documentId)?.query, origin: 'manifest', id: params.documentId, byDocumentId: true };
    }
    const hash = params.persisted?.sha256Hash;
    // The protocol's own words, which its clients know.
    if (params.persisted && params.persisted.version !== 1) return badRequest('Unsupported persisted query version');
    if (params.query !== undefined) {
      const inManifest = trusted.byText(params.query) !== undefined;
      return { text: params.query, origin: inManifest ? 'manifest' : 'text', id: hash, byDocumentId: false };
    }
    if (hash !== undefined) {
      const fromManifest = trusted.byId(hash)?.query;
      return { text: fromManifest, origin: fromManifest === undefined ? 'persisted' : 'manifest', id: hash, byDocumentId: false };
    }
    return badRequest('The request names no document: send a "query", a "documentId" or a persisted query\'s hash.');
  }

  function fromSource(named: NamedDocument, situation: Situation): Refusal | undefined {
    for (const policy of sourcing) {
      const refusal = policy.source!(named, situation);
      if (refusal) return refusal;
    }
    return undefined;
  }

  /** From a text on: the document, its operation, and every verdict on them. */
  function judge(text: string, source: NamedDocument, params: GraphQLParams, situation: Situation): Prepared | Refusal {
    const outcome = documents.get(text);
    if (!isKnown(outcome)) return { status: 400, errors: outcome.errors };
    // Found in the store by its hash: known by it from now on, with no store round trip.
    if (source.origin === 'persisted') documents.nameByHash(outcome);
    const operation = outcome.operation(params.operationName);
    if (operation instanceof GraphQLError) return { status: 400, errors: [operation] };
    const callerKind = situation.caller.kind;
    const transport = situation.transport;
    const named = { name: operation.name?.value, type: operation.operation };
    const verdict = outcome.memo(verdictKey(callerKind, transport, params.operationName), () => {
      for (const policy of judgingDocuments) {
        const refusal = policy.document!(outcome, operation, { callerKind, transport });
        if (refusal) return { ...refusal, operation: named };
      }
      return null;
    });
    if (verdict) return verdict;
    const { operationName, variables } = params;
    const request: OperationRequest = { document: outcome, operation, operationName, variables };
    const variablesKey = variablesKeyOf(operation, variables);
    const on = { callerKind, transport };
    let judged: OperationVerdict | undefined;
    if (variablesKey === undefined) judged = judgeOperation(request, on);
    else {
      const key = `${outcome.memo('pipeline:id', () => ++documentIds)}|${callerKind}|${transport}|${operationName ?? ''}|${variablesKey}`;
      judged = verdicts.get(key);
      if (judged === undefined) verdicts.set(key, (judged = judgeOperation(request, on)));
    }
    if (judged) return { ...judged, operation: named };
    // Written out rather than spread from `request`: every Prepared has one shape, which keeps
    // the executors' and the response cache's reads of it monomorphic.
    const prepared: Omit<Prepared, typeof preparedBrand> = { document: outcome, operation, operationName, variables, variablesKey, situation, origin: source.origin ?? 'text' };
    return prepared as Prepared;
  }

  function judgeOperation(request: OperationRequest, on: { callerKind: CallerKind; transport: Transport }): OperationVerdict {
    for (const policy of judgingOperations) {
      const refusal = policy.operation!(request, on);
      if (refusal) return refusal;
    }
    return null;
  }

  /** A persisted query named by hash alone, not in the manifest: the kept document, else the store. */
  async function fromStore(hash: string, named: NamedDocument, params: GraphQLParams, situation: Situation): Promise<Prepared | Refusal> {
    const text = persisted ? await persisted.get(hash) : undefined;
    if (text === undefined) return persistedQueryNotFound();
    return judge(text, named, params, situation);
  }

  function afterAdmission(params: GraphQLParams, situation: Situation): Prepared | Refusal | Promise<Prepared | Refusal> {
    const name = named(params);
    if ('errors' in name) return name;
    const refused = fromSource(name, situation);
    if (refused) return refused;
    if (name.text !== undefined) {
      if (name.id !== undefined && name.origin !== 'manifest' && params.query !== undefined) {
        // A text sent with its hash registers it, once it is known to be valid.
        return register(name.id, params.query, name, params, situation);
      }
      return judge(name.text, name, params, situation);
    }
    if (name.byDocumentId) return trusted.notFound(name.id!);
    const hash = name.id!;
    // A hash names one text for ever: a document this process kept under it needs no store.
    const kept = documents.byHash(hash);
    if (kept) {
      persisted?.keptHit();
      return judge(kept.text, name, params, situation);
    }
    return fromStore(hash, name, params, situation);
  }

  /**
   * A text sent with its hash: answered as any text is, and registered when the caller may run
   * it (every policy let it through, and its kind of caller registers at all) and it is no longer
   * than any document worth keeping: the tokens bound what a document does, its length what
   * keeping it costs (a comment is no token).
   */
  function register(hash: string, text: string, name: NamedDocument, params: GraphQLParams, situation: Situation): Prepared | Refusal {
    if (!persisted) return persistedQueryNotFound();
    if (!persisted.matches(hash, text)) return badRequest('provided sha does not match query');
    const prepared = judge(text, name, params, situation);
    if (!('errors' in prepared) && text.length <= options.documents.maxTextLength && persisted.registers(situation.caller)) {
      persisted.register(hash, text);
      documents.nameByHash(prepared.document);
    }
    return prepared;
  }

  /** The rest of admission once a policy needs a store (or the API): one after another, the first refusal wins. */
  async function admitFrom(pending: Promise<Refusal | undefined>, next: number, situation: Situation): Promise<Refusal | undefined> {
    const refused = await pending;
    if (refused) return refused;
    for (let i = next; i < admitting.length; i++) {
      const verdict = await admitting[i]!.admit!(situation);
      if (verdict) return verdict;
    }
    return undefined;
  }

  function admit(situation: Situation): Refusal | undefined | Promise<Refusal | undefined> {
    for (let i = 0; i < admitting.length; i++) {
      const verdict = admitting[i]!.admit!(situation);
      if (verdict instanceof Promise) return admitFrom(verdict, i + 1, situation);
      if (verdict) return verdict;
    }
    return undefined;
  }

  /** A request's raw parameters, once it was admitted: judged as the same text was, or read and judged. */
  function fromRaw(raw: string, read: (raw: string) => GraphQLParams | Refusal, situation: Situation): Prepared | Refusal | Promise<Prepared | Refusal> {
    const callerKind = situation.caller.kind;
    const transport = situation.transport;
    const kept = repeats.get(callerKind, transport, raw);
    if (kept) {
      if (kept.origin === 'persisted') persisted?.keptHit();
      return preparedOf(kept, situation);
    }
    const params = read(raw);
    if ('errors' in params) return params;
    // A text sent with its hash registers it: judged anew each time, so a registration lost by
    // the store is made again when the client sends the text again.
    const registers = params.query !== undefined && params.persisted !== undefined;
    const keep = (prepared: Prepared | Refusal): Prepared | Refusal => {
      // Nor is a mutation's text kept: nearly each says something new (a campaign, a pin, a lead),
      // so keeping them would push out the reads that do repeat, and keep every write's text and
      // values alive for thousands of requests, long enough for the young generation to promote them.
      if (!registers && !('errors' in prepared) && prepared.operation.operation !== 'mutation') repeats.set(callerKind, transport, raw, prepared);
      return prepared;
    };
    const prepared = afterAdmission(params, situation);
    return prepared instanceof Promise ? prepared.then(keep) : keep(prepared);
  }

  return {
    policies,
    documents,
    admit,
    prepareRaw(raw, read, situation) {
      const refused = admit(situation);
      if (refused instanceof Promise) return refused.then((verdict) => verdict ?? fromRaw(raw, read, situation));
      return refused ?? fromRaw(raw, read, situation);
    },
    prepare(params, situation) {
      const refused = admit(situation);
      if (refused instanceof Promise) return refused.then((verdict) => verdict ?? afterAdmission(params, situation));
      return refused ?? afterAdmission(params, situation);
    },
  };
}
