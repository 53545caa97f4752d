import { createHash } from 'node:crypto';
import { Kind } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { FastPathRequest } from '../graphql/operation-cache.js';
import type { ClientAddress } from '../server/client-address.js';
import type { Gate, GateAnswer, GatePass, GateRequest } from '../server/http.js';
import type { AppKey, AppKeyRegistry } from './app-keys.js';
import type { AppsContext } from './context.js';
import type { FeedCache } from './feed-cache.js';
import type { RateLimiter } from './rate-limit.js';
import type { TrustedDocument, TrustedDocuments } from './trusted-documents.js';
import { quote } from '../campaign-api/index.js';

/**
 * The door of /graphql for apps, before anything runs:
 *
 * 1. `X-App-Key`: an unknown or revoked key is 401 before any backend call; the request then
 *    acts for the key's partners without any partner token in it.
 * 2. Rate limits per app key and per client address (app requests): 429 with `Retry-After`.
 * 3. Trusted documents: a document named by `documentId` or `extensions.persistedQuery` is
 *    replaced by its text from the manifest (an unknown id is a 4xx, never a backend call); app
 *    keys in production, and partner tokens with `TRUSTED_DOCUMENTS_ONLY`, run nothing else.
 * 4. HTTP caching: an app's GET of a trusted document answers `Cache-Control: public` with an
 *    `ETag`, and 304 to a matching `If-None-Match`; partner answers are `private, no-store`.
 *    The answer itself is remembered per app, document and variables until the feed changes,
 *    so a warm app open costs neither the backend nor an execution. What is remembered is
 *    bounded by bytes, keyed on what changes the answer (the variables the operation declares,
 *    in a canonical form), and dropped once past the feed's freshness.
 */
export interface GateOptions {
  keys: AppKeyRegistry;
  trusted: TrustedDocuments;
  feed: FeedCache;
  limiter: RateLimiter;
  /** App keys may run only trusted documents (production). */
  appsTrustedOnly: boolean;
  /** Partner tokens may run only trusted documents (`TRUSTED_DOCUMENTS_ONLY`). */
  partnersTrustedOnly: boolean;
  appKeyRateLimit: number;
  clientRateLimit: number;
  /** The client of a request, also behind trusted proxies (server/client-address.ts). */
  clientAddress: ClientAddress;
  httpMaxAgeS: number;
  httpStaleWhileRevalidateS: number;
  /** Answers remembered are good for at most this long (the feed's freshness). */
  memoMs: number;
  /** Keys the HMAC of offer feed cursors (handed to the resolvers in the request's state). */
  cursorSecret: string;
  onRefused?: (reason: 'app_key' | 'rate_limit' | 'trusted_document') => void;
}

/**
 * Bytes of answers (and their keys) remembered at most, the least recently used going first:
 * enough for the pages a few apps open; past it an app open executes, from the feed cache.
 */
export const MEMO_MAX_BYTES = 16 * 1024 * 1024;
/** A count bound as well, for the bookkeeping of many small answers. */
const MEMO_MAX_ENTRIES = 4096;
/** What an entry costs beyond its answer and key: the entry, its headers, ETag and timer. */
const MEMO_ENTRY_OVERHEAD = 512;
const PRIVATE = { 'cache-control': 'private, no-store' };
const NO_STORE = { 'cache-control': 'no-store' };

function refuse(status: number, code: string, message: string, headers: Record<string, string> = {}, extensions: Record<string, unknown> = {}): GateAnswer {
  return {
    answer: { status, headers, body: JSON.stringify({ errors: [{ message, extensions: { code, ...extensions } }] }) },
    facts: { path: 'gate', errorCode: code },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function persistedHash(extensions: unknown): string | undefined {
  if (!isObject(extensions) || !isObject(extensions.persistedQuery)) return undefined;
  const hash = extensions.persistedQuery.sha256Hash;
  return typeof hash === 'string' ? hash : undefined;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Whether `If-None-Match` names this ETag (weak or strong, or `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

interface Memo {
  version: string;
  etag: string;
  /** Encoded once, sent as it is to every app open until the feed changes. */
  bytes: Buffer;
  headers: Record<string, string>;
  /** The operation it answered, for the request line of each app open it serves. */
  operationName: string | undefined;
}

/** JSON with every object's keys in order: equal values give equal text, whatever the client's order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Per trusted document: each operation's name (`''` also names an only one) and the variables it declares. */
const declaredOf = new WeakMap<TrustedDocument, Map<string, { name: string; variables: string[] }>>();

function operationOf(trusted: TrustedDocument, operationName: string | null): { name: string; variables: string[] } | undefined {
  let operations = declaredOf.get(trusted);
  if (!operations) {
    operations = new Map();
    const definitions = trusted.document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    for (const d of definitions) {
      const operation = { name: d.name?.value ?? '', variables: (d.variableDefinitions ?? []).map((v) => v.variable.name.value) };
      if (d.name) operations.set(d.name.value, operation);
      if (definitions.length === 1) operations.set('', operation);
    }
    declaredOf.set(trusted, operations);
  }
  return operations.get(operationName ?? '');
}

/**
 * What an app's GET answer depends on besides the feed: the app, the document, the operation and
 * the values of the variables it declares. Variables it does not declare, key order and spacing
 * change nothing, so they make no entry of their own. Undefined when the request names no
 * operation of the document (its answer is an error, never remembered).
 */
function memoKeyOf(app: AppKey, trusted: TrustedDocument, operationName: string | null, variables: Record<string, unknown> | null): string | undefined {
  const operation = operationOf(trusted, operationName);
  if (!operation) return undefined;
  let values = '';
  for (const name of operation.variables) {
    if (variables && Object.hasOwn(variables, name)) values += `${JSON.stringify(name)}:${canonical(variables[name])},`;
  }
  return `${app.keyHash}|${trusted.hash}|${operation.name}|${values}`;
}

export interface AppGate extends Gate {
  /** What the remembered answers hold now: entries, and their bytes as counted against the bound. */
  remembered(): { entries: number; bytes: number };
}

export function createAppGate(options: GateOptions): AppGate {
  const memo = new LRUCache<string, Memo>({
    max: MEMO_MAX_ENTRIES,
    maxSize: MEMO_MAX_BYTES,
    sizeCalculation: (entry, key) => entry.bytes.length + key.length + MEMO_ENTRY_OVERHEAD,
    ttl: options.memoMs,
    // Expired answers leave at once, not only when pushed out: an idle process gives them back.
    ttlAutopurge: true,
  });
  const publicCache = `public, max-age=${options.httpMaxAgeS}, stale-while-revalidate=${options.httpStaleWhileRevalidateS}`;
  // Vary names both: CORS answers vary by Origin, and a CDN must never give one app's feed to another.
  const cacheable = (etag: string) => ({ 'cache-control': publicCache, etag, vary: 'Origin, X-App-Key' });

  /** An app's request: its key, then its rate limits, which may need the shared store. */
  async function appRequest(request: GateRequest, keyHeader: string): Promise<GateAnswer | GatePass> {
    const { req } = request;
    if (req.headers.authorization) {
      return refuse(400, 'BAD_REQUEST', 'Send either X-App-Key (an app) or Authorization (a partner), not both.');
    }
    const app = options.keys.lookup(keyHeader.trim());
    if (!app) {
      options.onRefused?.('app_key');
      return refuse(401, 'UNAUTHENTICATED', 'The app key in X-App-Key is unknown or has been revoked. Use the key issued for your app.', {
        'www-authenticate': 'X-App-Key',
      });
    }
    const client = options.clientAddress(req);
    const retryAfter =
      (options.appKeyRateLimit > 0 ? await options.limiter.hit(`key:${app.keyHash}`, options.appKeyRateLimit) : undefined) ??
      (options.clientRateLimit > 0 ? await options.limiter.hit(`client:${client}`, options.clientRateLimit) : undefined);
    if (retryAfter !== undefined) {
      options.onRefused?.('rate_limit');
      return refuse(429, 'RATE_LIMITED', `Too many requests for this app or from this address; retry after ${retryAfter} s.`, { 'retry-after': String(retryAfter) }, { retryAfterSeconds: retryAfter });
    }
    return admit(request, app);
  }

  /** The document, trusted-document rules and HTTP caching, for a partner or an app already let in. */
  function admit({ req, method, url, body }: GateRequest, app: AppKey | null): GateAnswer | GatePass {
    // Which document: by id, by Apollo's persisted-query hash, or the text itself.
    const params = method === 'GET' ? url.searchParams : undefined;
    const post = isObject(body) ? body : {};
    const documentId = params ? (params.get('documentId') ?? undefined) : typeof post.documentId === 'string' ? post.documentId : undefined;
    let extensions: unknown = post.extensions;
    if (params?.has('extensions')) {
      try {
        extensions = JSON.parse(params.get('extensions')!);
      } catch {
        return refuse(400, 'BAD_REQUEST', 'The "extensions" parameter is not valid JSON.');
      }
    }
    const hash = persistedHash(extensions);
    const text = params ? params.get('query') : typeof post.query === 'string' ? post.query : undefined;
    const trustedOnly = app ? options.appsTrustedOnly : options.partnersTrustedOnly;

    let trusted: TrustedDocument | undefined;
    if (documentId !== undefined || (hash !== undefined && !text)) {
      const id = documentId ?? hash!;
      trusted = options.trusted.byId(id);
      if (!trusted && (documentId !== undefined || trustedOnly)) {
        options.onRefused?.('trusted_document');
        return refuse(
          400,
          'PERSISTED_QUERY_NOT_FOUND',
          `No trusted document has the id ${quote(id)}: this server runs only the documents of its manifest (TRUSTED_DOCUMENTS, ${options.trusted.size} documents). Build the app with this manifest, or send a document it lists.`,
        );
      }
    } else if (trustedOnly && text) {
      trusted = options.trusted.byText(text);
      if (!trusted) {
        options.onRefused?.('trusted_document');
        return refuse(
          403,
          'TRUSTED_DOCUMENT_REQUIRED',
          `This server runs only trusted documents for ${app ? 'app keys' : 'partner tokens'}: send a documentId from its manifest (TRUSTED_DOCUMENTS) instead of a query text.`,
        );
      }
    } else if (trustedOnly && hash === undefined && documentId === undefined) {
      options.onRefused?.('trusted_document');
      return refuse(403, 'TRUSTED_DOCUMENT_REQUIRED', 'This server runs only trusted documents: send a documentId from its manifest (TRUSTED_DOCUMENTS).');
    }

    const state: AppsContext = { app, feed: options.feed, cursorSecret: options.cursorSecret };
    const pass: GatePass = { state, token: app ? null : undefined };
    if (app) pass.headers = { 'apollo-require-preflight': 'true' }; // X-App-Key already forces a CORS preflight

    const ifNoneMatch = header(req.headers['if-none-match']);
    let memoKey: string | undefined;
    let requestedName: string | null = null;
    if (trusted) {
      const variablesText = params ? (params.get('variables') ?? '') : JSON.stringify(post.variables ?? null);
      const operationName = params ? params.get('operationName') : typeof post.operationName === 'string' ? post.operationName : null;
      if (params) {
        if (trusted.operation !== 'query') {
          return refuse(405, 'METHOD_NOT_ALLOWED', 'Only queries may be sent with GET; send this document with POST.', { allow: 'POST' });
        }
        let variables: Record<string, unknown> | null = null;
        if (variablesText) {
          try {
            variables = JSON.parse(variablesText);
          } catch {
            return refuse(400, 'BAD_REQUEST', 'The "variables" parameter is not valid JSON.');
          }
          if (variables !== null && !isObject(variables)) return refuse(400, 'BAD_REQUEST', 'The "variables" parameter must be a JSON object.');
        }
        if (app) {
          // The hot path of an app open: an answer remembered for this feed version, as it is.
          try {
            memoKey = memoKeyOf(app, trusted, operationName, variables);
          } catch {
            // Nested too deep to write out again: such a request is answered, never remembered.
          }
          requestedName = operationName;
          const hit = memoKey === undefined ? undefined : memo.get(memoKey);
          if (hit && options.feed.peekVersion(app.partnerTokens) === hit.version) {
            const facts = { path: 'remembered', operationName: hit.operationName, operationType: 'query' } as const;
            if (matches(ifNoneMatch, hit.etag)) return { answer: { status: 304, headers: hit.headers }, facts };
            return { answer: { status: 200, headers: hit.headers, body: hit.bytes }, facts };
          }
        }
        const search = new URLSearchParams({ query: trusted.query });
        if (variablesText) search.set('variables', variablesText);
        if (operationName) search.set('operationName', operationName);
        pass.search = `?${search}`;
        if (app) pass.fastGet = { query: trusted.query, variables, operationName } satisfies FastPathRequest;
      } else {
        // Only the keys the client sent: Apollo refuses a `variables` key that is not an object.
        pass.body = {
          query: trusted.query,
          ...(post.variables !== undefined ? { variables: post.variables } : {}),
          ...(post.operationName !== undefined ? { operationName: post.operationName } : {}),
        };
      }
    }


    pass.finish = ({ status, body: text }) => {
      let out = text;
      const served = state.served;
      if (served && (served.stale || served.incomplete)) {
        // The answer says where it came from: rare, so a re-serialisation is affordable.
        try {
          const parsed = JSON.parse(text) as Record<string, unknown>;
          const feed = { stale: served.stale, builtAt: new Date(served.builtAt).toISOString(), ...(served.incomplete ? { incomplete: true } : {}) };
          parsed.extensions = { ...(isObject(parsed.extensions) ? parsed.extensions : {}), feed };
          out = `${JSON.stringify(parsed)}\n`;
        } catch {
          // Not JSON (cannot happen for a complete GraphQL answer): sent as it is.
        }
      }
      if (!app) return { status, headers: PRIVATE, body: out };
      const clean = status === 200 && out.startsWith('{"data"') && !served?.stale && !served?.incomplete;
      if (!memoKey || !clean) return { status, headers: NO_STORE, body: out };
      const etag = `"${createHash('sha1').update(out).digest('base64url')}"`;
      if (served) {
        memo.set(memoKey, { version: served.version, etag, bytes: Buffer.from(out, 'utf8'), headers: cacheable(etag), operationName: requestedName || trusted!.operationName });
      }
      if (matches(ifNoneMatch, etag)) return { status: 304, headers: cacheable(etag), body: null };
      return { status, headers: cacheable(etag), body: out };
    };
    return pass;
  }

  // A partner's request is judged at once, with no promise: it is most of the traffic.
  const gate: Gate = (request) => {
    const keyHeader = header(request.req.headers['x-app-key']);
    return keyHeader === undefined ? admit(request, null) : appRequest(request, keyHeader);
  };
  return Object.assign(gate, { remembered: () => ({ entries: memo.size, bytes: memo.calculatedSize }) });
}
