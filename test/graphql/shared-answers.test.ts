import { ApolloClient } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Categories } from '../../client/src/documents.js';
import { createLink } from '../../client/src/link.js';
import { createCache } from '../../client/src/type-policies.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { captureLogs, type CapturedLogs } from '../helpers/log-capture.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { warmPath } from '../helpers/executor.js';
import { startRewritingProxy, type RewritingProxy } from './rewriting-proxy.js';
import { needs } from '../helpers/needs.js';

/**
 * Answers over the shared category directory (`@cacheControl(scope: PUBLIC)` in the schema) are
 * remembered and sent again without executing (src/pipeline/response-cache.ts). These tests hold
 * them to what an execution would answer: the same bytes and headers, never to a request without
 * a token, never for a document that reads partner data, and never after the directory's copy
 * has changed.
 */

const CATEGORIES = 'query Categories { categories { id name } }';
const TTL_MS = 300;

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function post(stack: Stack, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${DEMO_TOKENS.store}` }): Promise<Answer> {
  const response = await fetch(stack.bffUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pathOf(logs: CapturedLogs, answer: Answer): string | undefined {
  const lines = logs.entries.filter((entry) => entry.msg === 'graphql request' && entry.requestId === answer.headers['x-request-id']);
  expect(lines).toHaveLength(1);
  return lines[0]!.path;
}

describe('shared answers', () => {
  let stack: Stack;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogs();
    stack = await startStack({ logger: logs.logger });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('sends a remembered answer with the same bytes and headers as the execution it came from, and logs it as remembered', async () => {
    const executed = await post(stack, { query: CATEGORIES });
    await stack.resetCalls();
    const remembered = await post(stack, { query: CATEGORIES, variables: {} });

    expect(pathOf(logs, executed)).toBe('apollo');
    expect(pathOf(logs, remembered)).toBe('remembered');
    expect(remembered.status).toBe(200);
    expect(remembered.text).toBe(executed.text);
    expect(JSON.parse(remembered.text).data.categories[0]).toEqual({ id: '1', name: 'Продукты' });
    const { 'x-request-id': _a, date: _b, ...executedHeaders } = executed.headers;
    const { 'x-request-id': _c, date: _d, ...rememberedHeaders } = remembered.headers;
    expect(rememberedHeaders).toEqual(executedHeaders);
    expect(remembered.headers['cache-control']).toBe('private, no-store');
    expect(await stack.calls()).toEqual({});
    const line = logs.entries.find((entry) => entry.requestId === remembered.headers['x-request-id']);
    expect(line).toMatchObject({ operation: 'Categories', operationType: 'query', outcome: 'ok', backendCalls: 0, path: 'remembered' });
  });

  it("answers in the media type the request's Accept header asks for, as an execution does", async () => {
    const apolloClientAccept = 'application/graphql-response+json,application/json;q=0.9';
    const headers = { authorization: `Bearer ${DEMO_TOKENS.store}`, accept: apolloClientAccept };
    const apollo = await post(stack, { query: 'query Typed { categories { id } }' }, headers);
    const remembered = await post(stack, { query: 'query Typed { categories { id } }' }, headers);
    const plain = await post(stack, { query: 'query Typed { categories { id } }' });
    expect([apollo, remembered, plain].map((answer) => pathOf(logs, answer))).toEqual(['apollo', 'remembered', 'remembered']);
    for (const answer of [remembered]) {
      expect(answer.headers['content-type']).toBe(apollo.headers['content-type']);
      expect(answer.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
      expect(answer.text).toBe(apollo.text);
    }
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.text).toBe(apollo.text);
  });

  it('never answers a request without a usable token from memory: it is refused as an execution refuses it', async () => {
    await post(stack, { query: CATEGORIES });
    await post(stack, { query: CATEGORIES });
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer ' }] as Record<string, string>[]) {
      const answer = await post(stack, { query: CATEGORIES }, headers);
      const body = JSON.parse(answer.text);
      expect(body.data).toEqual({ categories: null });
      expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(pathOf(logs, answer)).toBe(warmPath);
    }
  });

  it('keys answers by variables and operation name: another category id is another answer', async () => {
    const query = 'query One($id: ID!) { category(id: $id) { id name } }';
    const answers: Record<string, string> = {};
    for (const round of [1, 2, 3]) {
      for (const id of ['2', '3', 'x']) {
        const answer = await post(stack, { query, variables: { id } });
        if (round === 3) expect(pathOf(logs, answer)).toBe('remembered');
        answers[id] = answer.text;
      }
    }
    expect(JSON.parse(answers['2']!).data.category).toEqual({ id: '2', name: 'Электроника' });
    expect(JSON.parse(answers['3']!).data.category).toEqual({ id: '3', name: 'Одежда и обувь' });
    expect(JSON.parse(answers.x!).data.category).toBeNull();

    const twoOperations = `${query} query Two { category(id: "4") { name } }`;
    await post(stack, { query: twoOperations, operationName: 'Two' });
    await post(stack, { query: twoOperations, operationName: 'Two' });
    const two = await post(stack, { query: twoOperations, operationName: 'Two' });
    const one = await post(stack, { query: twoOperations, operationName: 'One', variables: { id: '2' } });
    expect(JSON.parse(two.text).data).toEqual({ category: { name: 'Красота и здоровье' } });
    expect(JSON.parse(one.text).data).toEqual({ category: { id: '2', name: 'Электроника' } });
  });

  it('executes every time a document that also reads partner data', async () => {
    const mixed = 'query Mixed { categories { id } campaigns(first: 1) { totalCount } }';
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post(stack, { query: mixed }));
    expect(answers.map((answer) => pathOf(logs, answer))).toEqual(['apollo', warmPath, warmPath]);
    const otherPartner = await post(stack, { query: mixed }, { authorization: `Bearer ${DEMO_TOKENS.aggregator}` });
    expect(pathOf(logs, otherPartner)).toBe(warmPath);
    expect(JSON.parse(otherPartner.text).data.campaigns.totalCount).not.toBe(JSON.parse(answers[2]!.text).data.campaigns.totalCount);
  });

  it("gives Apollo Client, through the kit's link, the same data from memory as from an execution", async () => {
    const kit = createLink({ uri: stack.bffUrl, token: DEMO_TOKENS.store, webSocketImpl: WebSocket });
    const client = new ApolloClient({ link: kit.link, cache: createCache() });
    try {
      const reads = [];
      for (let i = 0; i < 3; i++) reads.push((await client.query({ query: Categories, fetchPolicy: 'network-only' })).data);
      const lines = logs.entries.filter((entry) => entry.msg === 'graphql request' && entry.operation === 'Categories');
      expect(lines.at(-1)).toMatchObject({ path: 'remembered', outcome: 'ok', backendCalls: 0 });
      expect(reads[2]).toEqual(reads[1]);
      expect(reads[2]!.categories![0]).toEqual({ __typename: 'Category', id: '1', name: 'Продукты' });
    } finally {
      client.stop();
      await kit.ws.dispose();
    }
  });

  it('answers many clients at once on a cold directory with the right bytes and a single backend call', async () => {
    const cold = await startStack();
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, () => post(cold, { query: CATEGORIES })));
      const again = await Promise.all(Array.from({ length: 40 }, () => post(cold, { query: CATEGORIES })));
      const texts = new Set([...answers, ...again].map((answer) => answer.text));
      expect(texts.size).toBe(1);
      expect(JSON.parse([...texts][0]!).data.categories).toHaveLength(12);
      expect((await cold.calls())['categories/get']).toBe(1);
    } finally {
      await cold.close();
    }
  });
});

/**
 * The directory's copy changes (the backend renames a category): a remembered answer gives way
 * with it, over either cache store.
 */
describe.each([
  { store: 'memory', redis: false },
  { store: 'redis', redis: true },
])('shared answers when the directory changes ($store store)', ({ redis: useRedis }) => {
  let redis: RunningRedis | undefined;
  let proxy: RewritingProxy;
  let stack: Stack;
  let logs: CapturedLogs;

  beforeAll(async () => {
    if (useRedis && !needs('redis-server')) return;
    if (useRedis) redis = await startRedis();
    proxy = await startRewritingProxy();
    logs = captureLogs();
    stack = await startStack({
      logger: logs.logger,
      client: { baseUrl: proxy.url },
      categoryTtlMs: TTL_MS,
      ...(redis ? { env: { CACHE_URL: redis.url } } : {}),
    });
    proxy.target = stack.emulatorUrl;
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
    await redis?.close();
  });

  it.skipIf(useRedis && !needs('redis-server'))('serves the renamed category once the new copy is in, and never the old name after it', async () => {
    const name = (answer: Answer) => JSON.parse(answer.text).data.categories[0].name as string;
    await post(stack, { query: CATEGORIES });
    await post(stack, { query: CATEGORIES });
    const before = await post(stack, { query: CATEGORIES });
    expect(pathOf(logs, before)).toBe('remembered');
    expect(name(before)).toBe('Продукты');

    proxy.rewrite.set('categories/get', (body) => body.replace('"Продукты"', '"Продукты и напитки"'));
    await sleep(TTL_MS + 50);
    const seen: Array<{ name: string; path: string | undefined }> = [];
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const answer = await post(stack, { query: CATEGORIES });
      seen.push({ name: name(answer), path: pathOf(logs, answer) });
      if (seen.length >= 3 && seen.slice(-2).every((s) => s.name === 'Продукты и напитки' && s.path === 'remembered')) break;
      await sleep(5);
    }
    // The first request after the TTL is executed on the stale copy (and starts the refresh).
    expect(seen[0]).toEqual({ name: 'Продукты', path: warmPath });
    const firstNew = seen.findIndex((s) => s.name === 'Продукты и напитки');
    expect(firstNew).toBeGreaterThan(0);
    expect(seen.slice(firstNew).map((s) => s.name)).toEqual(seen.slice(firstNew).map(() => 'Продукты и напитки'));
    expect(seen.slice(-2).map((s) => s.path)).toEqual(['remembered', 'remembered']);
  });
});
