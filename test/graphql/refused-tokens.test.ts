import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { captureLogs, type CapturedLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { connectionInit, liveClient, streamTokenCheck } from '../subscriptions/support.js';
import { newPartner } from './support.js';

/**
 * A token the campaign API refuses gets the same answer whatever is cached: refused as a whole,
 * no data, the same body as on a cold server. A token it accepts is answered from the warm
 * directory with no call once the directory has seen it accepted, for a while
 * (src/cache/category-directory.ts, src/graphql/shared-answers.ts).
 */

const WRONG = 'not-a-partner-token';
const READS = ['query Categories { categories { id name } }', 'query One { category(id: "2") { id name } }'];
const CATEGORIES = READS[0]!;

interface Answer {
  status: number;
  text: string;
  path: string | undefined;
}

let logs: CapturedLogs;
let n = 0;

async function send(stack: Stack, method: 'POST' | 'GET', query: string, token: string): Promise<Answer> {
  const requestId = `refused-${++n}`;
  const headers = { authorization: `Bearer ${token}`, 'x-request-id': requestId };
  const response =
    method === 'POST'
      ? await fetch(stack.bffUrl, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query }) })
      : await fetch(`${stack.bffUrl}?${new URLSearchParams({ query })}`, { headers: { ...headers, 'apollo-require-preflight': 'true' } });
  const text = await response.text();
  const line = logs.entries.find((entry) => entry.msg === 'graphql request' && entry.requestId === requestId);
  return { status: response.status, text, path: line?.path };
}

/** What each read answers the wrong token, by method. */
async function refusals(stack: Stack): Promise<Record<string, Answer>> {
  const out: Record<string, Answer> = {};
  for (const method of ['POST', 'GET'] as const) for (const query of READS) out[`${method} ${query}`] = await send(stack, method, query, WRONG);
  return out;
}

function refused(answer: Answer): void {
  const body = JSON.parse(answer.text);
  expect(body.errors.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
  expect(Object.values(body.data ?? {}).every((value) => value === null)).toBe(true);
}

describe('a token the campaign API refuses', () => {
  let stack: Stack;
  let cold: Record<string, Answer>;

  beforeAll(async () => {
    logs = captureLogs();
    stack = await startStack({ logger: logs.logger });
    cold = await refusals(stack);
  });
  afterAll(() => stack?.close());

  it('is refused on a cold server, with no data', () => {
    for (const answer of Object.values(cold)) refused(answer);
  });

  it('is refused the same, byte for byte, once another partner warmed the directory and its shared answers, on every path', async () => {
    // Another partner warms the directory and the remembered answers of both reads.
    for (const query of READS) {
      const paths = [];
      for (let i = 0; i < 3; i++) paths.push((await send(stack, 'POST', query, DEMO_TOKENS.store)).path);
      expect(paths.at(-1)).toBe('remembered');
    }
    for (let round = 0; round < 2; round++) {
      const warm = await refusals(stack);
      for (const [what, answer] of Object.entries(warm)) {
        expect(answer.status, what).toBe(cold[what]!.status);
        expect(answer.text, what).toBe(cold[what]!.text);
        expect(answer.path, what).not.toBe('remembered');
      }
    }
    // Still answered from memory to the partner the campaign API accepts.
    expect((await send(stack, 'POST', CATEGORIES, DEMO_TOKENS.store)).path).toBe('remembered');

    // Named by its persisted-query hash (Apollo Client's link), registered by the other partner.
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(CATEGORIES).digest('hex') } };
    const byHash = (token: string) =>
      fetch(stack.bffUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ extensions, query: CATEGORIES }),
      });
    expect(JSON.parse(await (await byHash(DEMO_TOKENS.store)).text()).data.categories).toHaveLength(12);
    for (let i = 0; i < 2; i++) {
      const response = await fetch(stack.bffUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${WRONG}` },
        body: JSON.stringify({ extensions }),
      });
      expect(await response.text()).toBe(cold[`POST ${CATEGORIES}`]!.text);
    }
  });

  it('costs one backend call, not one per request, while it is remembered as refused', async () => {
    const again = `${WRONG}-again`;
    await stack.resetCalls();
    for (let i = 0; i < 5; i++) refused(await send(stack, 'POST', CATEGORIES, again));
    expect(await stack.calls()).toEqual({ 'categories/get': 1 });
  });

  it('opens no subscription over WebSocket or SSE with the directory warm', async () => {
    const ws = liveClient('websocket', stack.bffUrl, WRONG, { keepOpen: true });
    const subscription = ws.subscribe('subscription { campaignChanged { campaign { id category { name } } } }');
    expect((await ws.closed!).code).toBe(4401);
    expect(subscription.results).toEqual([]);
    await ws.close();

    const sse = await fetch(`${stack.bffUrl}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${WRONG}` },
      body: JSON.stringify({ query: 'subscription { campaignChanged { campaign { id category { name } } } }' }),
    });
    expect(sse.status).toBe(401);
    expect((await sse.json() as any).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('a token the campaign API accepts, on a warm directory', () => {
  let stack: Stack;

  beforeAll(async () => {
    logs = captureLogs();
    stack = await startStack({ logger: logs.logger });
    // The store warms the directory and its shared answers.
    for (let i = 0; i < 3; i++) await send(stack, 'POST', CATEGORIES, DEMO_TOKENS.store);
  });
  afterAll(() => stack?.close());
  afterEach(() => stack.resetCalls());

  it('is checked with one read of the directory the first time, then answered with no call, on every path', async () => {
    await stack.resetCalls();
    const first = await send(stack, 'POST', CATEGORIES, DEMO_TOKENS.aggregator);
    expect(JSON.parse(first.text).data.categories).toHaveLength(12);
    expect(first.path).not.toBe('remembered');
    expect(await stack.calls()).toEqual({ 'categories/get': 1 });

    await stack.resetCalls();
    const answers = [];
    for (const method of ['POST', 'GET'] as const) for (const query of READS) for (let i = 0; i < 3; i++) answers.push(await send(stack, method, query, DEMO_TOKENS.aggregator));
    for (const answer of answers) expect(JSON.parse(answer.text).errors).toBeUndefined();
    expect(answers.map((answer) => answer.path)).toContain('remembered');
    expect(await stack.calls()).toEqual({});
  });

  it('the partner that warmed the directory is never asked about again within the window', async () => {
    for (const method of ['POST', 'GET'] as const) for (const query of READS) expect(JSON.parse((await send(stack, method, query, DEMO_TOKENS.store)).text).errors).toBeUndefined();
    expect(await stack.calls()).toEqual({});
  });

  it('is checked once for the process: live status and the directory take each other\'s verdicts, with no second call', async () => {
    const categories = async (token: string) => JSON.parse((await send(stack, 'POST', CATEGORIES, token)).text);

    // A WebSocket connection checks a token first: the warm directory then serves it with no call.
    const viaLive = await newPartner(stack, 'store');
    await stack.resetCalls();
    expect(await connectionInit(stack.bffUrl, viaLive)).toBe('ack');
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 1 });
    await stack.resetCalls();
    expect((await categories(viaLive)).data.categories).toHaveLength(12);
    expect(await streamTokenCheck(stack.bffUrl, viaLive)).toBe(400);
    expect(await stack.calls()).toEqual({});

    // The directory checks a token first: WebSocket and SSE take it with no call.
    const viaDirectory = await newPartner(stack, 'aggregator');
    await stack.resetCalls();
    expect((await categories(viaDirectory)).data.categories).toHaveLength(12);
    expect(await stack.calls()).toEqual({ 'categories/get': 1 });
    await stack.resetCalls();
    expect(await connectionInit(stack.bffUrl, viaDirectory)).toBe('ack');
    expect(await streamTokenCheck(stack.bffUrl, viaDirectory)).toBe(400);
    expect(await stack.calls()).toEqual({});

    // Refused by one, refused by the other, with no call.
    const refusedByLive = `${WRONG}-live`;
    await stack.resetCalls();
    expect(await connectionInit(stack.bffUrl, refusedByLive)).toEqual({ code: 4401 });
    expect((await categories(refusedByLive)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await streamTokenCheck(stack.bffUrl, refusedByLive)).toBe(401);
    const refusedByDirectory = `${WRONG}-directory`;
    expect((await categories(refusedByDirectory)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await connectionInit(stack.bffUrl, refusedByDirectory)).toEqual({ code: 4401 });
    expect(await streamTokenCheck(stack.bffUrl, refusedByDirectory)).toBe(401);
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 1, 'categories/get': 1 });
  });

  it('an app reads the directory with its first token the campaign API accepts, and is refused when it accepts none', async () => {
    const apps = await startStack({
      appKeys: { mixed: { name: 'Mixed', partnerTokens: [WRONG, DEMO_TOKENS.store] }, refused: { name: 'Refused', partnerTokens: [WRONG] } },
    });
    try {
      const read = (key: string) =>
        fetch(apps.bffUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-app-key': key }, body: JSON.stringify({ query: CATEGORIES }) }).then(async (r) => JSON.parse(await r.text()));
      const coldRefusal = await read('refused');
      expect(coldRefusal.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect((await read('mixed')).data.categories).toHaveLength(12);
      expect(await read('refused')).toEqual(coldRefusal);
    } finally {
      await apps.close();
    }
  });
});
