import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The compiled-operation path must answer exactly what Apollo answers. The first request of a
 * document goes through Apollo; the same request again takes the compiled path (or, for an answer
 * the schema lets be remembered, the response cache): status, content type and body must be
 * identical, byte for byte.
 */
let stack: Stack;
const log = captureLogs();
const lines = log.entries;
let n = 0;

beforeAll(async () => {
  stack = await startStack({
    emulator: { moderation: { mode: 'manual' } },
    logger: log.logger,
    // A backend fault must fail both paths alike: the breaker stays closed through the fault test.
    client: { backoff: { initialMs: 1, maxMs: 5 }, breaker: { consecutiveFailures: 1000, halfOpenAfterMs: 1000 } },
  });
});
afterAll(() => stack.close());

async function send(body: unknown, headers: Record<string, string> = {}) {
  const requestId = `req-${++n}`;
  const response = await fetch(stack.bffUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer demo-store-token', 'x-request-id': requestId, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const line = lines.find((l) => l.requestId === requestId);
  return { status: response.status, type: response.headers.get('content-type'), text, path: line?.path };
}

async function twice(body: unknown, headers?: Record<string, string>) {
  const first = await send(body, headers);
  const second = await send(body, headers);
  return { first, second };
}

describe('compiled operations', () => {
  it.each([
    ['a plain query', { query: '{ categories { id name } campaigns(first: 3) { totalCount nodes { id status card { title discountLabel } } } }' }],
    ['variables and an operation name among several', {
      query: 'query A($id: ID!) { campaign(id: $id) { id merchant { name } } } query B { categories { id } }',
      operationName: 'A',
      variables: { id: '2' },
    }],
    ['an unknown campaign (null) and a foreign one', { query: '{ a: campaign(id: "999999") { id } b: campaign(id: "5") { id status } }' }],
    ['a bad argument error beside good data', { query: '{ categories { id } campaigns(first: 500) { totalCount } }' }],
  ])('answers %s as Apollo does', async (_name, body) => {
    const { first, second } = await twice(body);
    expect(first.path).toBe('apollo');
    expect(second.path).toBe('compiled');
    expect(second.status).toBe(first.status);
    expect(second.type).toBe(first.type);
    expect(second.text).toBe(first.text);
  });

  // Apollo Client's own Accept header first: the client front-end teams run.
  it.each([
    'application/graphql-response+json,application/json;q=0.9',
    'application/graphql-response+json',
    'application/json, application/graphql-response+json',
    'application/json;q=0.5, application/graphql-response+json;q=0.4',
    'application/json; charset=utf-8',
    '*/*',
    'application/*',
    'text/html, application/json;q=0.1',
  ])('answers in the media type Apollo chooses for Accept: %s', async (accept) => {
    for (const body of [
      { query: `{ categories { id name } campaigns(first: 2) { totalCount nodes { id } } } # ${accept}` },
      { query: `{ categories { id name } } # ${accept}` },
      { query: `{ campaigns(first: 500) { totalCount } } # ${accept}` },
    ]) {
      const { first, second } = await twice(body, { accept });
      expect(first.path).toBe('apollo');
      expect(['compiled', 'remembered']).toContain(second.path);
      expect(second.status).toBe(first.status);
      expect(second.type).toBe(first.type);
      expect(second.text).toBe(first.text);
    }
  });

  // Apollo Client's persisted-query link: the hash alone once Apollo has registered the document.
  it.each(['application/json', 'application/graphql-response+json,application/json;q=0.9'])(
    'answers a persisted query named by its hash alone as Apollo answered it (Accept: %s)',
    async (accept) => {
      const query = `query Persisted($n: Int) { categories { id name } campaigns(first: $n) { totalCount nodes { id status } } } # ${accept}`;
      const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') };
      const byHash = { operationName: 'Persisted', variables: { n: 2 }, extensions: { persistedQuery } };
      const unknown = await send(byHash, { accept });
      expect([unknown.status, unknown.path, JSON.parse(unknown.text).errors[0].extensions.code]).toEqual([200, 'gate', 'PERSISTED_QUERY_NOT_FOUND']);
      const registered = await send({ ...byHash, query }, { accept });
      expect(registered.path).toBe('apollo');
      for (const variables of [{ n: 2 }, { n: 3 }]) {
        const compiled = await send({ ...byHash, variables }, { accept });
        const executed = await send({ query: `${query}\n# executed with ${variables.n}`, operationName: 'Persisted', variables }, { accept });
        expect([compiled.path, executed.path]).toEqual(['compiled', 'apollo']);
        expect(compiled.status).toBe(executed.status);
        expect(compiled.type).toBe(executed.type);
        expect(compiled.text).toBe(executed.text);
      }
      expect((await send(byHash, { accept })).text).toBe(registered.text);
    },
  );

  it("answers Apollo Client's persisted-query link on the compiled path once the document is registered", async () => {
    const link = new PersistedQueryLink({ sha256: (text: string) => createHash('sha256').update(text).digest('hex') }).concat(
      new HttpLink({ uri: stack.bffUrl, headers: { authorization: 'Bearer demo-store-token' } }),
    );
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const query = gql`
      query LinkPersisted($first: Int!) {
        campaigns(first: $first) {
          totalCount
          nodes {
            id
            card {
              title
            }
          }
        }
      }
    `;
    try {
      const reads = [];
      for (let i = 0; i < 3; i++) reads.push((await client.query({ query, variables: { first: 2 }, fetchPolicy: 'network-only' })).data);
      const requests = lines.filter((line) => line.msg === 'graphql request' && line.operation === 'LinkPersisted');
      // After the hash alone, not found (a line without the operation's name: nothing was parsed), the
      // document with its hash, registered by Apollo; then the hash alone, twice.
      expect(requests.map((line) => [line.path, line.outcome])).toEqual([
        ['apollo', 'ok'],
        ['compiled', 'ok'],
        ['compiled', 'ok'],
      ]);
      expect(reads[2]).toEqual(reads[0]);
      expect((reads[0] as { campaigns: { nodes: unknown[] } }).campaigns.nodes).toHaveLength(2);
    } finally {
      client.stop();
    }
  });

  it('answers a failing root field beside good ones as Apollo does (the field is null, the rest stays)', async () => {
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/get-all-campaigns' });
    try {
      const { first, second } = await twice({ query: '{ categories { id name } campaigns(first: 2) { totalCount nodes { id } } }' });
      expect([first.path, second.path]).toEqual(['apollo', 'compiled']);
      expect(second.status).toBe(first.status);
      expect(second.text).toBe(first.text);
      const body = JSON.parse(second.text);
      expect(body.data.campaigns).toBeNull();
      expect(body.data.categories.length).toBeGreaterThan(0);
    } finally {
      await stack.admin('faults', undefined, 'DELETE');
    }
  });

  // Every example query of the docs: the whole read side of the schema (groups, cards, stats, pins,
  // enums, scalars, lists of promises), with the fixtures' variety of campaigns.
  const DOCS = new URL('../../docs/operations/', import.meta.url);
  const readExamples = readdirSync(DOCS)
    .filter((f) => f.endsWith('.graphql'))
    .map((f) => ({ name: f.replace(/\.graphql$/, ''), query: readFileSync(new URL(f, DOCS), 'utf8') }))
    .filter(({ query }) => /^\s*query\b/m.test(query) && !/^\s*mutation\b/m.test(query));

  it.each(readExamples.map((e) => [e.name, e] as const))('answers the %s example as Apollo does', async (name, { query }) => {
    const variables = JSON.parse(readFileSync(new URL(`${name}.variables.json`, DOCS), 'utf8'));
    for (const token of ['demo-store-token', 'demo-aggregator-token']) {
      // A text of its own per partner, so each pair is Apollo's answer, then the compiled one.
      const { first, second } = await twice({ query: `${query}\n# ${token}`, variables }, { authorization: `Bearer ${token}` });
      expect(first.path).toBe('apollo');
      expect(['compiled', 'remembered']).toContain(second.path);
      expect(second.text).toBe(first.text);
    }
  });

  it('answers every fixture campaign in full as Apollo does', async () => {
    const detail = readFileSync(new URL('campaign.graphql', DOCS), 'utf8');
    for (const token of ['demo-store-token', 'demo-aggregator-token']) {
      const list = JSON.parse((await send({ query: '{ campaigns(first: 100) { nodes { id } } }' }, { authorization: `Bearer ${token}` })).text);
      for (const { id } of list.data.campaigns.nodes) {
        const { first, second } = await twice({ query: `${detail}\n# ${id}`, variables: { id } }, { authorization: `Bearer ${token}` });
        expect([first.path, second.path]).toEqual(['apollo', 'compiled']);
        expect(second.text, `campaign ${id}`).toBe(first.text);
      }
    }
  });

  it('answers partial data with a backend outage exactly as Apollo does', async () => {
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/info' });
    try {
      const { first, second } = await twice({ query: '{ campaign(id: "1") { id stats { shows } card { title } } }' });
      expect(JSON.parse(first.text).errors[0].extensions.code).toBe('BACKEND_UNAVAILABLE');
      expect([first.path, second.path]).toEqual(['apollo', 'compiled']);
      expect(second.text).toBe(first.text);
    } finally {
      await stack.admin('faults', undefined, 'DELETE');
    }
  });

  it('answers a list whose items fail one by one as Apollo does: each null in its place', async () => {
    // Every read answers what breaks the contract (each item's own error, never retried); the id
    // that is no campaign id is null before any read.
    await stack.admin('faults', { mode: 'contract', operation: 'campaigns/get' });
    try {
      const { first, second } = await twice({ query: '{ campaignsByIds(ids: ["1", "x", "2"]) { id } }' });
      expect([first.path, second.path]).toEqual(['apollo', 'compiled']);
      const body = JSON.parse(first.text);
      expect(body.data.campaignsByIds).toEqual([null, null, null]);
      expect(body.errors.map((e: { path: unknown; extensions: { code: string } }) => [e.path, e.extensions.code])).toEqual([
        [['campaignsByIds', 0], 'BACKEND_BAD_RESPONSE'],
        [['campaignsByIds', 2], 'BACKEND_BAD_RESPONSE'],
      ]);
      expect(second.text).toBe(first.text);
    } finally {
      await stack.admin('faults', undefined, 'DELETE');
    }
  });

  it('answers a missing token exactly as Apollo does', async () => {
    const body = { query: '{ campaigns(first: 1) { totalCount } }' };
    const first = await send(body, { authorization: '' });
    const second = await send(body, { authorization: '' });
    expect(JSON.parse(first.text).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect([first.path, second.path]).toEqual(['apollo', 'compiled']);
    expect(second.text).toBe(first.text);
  });

  it('refuses in the pipeline, before any executor, what neither may run', async () => {
    const query = 'query($n: Int) { campaigns(first: $n) { totalCount nodes { id } } }';
    await send({ query, variables: { n: 1 } });
    // Variables that do not coerce: a 400 from the pipeline, whichever executor would have run it.
    const badVariables = await send({ query, variables: { n: 'many' } });
    expect([badVariables.status, badVariables.path]).toEqual([400, 'gate']);
    // No JSON type acceptable: 406 from the HTTP layer.
    const html = await send({ query, variables: { n: 1 } }, { accept: 'text/html' });
    expect([html.status, html.path]).toEqual([406, 'http']);
    const zero = await send({ query, variables: { n: 1 } }, { accept: 'application/json;q=0' });
    expect([zero.status, zero.path]).toEqual([406, 'http']);
    // A persisted-query extension with the document's text: the hash must be the text's.
    const persisted = await send({ query, variables: { n: 1 }, extensions: { persistedQuery: { version: 1, sha256Hash: 'x'.repeat(64) } } });
    expect(persisted.status).toBe(400);
    expect(JSON.parse(persisted.text).errors[0]).toEqual({ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } });
    // By its hash alone: a version the protocol does not have, a hash that is no SHA-256, and one never registered.
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const otherVersion = await send({ variables: { n: 1 }, extensions: { persistedQuery: { version: 2, sha256Hash } } });
    expect([otherVersion.status, otherVersion.path, JSON.parse(otherVersion.text).errors[0].message]).toEqual([400, 'gate', 'Unsupported persisted query version']);
    for (const hash of ['x'.repeat(64), sha256Hash.toUpperCase(), sha256Hash]) {
      const notFound = await send({ variables: { n: 1 }, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
      expect([notFound.status, notFound.path, JSON.parse(notFound.text).errors[0].extensions.code]).toEqual([200, 'gate', 'PERSISTED_QUERY_NOT_FOUND']);
    }
    // Registered, then named by hash with variables that do not coerce: the same 400 as with the text.
    await send({ query, variables: { n: 1 }, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    const badByHash = await send({ variables: { n: 'many' }, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect([badByHash.status, badByHash.path, badByHash.text]).toEqual([400, 'gate', badVariables.text]);
  });

  it('checks the cost limit with each request’s variables', async () => {
    const limited = await startStack({ env: { MAX_BACKEND_CALLS: '10' } });
    try {
      const query = 'query($n: Int) { campaigns(first: $n) { nodes { card { title } } } }';
      expect((await limited.gql(query, { n: 2 })).body.errors).toBeUndefined();
      expect((await limited.gql(query, { n: 2 })).body.errors).toBeUndefined();
      await limited.resetCalls();
      const refused = await limited.gql(query, { n: 20 });
      expect(refused.status).toBe(400);
      expect(refused.body.errors![0].extensions.code).toBe('QUERY_LIMIT_EXCEEDED');
      expect(await limited.calls()).toEqual({});
    } finally {
      await limited.close();
    }
  });

  it('can be turned off: Apollo executes every time (remembered answers are a stage of their own)', async () => {
    const plainLog = captureLogs();
    const plain = await startStack({ env: { COMPILED_OPERATIONS: 'false', LOG_LEVEL: 'info' }, logger: plainLog.logger });
    try {
      const query = '{ campaigns(first: 2) { totalCount nodes { id } } }';
      const answers = [await plain.gql(query), await plain.gql(query), await plain.gql(query)];
      expect(answers[2]!.body).toEqual(answers[0]!.body);
      const remembered = [await plain.gql('{ categories { id } }'), await plain.gql('{ categories { id } }')];
      expect(remembered[1]!.body).toEqual(remembered[0]!.body);
      const paths = plainLog.entries.filter((line) => line.msg === 'graphql request').map((line) => line.path);
      expect(paths).toEqual(['apollo', 'apollo', 'apollo', 'apollo', 'remembered']);
    } finally {
      await plain.close();
    }
  });
});
