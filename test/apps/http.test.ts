import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { captureLogs } from '../helpers/log-capture.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { app, DEMO_APP, FEED, get, partner, post } from './support.js';
import { needs } from '../helpers/needs.js';

/**
 * Trusted documents, HTTP caching and rate limits, as an app in production meets them: a
 * manifest in GraphQL Codegen's persisted-documents format, GET by documentId with ETag and 304,
 * 429 with Retry-After. Production mode with the emulator as the backend.
 */
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const CATEGORIES = 'query Categories { categories { id name } }';
const CAMPAIGNS = 'query Campaigns { campaigns(first: 5) { nodes { id } } }';
const manifest = { [sha(FEED)]: FEED, [sha(CATEGORIES)]: CATEGORIES, [sha(CAMPAIGNS)]: CAMPAIGNS };
const feedId = `sha256:${sha(FEED)}`;

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bff-trusted-'));
  file = join(dir, 'persisted-documents.json');
  writeFileSync(file, JSON.stringify(manifest));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const production = (extra: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  CAMPAIGN_API_URL: 'http://127.0.0.1:1', // replaced by the stack's emulator
  TRUSTED_DOCUMENTS: file,
  ...extra,
});

describe('trusted documents and HTTP caching (production)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: production(), appKeys: DEMO_APP, emulator: { moderation: { mode: 'manual' } } });
  });
  afterAll(() => stack?.close());

  it('an app runs a document by documentId (GET or POST) or by persistedQuery hash, and nothing else', async () => {
    const byGet = await get(stack.bffUrl, { documentId: feedId, variables: JSON.stringify({ first: 3 }) }, app());
    expect(byGet.status).toBe(200);
    expect(byGet.body.data.offerFeed.nodes).toHaveLength(3);
    const byPost = await post(stack.bffUrl, { documentId: feedId, variables: { first: 3 } }, app());
    expect(byPost.body).toEqual(byGet.body);
    const byApq = await post(stack.bffUrl, { extensions: { persistedQuery: { version: 1, sha256Hash: sha(FEED) } }, variables: { first: 3 } }, app());
    expect(byApq.body).toEqual(byGet.body);
    // The text of a trusted document is as good as its id.
    expect((await post(stack.bffUrl, { query: FEED, variables: { first: 3 } }, app())).body).toEqual(byGet.body);

    await stack.resetCalls();
    const untrusted = await post(stack.bffUrl, { query: '{ categories { id } }' }, app());
    expect(untrusted.status).toBe(403);
    expect(untrusted.body.errors[0].extensions.code).toBe('TRUSTED_DOCUMENT_REQUIRED');
    for (const unknown of [
      () => get(stack.bffUrl, { documentId: `sha256:${'0'.repeat(64)}` }, app()),
      () => post(stack.bffUrl, { documentId: 'not-a-hash' }, app()),
      () => post(stack.bffUrl, { extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } }, app()),
    ]) {
      const answer = await unknown();
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      expect(answer.body.errors[0].message).toContain('TRUSTED_DOCUMENTS');
    }
    // A trusted document beyond the app's scope is still FORBIDDEN.
    const beyond = await get(stack.bffUrl, { documentId: sha(CAMPAIGNS) }, app());
    expect(beyond.status).toBe(403);
    expect(beyond.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await stack.calls()).toEqual({});
  });

  it('a GET of the feed by documentId is public, cacheable, with an ETag; If-None-Match gets 304 with no body and no backend call', async () => {
    const params = { documentId: feedId, variables: JSON.stringify({ first: 5 }) };
    const first = await get(stack.bffUrl, params, app());
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=10, stale-while-revalidate=30');
    expect(first.headers.vary).toContain('X-App-Key');
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    await stack.resetCalls();
    const again = await get(stack.bffUrl, params, app());
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe(etag);
    const notModified = await get(stack.bffUrl, params, { ...app(), 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    const weak = await get(stack.bffUrl, params, { ...app(), 'if-none-match': `"other", W/${etag}` });
    expect(weak.status).toBe(304);
    expect(await stack.calls()).toEqual({});

    // Other variables, another answer and ETag.
    const other = await get(stack.bffUrl, { documentId: feedId, variables: JSON.stringify({ first: 2 }) }, { ...app(), 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
  });

  it('gives each media type of an answer its own ETag and varies by Accept: a 304 validates only its own', async () => {
    const params = { documentId: feedId, variables: JSON.stringify({ first: 3 }) };
    const asJson = { ...app(), accept: 'application/json' };
    const asGraphql = { ...app(), accept: 'application/graphql-response+json' };
    // Executed once, then remembered: both ways of answering give the same tags.
    for (let round = 0; round < 2; round++) {
      const json = await get(stack.bffUrl, params, asJson);
      const graphql = await get(stack.bffUrl, params, asGraphql);
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(graphql.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
      expect(json.text).toBe(graphql.text);
      expect(json.headers.etag).not.toBe(graphql.headers.etag);
      for (const answer of [json, graphql]) {
        expect(answer.headers['cache-control']).toMatch(/^public/);
        expect(answer.headers.vary).toMatch(/^Origin, X-App-Key, Accept(, Accept-Encoding)?$/);
      }
      expect((await get(stack.bffUrl, params, { ...asJson, 'if-none-match': json.headers.etag! })).status).toBe(304);
      expect((await get(stack.bffUrl, params, { ...asGraphql, 'if-none-match': graphql.headers.etag! })).status).toBe(304);
      // The other type's tag validates nothing: the full answer, in the type asked for.
      const crossed = await get(stack.bffUrl, params, { ...asGraphql, 'if-none-match': json.headers.etag! });
      expect(crossed.status).toBe(200);
      expect(crossed.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
      expect((await get(stack.bffUrl, params, { ...asJson, 'if-none-match': graphql.headers.etag! })).status).toBe(200);
    }
  });

  it("an app open with Apollo Client's Accept header is answered in the same media type however it is answered", async () => {
    // The first open of these variables executes (compiled path), the next ones are remembered.
    const params = { documentId: feedId, variables: JSON.stringify({ first: 4 }) };
    const headers = { ...app(), accept: 'application/graphql-response+json,application/json;q=0.9' };
    const opens = [await get(stack.bffUrl, params, headers), await get(stack.bffUrl, params, headers), await get(stack.bffUrl, params, headers)];
    for (const open of opens) {
      expect(open.status).toBe(200);
      expect(open.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
      expect(open.text).toBe(opens[0]!.text);
    }
    const plain = await get(stack.bffUrl, params, app());
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('after a change through the BFF the ETag changes', async () => {
    const params = { documentId: feedId, variables: JSON.stringify({ first: 50 }) };
    const before = await get(stack.bffUrl, params, app());
    const target = before.body.data.offerFeed.nodes.find((n: any) => true).id as string;
    const owner = (await post(stack.bffUrl, { query: `mutation { stopCampaign(id: "${target}") { userErrors { code } } }` }, partner(DEMO_TOKENS.store))).body.data
      .stopCampaign.userErrors.length
      ? DEMO_TOKENS.aggregator
      : DEMO_TOKENS.store;
    if (owner === DEMO_TOKENS.aggregator) await post(stack.bffUrl, { query: `mutation { stopCampaign(id: "${target}") { userErrors { code } } }` }, partner(owner));
    const after = await get(stack.bffUrl, params, { ...app(), 'if-none-match': before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.body.data.offerFeed.nodes.map((n: any) => n.id)).not.toContain(target);
    await post(stack.bffUrl, { query: `mutation { startCampaign(id: "${target}") { userErrors { code } } }` }, partner(owner));
  });

  it('POST answers to apps are not stored; answers to partner tokens are private, no-store', async () => {
    const byPost = await post(stack.bffUrl, { documentId: feedId }, app());
    expect(byPost.headers['cache-control']).toBe('no-store');
    expect(byPost.headers.etag).toBeUndefined();
    const partnerAnswer = await post(stack.bffUrl, { query: CATEGORIES }, partner(DEMO_TOKENS.store));
    expect(partnerAnswer.status).toBe(200);
    expect(partnerAnswer.headers['cache-control']).toBe('private, no-store');
  });

  it('partner tokens may run any document unless TRUSTED_DOCUMENTS_ONLY', async () => {
    expect((await post(stack.bffUrl, { query: '{ campaigns(first: 1) { totalCount } }' }, partner(DEMO_TOKENS.store))).status).toBe(200);
    const strict = await startStack({ env: production({ TRUSTED_DOCUMENTS_ONLY: 'true' }), appKeys: DEMO_APP });
    try {
      await strict.resetCalls();
      const refused = await post(strict.bffUrl, { query: '{ campaigns(first: 1) { totalCount } }' }, partner(DEMO_TOKENS.store));
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].extensions.code).toBe('TRUSTED_DOCUMENT_REQUIRED');
      expect(await strict.calls()).toEqual({});
      const trusted = await post(strict.bffUrl, { documentId: sha(CAMPAIGNS) }, partner(DEMO_TOKENS.store));
      expect(trusted.status).toBe(200);
      expect(trusted.body.data.campaigns.nodes.length).toBeGreaterThan(0);
    } finally {
      await strict.close();
    }
  });
});

describe('requests the gate answers itself are logged and counted (production)', () => {
  it('a remembered app open, its 304 and a refusal each get the request line and the request metric', async () => {
    const logs = captureLogs();
    const stack = await startStack({ env: production({ LOG_LEVEL: 'info' }), appKeys: DEMO_APP, logger: logs.logger });
    try {
      const params = { documentId: feedId, variables: JSON.stringify({ first: 3 }) };
      const executed = await get(stack.bffUrl, params, app());
      const remembered = await get(stack.bffUrl, params, app());
      const notModified = await get(stack.bffUrl, params, { ...app(), 'if-none-match': executed.headers.etag! });
      const refused = await post(stack.bffUrl, { query: '{ categories { id } }' }, app());
      expect([executed.status, remembered.status, notModified.status, refused.status]).toEqual([200, 200, 304, 403]);

      const lines = logs.entries.filter((entry) => entry.msg === 'graphql request');
      const lineOf = (answer: { headers: Record<string, string> }) => lines.filter((line) => line.requestId === answer.headers['x-request-id']);
      expect(lineOf(executed)).toEqual([expect.objectContaining({ operation: 'Feed', operationType: 'query', outcome: 'ok', path: 'apollo' })]);
      for (const answer of [remembered, notModified]) {
        expect(lineOf(answer)).toEqual([expect.objectContaining({ operation: 'Feed', operationType: 'query', outcome: 'ok', backendCalls: 0, path: 'remembered' })]);
      }
      expect(lineOf(refused)).toEqual([expect.objectContaining({ operation: 'anonymous', outcome: 'TRUSTED_DOCUMENT_REQUIRED', errorCodes: ['TRUSTED_DOCUMENT_REQUIRED'], path: 'gate' })]);
      expect(lines.every((line) => typeof line.durationMs === 'number')).toBe(true);

      const metrics = await (await fetch(stack.metricsUrl)).text();
      expect(metrics).toMatch(/^bff_graphql_requests_total\{operation="Feed",outcome="ok"\} 3$/m);
      expect(metrics).toMatch(/^bff_graphql_requests_total\{operation="anonymous",outcome="TRUSTED_DOCUMENT_REQUIRED"\} 1$/m);
    } finally {
      await stack.close();
    }
  });
});

describe('development: app keys run any document (Sandbox)', () => {
  it('runs a document that is in no manifest', async () => {
    const stack = await startStack({ appKeys: DEMO_APP });
    try {
      const answer = await post(stack.bffUrl, { query: '{ categories { id } }' }, app());
      expect(answer.status).toBe(200);
      expect(answer.body.data.categories.length).toBeGreaterThan(0);
    } finally {
      await stack.close();
    }
  });
});

const cacheKinds = [{ name: 'memory' }, ...(needs('redis-server') ? [{ name: 'Redis' }] : [])];

describe.each(cacheKinds)('rate limits ($name)', ({ name }) => {
  let redis: RunningRedis | undefined;
  let stack: Stack;
  beforeAll(async () => {
    if (name === 'Redis') redis = await startRedis();
    stack = await startStack({
      env: { APP_KEY_RATE_LIMIT: '30', CLIENT_RATE_LIMIT: '20', RATE_LIMIT_WINDOW_MS: '60000', ...(redis ? { CACHE_URL: redis.url } : {}) },
      appKeys: { ...DEMO_APP, 'other-app-key': { name: 'Other', partnerTokens: [DEMO_TOKENS.store] } },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.close();
  });

  it('answers 429 with Retry-After over the per-client limit, counting concurrent requests, before any backend call', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(stack.bffUrl, { query: FEED }, app())));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const limited = answers.find((a) => a.status === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    await stack.resetCalls();
    expect((await post(stack.bffUrl, { query: FEED }, app('other-app-key'))).status).toBe(429);
    expect(await stack.calls()).toEqual({});
    // Partner tokens are not held to the app limits.
    expect((await post(stack.bffUrl, { query: '{ categories { id } }' }, partner(DEMO_TOKENS.store))).status).toBe(200);
  });
});
