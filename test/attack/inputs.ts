import { gzipSync } from 'node:zlib';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { cid } from '../helpers/ids.js';
import { ATTACK_APP_KEY, CAMPAIGN_CHANGED_ID, madeUpToken, sha256, type Mode } from './harness.js';
import type { Credentials, Params, TransportName } from './transports.js';

/**
 * The hostile inputs of the attack suite: what outside audits sent that hurt, or was meant to,
 * and what lies just past each bound. Each is sent over every transport that can carry it, as
 * every kind of caller; `matrix.ts` sends them and says what must come back.
 */

const KB = 1024;
const MB = 1024 * KB;

/** Who sends an input. */
export interface Caller {
  name: string;
  credentials(mode: Mode): Credentials;
  /** Whether the BFF takes this caller for a partner with a token it accepts (the development fallback for one without credentials). */
  actsAsPartner(mode: Mode): boolean;
}

const headers = (entries: Record<string, string>): Credentials => ({ headers: entries });

export const CALLERS: readonly Caller[] = [
  { name: 'no credentials', credentials: () => headers({}), actsAsPartner: (mode) => mode === 'development' },
  { name: 'a made-up app key', credentials: () => headers({ 'x-app-key': `made-up-app-key-${madeUpToken()}` }), actsAsPartner: () => false },
  // In development the key `npm start` adds, which reads for the demo store (as the explorer sends it).
  { name: 'an app key', credentials: (mode) => headers({ 'x-app-key': mode === 'development' ? 'demo-app-key' : ATTACK_APP_KEY }), actsAsPartner: () => false },
  { name: 'a partner token', credentials: () => headers({ authorization: `Bearer ${DEMO_TOKENS.store}` }), actsAsPartner: () => true },
  { name: 'a made-up token', credentials: () => headers({ authorization: `Bearer ${madeUpToken()}` }), actsAsPartner: () => false },
];

/** A token as long as `length` in the headers, and as `initLength` in a `connection_init` payload: another each time, as no check of one answers for the next. */
const longToken = (length: number, initLength = length): Caller => ({
  name: `a token of ${Math.round(length / KB)} KB (${Math.round(initLength / KB)} KB in connection_init)`,
  credentials: () => {
    const unique = madeUpToken();
    return { headers: { authorization: `Bearer ${unique.padEnd(length, 'A')}` }, init: { authorization: `Bearer ${unique.padEnd(initLength, 'A')}` } };
  },
  actsAsPartner: () => false,
});

export interface HostileInput {
  name: string;
  /** What the `n`th send of the case carries (another text each time for a flood). */
  params(n: number): Params;
  /** What the streaming transports (WebSocket `subscribe`, SSE) carry instead: the same attack on a subscription. */
  stream?(n: number): Params;
  transports: readonly TransportName[];
  /** Who sends it; every kind of caller unless the input is a caller of its own (a token). */
  callers?: readonly Caller[];
  /** Sends per transport and caller; once unless said. */
  repeat?: Partial<Record<TransportName, number>>;
  /** How many of those go at once (a burst, as a flood arrives); one by one unless said. */
  concurrency?: number;
  /**
   * Where a caller taken for a partner is answered with data: the input is a request a partner may
   * make, hostile only by its size, and what must hold is what the process keeps of it.
   */
  partnerRuns?: readonly TransportName[];
  /** The backend calls such a partner request may make (the cost limit's); `CALLS_PER_REQUEST` unless said. */
  partnerCalls?: number;
  /** Not a well-formed request at all: graphql-ws's own refusal of its message (4400) is the refusal it gets over WebSocket. */
  malformed?: boolean;
  /** What a POST and an SSE request send instead of the parameters' JSON, with their headers (another type, another encoding). */
  body?(): { headers: Record<string, string>; bytes: Buffer };
}

/** Every transport; `ws-init` puts the input in the `connection_init` payload itself. */
const EVERY: readonly TransportName[] = ['post', 'get', 'sse', 'ws-init', 'ws-subscribe'];
/** Where a document goes: not `connection_init`, whose payload holds credentials only. */
const DOCUMENT: readonly TransportName[] = ['post', 'get', 'sse', 'ws-subscribe'];
/** Where a caller's credentials go: headers of HTTP, SSE and the upgrade, or `connection_init`. */
const CREDENTIALS: readonly TransportName[] = ['post', 'get', 'sse', 'ws-header', 'ws-init'];

const once = <T>(make: () => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};
const fixed = (params: Params) => () => params;

/** The subscription partners are allowed (the manifest's), with these variables (graphql-ws wants a `query`: an empty one names none). */
const watch = (variables: string): Params => ({ query: '', documentId: CAMPAIGN_CHANGED_ID, variables });
const BENIGN: Params = { query: '{ campaigns { totalCount } }' };

/** `{"x":[{},{},…]}`: about `bytes` of the smallest JSON objects. */
const tinyValues = (bytes: number) => `{"x":[${'{},'.repeat(Math.floor(bytes / 3))}{}]}`;
/** `{"x":[[[…]]]}`, nested `levels` deep. */
const nested = (levels: number) => `{"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => cid(from + i));
/** Campaign numbers as digits, which `campaignsByIds` takes too: shorter, so a list of hundreds fits a URL. */
const numbers = (from: number, count: number) => Array.from({ length: count }, (_, i) => String(from + i));
const aliases = (count: number, field: (i: number) => string) => Array.from({ length: count }, (_, i) => `a${i}: ${field(i)}`).join(' ');

const tiny4mb = once(() => ({ query: '{ categories { id } }', variables: tinyValues(4 * MB) }));
const tiny60kb = once(() => ({ query: '{ categories { id } }', variables: tinyValues(60 * KB) }));
const deep2m = once(() => ({ query: '{ categories { id } }', variables: nested(2_000_000) }));
const deep65 = once(() => ({ query: '{ categories { id } }', variables: nested(65) }));
const deep65Stream = once(() => watch(nested(65)));

/** A valid document, then megabytes of comment (no token), sent with its hash: another text each time. */
export const floodText = (n: number) => `{categories{id}}\n#${n} ${'x'.repeat(4 * MB)}`;
export const persistedFlood = (n: number): Params => ({ query: floodText(n), extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(floodText(n)) } }) });

const longName = once(() => `Q${'n'.repeat(MB - 1)}`);

/** Each fragment spreads the next one three times: 3^levels copies of the leaf if expanded naively. */
const fragmentBomb = (levels: number, leaf: string) =>
  `{ ...F0 } ${Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { ${i === levels - 1 ? leaf : `...F${i + 1} ...F${i + 1} ...F${i + 1}`} }`).join(' ')}`;

/** What is no GraphQL request: not JSON, an empty object, a query that is no string, variables that are no object. */
const MALFORMED: readonly Params[] = [{ raw: 'nope' }, { raw: '{}' }, { raw: '{"query":1}' }, { query: '{ categories { id } }', variables: '"x"' }];
const malformed = (n: number): Params => MALFORMED[n % MALFORMED.length]!;

export const INPUTS: readonly HostileInput[] = [
  {
    name: 'a token of 15 KB by header, 30 KB in connection_init',
    params: fixed(BENIGN),
    stream: fixed(watch('{}')),
    transports: CREDENTIALS,
    callers: [longToken(15 * KB, 30 * KB)],
    // In bursts: refusals counted as outages would open the breaker between the bystander's calls.
    repeat: { post: 10, get: 10, sse: 10, 'ws-header': 10, 'ws-init': 10 },
    concurrency: 10,
  },
  {
    name: "a token past Node's header limit (20 KB), 60 KB in connection_init",
    params: fixed(BENIGN),
    stream: fixed(watch('{}')),
    transports: CREDENTIALS,
    callers: [longToken(20 * KB, 60 * KB)],
  },
  {
    name: 'made-up tokens and app keys, another one each request',
    params: fixed(BENIGN),
    stream: fixed(watch('{}')),
    transports: [...CREDENTIALS, 'ws-subscribe'],
    callers: CALLERS.filter((c) => c.name.startsWith('a made-up')),
    repeat: { post: 10, get: 10, sse: 10, 'ws-header': 10, 'ws-init': 10, 'ws-subscribe': 10 },
    concurrency: 10,
  },
  { name: 'a 4 MB body of tiny JSON values', params: tiny4mb, transports: EVERY },
  { name: 'tiny JSON values within the public body limit (60 KB, 20,000 objects)', params: tiny60kb, transports: EVERY },
  { name: 'a variable nested 2 million levels deep (4 MB)', params: deep2m, transports: EVERY },
  { name: 'a variable nested 65 levels deep', params: deep65, stream: deep65Stream, transports: EVERY },
  {
    name: 'a persisted-query flood: 4 MB texts with their hashes, another each time',
    params: persistedFlood,
    transports: EVERY,
    repeat: { post: 16 },
    partnerRuns: ['post'],
  },
  {
    name: '15 aliases of nodes(ids:) with 100 ids each',
    params: once(() => ({ query: `{ ${aliases(15, (i) => `nodes(ids: ${JSON.stringify(ids(1000 + 100 * i, 100))}) { id }`)} }` })),
    transports: DOCUMENT,
  },
  {
    name: '15 aliases of campaignsByIds with 100 ids each, in variables',
    params: once(() => ({
      query: `query Ids(${aliases(15, (i) => `$i${i}: [ID!]!`).replace(/a\d+: /g, '')}) { ${aliases(15, (i) => `campaignsByIds(ids: $i${i}) { id card { title } }`)} }`,
      variables: JSON.stringify(Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`i${i}`, ids(2000 + 100 * i, 100)]))),
    })),
    transports: DOCUMENT,
  },
  {
    // Within the cost limit: a partner's request, answered; anybody else's must not reach the campaign API once per id.
    name: '5 aliases of campaignsByIds with 100 ids each (the cost limit)',
    params: once(() => ({ query: `{ ${aliases(5, (i) => `campaignsByIds(ids: ${JSON.stringify(numbers(5000 + 100 * i, 100))}) { id }`)} }` })),
    transports: DOCUMENT,
    partnerRuns: ['post', 'get'],
    partnerCalls: 500,
  },
  {
    name: 'a subscription watching 1500 ids',
    params: once(() => watch(JSON.stringify({ ids: ids(3000, 1500) }))),
    transports: DOCUMENT,
  },
  {
    name: '1000 aliases',
    params: fixed({ query: `{ ${aliases(1000, () => '__typename')} }` }),
    stream: fixed({ query: `subscription { campaignChanged { ${aliases(1000, () => 'at')} } }` }),
    transports: DOCUMENT,
  },
  {
    name: '16 aliases, one past the limit',
    params: fixed({ query: `{ ${aliases(16, () => 'categories { id }')} }` }),
    stream: fixed({ query: `subscription { campaignChanged { ${aliases(16, () => 'at')} } }` }),
    transports: DOCUMENT,
  },
  {
    name: 'a document past the token limit (6000 tokens)',
    params: fixed({ query: `{ ${'categories { id } '.repeat(1500)} }` }),
    stream: fixed({ query: `subscription { campaignChanged { ${'at '.repeat(6000)} } }` }),
    transports: DOCUMENT,
  },
  {
    name: 'a document past the depth limit (12 levels)',
    // The schema's own types nest 7 levels at most: past that only introspection goes deeper.
    params: fixed({ query: `{ __type(name: "Query") ${'{ ofType '.repeat(11)}{ name }${' }'.repeat(11)} }` }),
    transports: DOCUMENT,
  },
  {
    name: 'requests that are not GraphQL requests (not JSON, {}, a query that is a number, variables that are a string)',
    params: malformed,
    transports: DOCUMENT,
    repeat: { post: 4, get: 4, sse: 4, 'ws-subscribe': 4 },
    malformed: true,
  },
  {
    name: 'a batch of 100 operations',
    params: once(() => ({ raw: JSON.stringify(Array.from({ length: 100 }, () => ({ query: '{ campaigns { totalCount } }' }))) })),
    transports: ['post', 'sse', 'ws-subscribe'],
    malformed: true,
  },
  {
    // What a page of another site may send without a preflight.
    name: 'a JSON body sent as text/plain',
    params: fixed(BENIGN),
    stream: fixed(watch('{}')),
    body: () => ({ headers: { 'content-type': 'text/plain' }, bytes: Buffer.from(JSON.stringify({ query: BENIGN.query })) }),
    transports: ['post', 'sse'],
  },
  {
    name: 'a gzip bomb: 64 MB of JSON whitespace in 64 KB',
    params: fixed(BENIGN),
    body: once(() => ({ headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bytes: gzipSync(Buffer.alloc(64 * MB, 0x20), { level: 9 }) })),
    transports: ['post', 'sse'],
  },
  {
    name: 'a directive flood: @include 50 times on one field',
    params: fixed({ query: `{ __typename ${'@include(if: true) '.repeat(50)} }` }),
    stream: fixed({ query: `subscription { campaignChanged { at ${'@include(if: true) '.repeat(50)} } }` }),
    transports: DOCUMENT,
  },
  {
    name: 'a fragment bomb of lists, 40 levels',
    params: fixed({ query: fragmentBomb(40, 'campaigns(first: 100) { nodes { pins(status: NEW_UNUSED, first: 1000) { nodes { code } } } }') }),
    transports: DOCUMENT,
  },
  {
    name: 'a megabyte operation name that is not in the document',
    params: once(() => ({ query: '{ categories { id } }', operationName: longName() })),
    stream: once(() => ({ ...watch('{}'), operationName: longName() })),
    transports: EVERY,
  },
  {
    name: 'a megabyte operation name, in the document',
    params: once(() => ({ query: `query ${longName()} { categories { id } }`, operationName: longName() })),
    stream: once(() => ({ query: `subscription ${longName()} { campaignChanged { at } }`, operationName: longName() })),
    transports: EVERY,
    partnerRuns: ['post'],
  },
];
