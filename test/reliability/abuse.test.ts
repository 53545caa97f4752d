import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { settle, trackUnhandledRejections } from './support.js';
import { cid } from '../helpers/ids.js';

/**
 * Abuse probes in the manner of graphql-cop and graphql-armor's attack list, against the BFF with
 * its default limits (docs/configuration.md). Each probe must be refused with the right
 * status (or, for the fragment bomb, answered at the cost of the one field it really asks for),
 * make no backend call at all (the emulator's counters stay empty), answer within a second or two,
 * and leave the server serving. Where another suite proves a refusal in more detail, `seeAlso`
 * names it; this table is the whole list in one place.
 */

const TOKEN = 'demo-store-token';
const ANSWER_BUDGET_MS = 2000;

interface Answer {
  status: number;
  text: string;
}

let stack: Stack;
const rejections = trackUnhandledRejections();

async function post(body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Answer> {
  const response = await fetch(stack.bffUrl, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, ...headers }, body });
  return { status: response.status, text: await response.text() };
}
const postQuery = (query: string, variables?: unknown) => post(JSON.stringify({ query, ...(variables ? { variables } : {}) }));
async function get(query: string, headers: Record<string, string> = { 'apollo-require-preflight': 'true' }): Promise<Answer> {
  const response = await fetch(`${stack.bffUrl}?query=${encodeURIComponent(query)}`, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } });
  return { status: response.status, text: await response.text() };
}

/** A raw request, for what fetch will not send (a URL past Node's header limit). */
function raw(path: string): Promise<Answer> {
  const url = new URL(stack.bffUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');
/** Each fragment spreads the next one three times: 3^levels copies of the leaf if expanded naively. */
const fragmentBomb = (levels: number, leaf: string) =>
  `{ ...F0 } ${Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { ${i === levels - 1 ? leaf : `...F${i + 1} ...F${i + 1} ...F${i + 1}`} }`).join(' ')}`;
const circularIntrospection = `{ __schema { types { fields { type { fields { type { fields { type { fields { type { name } } } } } } } } } } }`;
const STOP = 'stopCampaign(id: "3") { campaign { id } userErrors { code } }';

interface Probe {
  name: string;
  send(): Promise<Answer>;
  status: number;
  /** What the answer must say (names the limit or the rule). */
  says: RegExp;
  seeAlso?: string;
}

const PROBES: Probe[] = [
  { name: 'alias flood: 1000 aliases of __typename', send: () => postQuery(`{ ${aliases(1000, '__typename')} }`), status: 400, says: /Aliases limit of 15 exceeded, found 1000/, seeAlso: 'test/server/limits.test.ts' },
  { name: 'alias flood on a costly list field', send: () => postQuery(`{ ${aliases(16, 'campaigns(first: 100) { nodes { stats { shows } } }')} }`), status: 400, says: /Aliases limit of 15 exceeded/ },
  { name: 'alias flood of mutations', send: () => postQuery(`mutation { ${aliases(20, STOP)} }`), status: 400, says: /Aliases limit of 15 exceeded/ },
  { name: 'field duplication: __typename 4000 times without aliases', send: () => postQuery(`{ ${'__typename '.repeat(4000)} }`), status: 400, says: /GRAPHQL_VALIDATION_FAILED/ },
  { name: 'directive flood: @include 50 times on one field', send: () => postQuery(`{ __typename ${'@include(if: true) '.repeat(50)} }`), status: 400, says: /Directives limit of 10 exceeded, found 50/, seeAlso: 'test/server/limits.test.ts' },
  { name: 'directive flood on a mutation', send: () => postQuery(`mutation { stopCampaign(id: "3") ${'@skip(if: false) '.repeat(20)} { campaign { id } } }`), status: 400, says: /Directives limit of 10 exceeded/ },
  { name: 'unknown directive flood (graphql-cop: @aa@aa…)', send: () => postQuery(`{ __typename ${'@aa'.repeat(300)} }`), status: 400, says: /Directives limit of 10 exceeded|Unknown directive/ },
  { name: 'token bomb: 6000 tokens', send: () => postQuery(`{ ${'categories { id } '.repeat(1500)} }`), status: 400, says: /more tha[nt] 5000 tokens/, seeAlso: 'test/server/limits.test.ts' },
  { name: 'circular fragments', send: () => postQuery('{ ...A } fragment A on Query { categories { id } ...B } fragment B on Query { ...A }'), status: 400, says: /Cannot spread fragment "A" within itself/, seeAlso: 'test/server/limits.test.ts' },
  { name: 'circular introspection query (graphql-cop), 12 levels deep', send: () => postQuery(circularIntrospection), status: 400, says: /Maximum introspection depth exceeded|Query depth limit of 10 exceeded/ },
  // The schema's own types nest 7 levels at most; past that only introspection goes deeper.
  { name: 'deep query: an ofType chain 12 levels deep', send: () => postQuery(`{ __type(name: "Query") ${'{ ofType '.repeat(11)}{ name }${' }'.repeat(11)} }`), status: 400, says: /Query depth limit of 10 exceeded/, seeAlso: 'test/server/limits.test.ts' },
  // Deep enough to overflow graphql-js's recursive parser within the token limit: a 400 all the same.
  { name: 'deep query: 2400 nested selections', send: () => postQuery(`${'{ a '.repeat(2400)}${'}'.repeat(2400)}`), status: 400, says: /GRAPHQL_PARSE_FAILED/ },
  { name: 'costly query: 6 aliased lists of 100 with a detail read each', send: () => postQuery(`{ ${aliases(6, 'campaigns(first: 100) { nodes { stats { shows } } }')} }`), status: 400, says: /"limit":"backend_calls".*|could make 606 backend calls, at most 500/, seeAlso: 'test/server/limits.test.ts' },
  { name: 'costly query: nested lists of 100 × 1000 pins', send: () => postQuery('{ campaigns(first: 100) { nodes { pins(status: NEW_UNUSED, first: 1000) { nodes { code } } } } }'), status: 400, says: /could make 100\d+ returned objects, at most 20000/ },
  { name: 'costly query through variables: 100,000 ids', send: () => postQuery('query ($ids: [ID!]!) { campaignsByIds(ids: $ids) { id card { title } } }', { ids: Array.from({ length: 100_000 }, (_, i) => String(i + 1)) }), status: 400, says: /QUERY_LIMIT_EXCEEDED/ },
  { name: 'array batch of two mutations', send: () => post(JSON.stringify([{ query: `mutation { ${STOP} }` }, { query: `mutation { ${STOP} }` }])), status: 400, says: /batching/i, seeAlso: 'test/server/http.test.ts' },
  { name: 'mutation over GET', send: () => get(`mutation { ${STOP} }`), status: 405, says: /GET/, seeAlso: 'test/server/http.test.ts' },
  { name: 'query over GET without a preflight header (CSRF)', send: () => get(`{ campaign(id: "1") { id card { title } } }`, {}), status: 400, says: /CSRF|preflight/i, seeAlso: 'test/server/http.test.ts' },
  { name: 'form-encoded POST (CSRF)', send: () => post(`query=${encodeURIComponent(`mutation { ${STOP} }`)}`, { 'content-type': 'application/x-www-form-urlencoded' }), status: 415, says: /application\/x-www-form-urlencoded/, seeAlso: 'test/server/http.test.ts' },
  { name: 'multipart POST (CSRF)', send: () => post(`--x\r\nContent-Disposition: form-data; name="query"\r\n\r\nmutation { ${STOP} }\r\n--x--`, { 'content-type': 'multipart/form-data; boundary=x' }), status: 415, says: /multipart\/form-data/ },
  { name: 'text/plain POST (CSRF)', send: () => post(JSON.stringify({ query: `mutation { ${STOP} }` }), { 'content-type': 'text/plain' }), status: 415, says: /text\/plain/ },
  { name: 'huge body: 6 MB declared', send: () => post(Buffer.alloc(6 * 1024 * 1024, 0x20)), status: 413, says: /over the limit of 5242880 bytes/, seeAlso: 'test/server/http.test.ts' },
  {
    name: 'huge body: 6 MB streamed without a length',
    send: async () => {
      const chunks = (async function* () {
        for (let i = 0; i < 96; i++) yield Buffer.alloc(64 * 1024, 0x20);
      })();
      const response = await fetch(stack.bffUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: chunks as unknown as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      return { status: response.status, text: await response.text() };
    },
    status: 413,
    says: /over the limit of 5242880 bytes/,
  },
  {
    name: 'huge body: 6 MB streamed without a length or a token',
    send: async () => {
      const chunks = (async function* () {
        for (let i = 0; i < 96; i++) yield Buffer.alloc(64 * 1024, 0x20);
      })();
      const response = await fetch(stack.bffUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunks as unknown as ReadableStream, duplex: 'half' } as RequestInit);
      return { status: response.status, text: await response.text() };
    },
    status: 413,
    says: /over the limit of 65536 bytes/,
  },
  { name: 'huge URL: a 100 KB query string', send: () => raw(`/graphql?query=${'%7B'.repeat(34_000)}`), status: 431, says: /request line and headers are over the limit of \d+ bytes/ },
  { name: 'unparsable JSON', send: () => post('{"query": "{ categories { id } }"'), status: 400, says: /not valid JSON/, seeAlso: 'test/server/http.test.ts' },
  {
    name: 'JSON variables nested 100,000 levels deep',
    send: () => post(`{"query":"query ($ids: [ID!]!) { campaignsByIds(ids: $ids) { id } }","variables":{"ids":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`),
    status: 400,
    says: /BAD_USER_INPUT|BAD_REQUEST/,
  },
  { name: 'an operation name that is not in the document', send: () => post(JSON.stringify({ query: 'query A { categories { id } }', operationName: 'B' })), status: 400, says: /Unknown operation named "B"/ },
];

beforeAll(async () => {
  stack = await startStack();
  await stack.gql('{ categories { id } }'); // the directory is cached: any call below is the probe's
});
afterAll(async () => {
  rejections.stop();
  await stack?.close();
});
beforeEach(() => stack.resetCalls());

describe('abuse probes (graphql-cop style), default limits', () => {
  it.each(PROBES)('$name', async ({ send, status, says }) => {
    const started = performance.now();
    const answer = await send();
    expect(performance.now() - started, 'answers in time').toBeLessThan(ANSWER_BUDGET_MS);
    expect(answer.status, answer.text.slice(0, 300)).toBe(status);
    expect(answer.text.replaceAll('\\"', '"')).toMatch(says);
    expect(answer.text).not.toMatch(/stacktrace|INTERNAL_SERVER_ERROR/);
    expect(await stack.calls(), 'a refused request makes no backend call').toEqual({});
    const health = await fetch(stack.bffUrl.replace('/graphql', '/healthz'));
    expect(health.status).toBe(200);
  });

  it.each([30, 200])('a fragment bomb of %i levels is answered at the cost of the one field it asks for', async (levels) => {
    const started = performance.now();
    const { status, body } = await stack.gql(fragmentBomb(levels, 'categories { id }'));
    expect(performance.now() - started).toBeLessThan(ANSWER_BUDGET_MS);
    expect(status).toBe(200);
    expect(body.data.categories).toHaveLength(12);
    expect(await stack.calls()).toEqual({});
  });

  it('a fragment bomb of lists is refused by its cost, once, not 3^n times', async () => {
    const started = performance.now();
    const answer = await postQuery(fragmentBomb(40, 'campaigns(first: 100) { nodes { pins(status: NEW_UNUSED, first: 1000) { nodes { code } } } }'));
    expect(performance.now() - started).toBeLessThan(ANSWER_BUDGET_MS);
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/could make 100201 returned objects, at most 20000/);
    expect(await stack.calls()).toEqual({});
  });

  it('a document that already ran is cost-checked again with each request\'s variables', async () => {
    const query = 'query ($ids: [ID!]!) { campaignsByIds(ids: $ids) { id card { title } stats { shows } } }';
    for (let i = 0; i < 3; i++) expect((await stack.gql(query, { ids: ['1', '2'] })).body.errors).toBeUndefined();
    await stack.resetCalls();
    const { status, body } = await stack.gql(query, { ids: Array.from({ length: 400 }, (_, i) => String(i + 1)) });
    expect(status).toBe(400);
    expect(body.errors![0].extensions).toMatchObject({ code: 'QUERY_LIMIT_EXCEEDED', limit: 'backend_calls' });
    expect(await stack.calls()).toEqual({});
  });

  it('left no unhandled rejection behind, and still serves', async () => {
    await settle();
    expect(rejections.list).toEqual([]);
    const { body } = await stack.gql('{ campaign(id: "1") { id card { title } } }');
    expect(body).toEqual({ data: { campaign: { id: cid(1), card: { title: 'Техно Мир' } } } });
  });
});
