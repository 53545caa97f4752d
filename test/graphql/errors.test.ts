import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { startRewritingProxy, type RewritingProxy } from './rewriting-proxy.js';
import { CREATE, promoInput } from './support.js';
import { cid } from '../helpers/ids.js';

/**
 * Top-level errors: auth, outages and bad answers get a stable `extensions.code`, the fields that
 * could be resolved still answer, and no internal text, stack trace or token leaves.
 */
const ATTEMPT_TIMEOUT_MS = 200;
const BUDGET_MS = 700;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    emulator: { moderation: { mode: 'manual' } },
    client: { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS, budgetMs: BUDGET_MS, backoff: { initialMs: 10, maxMs: 50 }, breaker: { consecutiveFailures: 1000, halfOpenAfterMs: 1000 } },
  });
});
afterAll(() => stack?.close());
beforeEach(() => stack.admin('reset', {}));

function expectNoLeak(errors: any[] | undefined, token = 'demo-store-token') {
  const text = JSON.stringify(errors);
  expect(text).not.toContain('stacktrace');
  expect(text).not.toContain(token);
  expect(text).not.toContain('127.0.0.1');
  expect(text).not.toMatch(/at \w+ \(/);
}

describe('UNAUTHENTICATED', () => {
  it('without a token: every field fails before any backend call', async () => {
    const { body } = await stack.gql(`{ campaign(id: "1") { id } }`, {}, null);
    expect(body.data).toEqual({ campaign: null });
    expect(body.errors).toEqual([
      expect.objectContaining({ path: ['campaign'], extensions: { code: 'UNAUTHENTICATED' }, message: expect.stringContaining('Bearer <token>') }),
    ]);
    const categories = await stack.gql(`{ categories { id } }`, {}, null);
    expect(categories.body.data).toEqual({ categories: null });
    expect(categories.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    const mutation = await stack.gql(CREATE, { input: promoInput(1) }, null);
    expect(mutation.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await stack.calls()).toEqual({});
  });

  it('with a token the backend does not know, without echoing it', async () => {
    const token = 'not-a-real-partner-token';
    const { body } = await stack.gql(`{ campaigns { totalCount } }`, {}, token);
    expect(body.data).toEqual({ campaigns: null });
    expect(body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expectNoLeak(body.errors, token);
  });

  it('with a malformed Authorization header: says it is malformed, not missing, and never echoes it', async () => {
    const header = 'Bearer demo-store-token x';
    const send = async (query: string, variables?: Record<string, unknown>) => {
      const response = await fetch(stack.bffUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: header },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as any;
    };
    const malformed = {
      message: 'The Authorization header is malformed: send it as "Bearer <token>", a single token without spaces.',
      extensions: { code: 'UNAUTHENTICATED' },
    };
    // Twice each: the second time the compiled path answers.
    for (let i = 0; i < 2; i++) {
      const campaign = await send('{ campaign(id: "1") { id } }');
      expect(campaign.data).toEqual({ campaign: null });
      expect(campaign.errors).toEqual([expect.objectContaining({ path: ['campaign'], ...malformed })]);
      const categories = await send('{ categories { id } }');
      expect(categories.errors).toEqual([expect.objectContaining(malformed)]);
      const mutation = await send(CREATE, { input: promoInput(1) });
      expect(mutation.errors).toEqual([expect.objectContaining(malformed)]);
      expectNoLeak([campaign, categories, mutation]);
    }
    expect(await stack.calls()).toEqual({});
  });

  it('accepts the reference\'s "Bearer: <token>" form', async () => {
    const response = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer: demo-store-token' },
      body: JSON.stringify({ query: '{ campaign(id: "1") { id } }' }),
    });
    expect(((await response.json()) as any).data.campaign.id).toBe(cid(1));
  });
});

describe('BACKEND_UNAVAILABLE', () => {
  for (const mode of ['http500', 'reset', 'hang'] as const) {
    it(`${mode}: the field fails with the code, within the client's budget`, async () => {
      await stack.admin('faults', { mode, operation: 'campaigns/get' });
      const started = Date.now();
      const { body } = await stack.gql(`{ campaign(id: "1") { id } }`);
      expect(Date.now() - started).toBeLessThan(BUDGET_MS + 500);
      expect(body.data).toEqual({ campaign: null });
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0]).toMatchObject({ path: ['campaign'], extensions: { code: 'BACKEND_UNAVAILABLE', operation: 'get' } });
      expect(body.errors![0].message).toMatch(/^The campaign API is unavailable/);
      expectNoLeak(body.errors);
    });
  }

  it('a write that fails in transport is a top-level error, not a user error', async () => {
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/create' });
    const { body } = await stack.gql(CREATE, { input: promoInput(3001) });
    expect(body.data).toBeNull();
    expect(body.errors![0]).toMatchObject({ path: ['createCampaign'], extensions: { code: 'BACKEND_UNAVAILABLE' } });
    expect((await stack.calls())['campaigns/create']).toBe(1); // writes are not retried blindly
  });
});

describe('a failing root field', () => {
  it('is null with its error; the other root fields of the query still answer', async () => {
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/get-all-campaigns' });
    const { body } = await stack.gql(`{ categories { id } campaigns { totalCount } campaignsByIds(ids: ["1"]) { id } }`);
    expect(body.data.campaigns).toBeNull();
    expect(body.data.categories.length).toBeGreaterThan(0);
    expect(body.data.campaignsByIds).toEqual([{ id: cid(1) }]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({ path: ['campaigns'], extensions: { code: 'BACKEND_UNAVAILABLE' } });
  });

  it('an argument refused on one root field leaves the others', async () => {
    const { body } = await stack.gql(`{ campaigns(first: 500) { totalCount } categories { id } }`);
    expect(body.data.campaigns).toBeNull();
    expect(body.data.categories.length).toBeGreaterThan(0);
    expect(body.errors![0]).toMatchObject({ path: ['campaigns'], extensions: { code: 'BAD_USER_INPUT', argument: 'first' } });
  });
});

describe('BACKEND_BAD_RESPONSE', () => {
  for (const mode of ['malformed', 'contract'] as const) {
    it(`${mode}: the field fails with the code`, async () => {
      await stack.admin('faults', { mode, operation: 'campaigns/get-all-campaigns' });
      const { body } = await stack.gql(`{ campaigns { totalCount } }`);
      expect(body.data).toEqual({ campaigns: null });
      expect(body.errors![0]).toMatchObject({ path: ['campaigns'], extensions: { code: 'BACKEND_BAD_RESPONSE', operation: 'getAllCampaigns' } });
      expectNoLeak(body.errors);
    });
  }

  it('a business error where a read expects none is BACKEND_REJECTED with the backend code', async () => {
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/info', code: 'incorrectData' });
    const { body } = await stack.gql(`{ campaign(id: "1") { stats { shows } } }`);
    expect(body.errors![0]).toMatchObject({ path: ['campaign', 'stats'], extensions: { code: 'BACKEND_REJECTED', backendCode: 'incorrectData' } });
  });
});

describe('partial data', () => {
  it('the fields that resolved answer; the failed one is null with its error', async () => {
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/info' });
    const { body } = await stack.gql(`{ campaign(id: "1") { id type card { title } stats { shows } } categories { id } }`);
    expect(body.data.campaign).toEqual({ id: cid(1), type: 'CODE_ONLINE', card: { title: 'Техно Мир' }, stats: null });
    expect(body.data.categories.length).toBeGreaterThan(0);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({ path: ['campaign', 'stats'], extensions: { code: 'BACKEND_UNAVAILABLE' } });
  });

  it('a list keeps its page when the records of its nodes cannot be read', async () => {
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/get' });
    const { body } = await stack.gql(`{ campaigns(first: 2) { totalCount nodes { id type } edges { cursor node { id } } } }`);
    expect(body.data.campaigns.totalCount).toBe(8);
    expect(body.data.campaigns.nodes).toEqual([null, null]);
    expect(body.data.campaigns.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([1, 2].map(cid));
    expect(body.errors!.map((e) => e.path)).toEqual([
      ['campaigns', 'nodes', 0, 'type'],
      ['campaigns', 'nodes', 1, 'type'],
    ]);
  });
});

describe('other errors', () => {
  it('GraphQL validation errors keep their own code and message', async () => {
    const { status, body } = await stack.gql(`{ campaign(id: "1") { nope } }`);
    expect(status).toBe(400);
    expect(body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors![0].message).toContain('nope');
    expectNoLeak(body.errors);
  });
});

describe('values this API does not know', () => {
  let proxy: RewritingProxy;
  let viaProxy: Stack;
  beforeAll(async () => {
    proxy = await startRewritingProxy();
    // The BFF's client talks to the proxy; the proxy learns the emulator's port once it runs.
    viaProxy = await startStack({ emulator: { moderation: { mode: 'manual' } }, client: { baseUrl: proxy.url } });
    proxy.target = viaProxy.emulatorUrl;
  });
  afterAll(async () => {
    await viaProxy?.close();
    await proxy?.close();
  });

  it('never fail a list: unknown statuses, kinds and discount types read as UNKNOWN with the raw text', async () => {
    proxy.rewrite.set('campaigns/get-all-campaigns', (b) => b.replaceAll('"paused"', '"archived"'));
    proxy.rewrite.set('campaigns/get', (b) =>
      b.replaceAll('"paused"', '"archived"').replaceAll('"codeOffline"', '"codeQr"').replaceAll('"discountType":"fix"', '"discountType":"points"'),
    );
    const { body } = await viaProxy.gql(`{ campaigns { totalCount nodes { id status rawStatus type rawType discount { type amount value label } card { discountLabel } } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.campaigns.totalCount).toBe(8);
    const two = body.data.campaigns.nodes.find((n: { id: string }) => n.id === cid(2));
    expect(two).toEqual({
      id: cid(2),
      status: 'UNKNOWN',
      rawStatus: 'archived',
      type: 'UNKNOWN',
      rawType: 'codeQr',
      discount: { type: 'UNKNOWN', amount: '500', value: null, label: '500' },
      card: { discountLabel: '500' },
    });
    const filtered = await viaProxy.gql(`{ campaigns(status: UNKNOWN) { totalCount nodes { id rawStatus } } }`);
    expect(filtered.body.data.campaigns).toEqual({ totalCount: 2, nodes: [{ id: cid(2), rawStatus: 'archived' }, { id: cid(8), rawStatus: 'archived' }] });
  });

  it('updateCampaign on a record without partnerCampaignId (the reference\'s get lists none) is BACKEND_BAD_RESPONSE, and writes nothing', async () => {
    proxy.rewrite.clear();
    proxy.rewrite.set('campaigns/get', (b) => b.replace(/"partnerCampaignId":\d+,/, ''));
    await viaProxy.resetCalls();
    const { body } = await viaProxy.gql(`mutation { updateCampaign(input: { id: "3", merchant: { name: "Другое имя" } }) { campaign { id } userErrors { field message code } } }`);
    proxy.rewrite.clear();
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([
      expect.objectContaining({
        path: ['updateCampaign'],
        message: 'The campaign API did not say which partnerCampaignId campaign 3 has, and needs it to change the campaign; nothing was changed.',
        extensions: { code: 'BACKEND_BAD_RESPONSE', reason: 'contract' },
      }),
    ]);
    expect(await viaProxy.calls()).toEqual({ 'campaigns/get': 1 });
  });

  it('updateCampaign leaves out a value it cannot write back (the samples\' kind code), and the campaign API keeps it', async () => {
    proxy.rewrite.clear();
    proxy.rewrite.set('campaigns/get', (b) => b.replace('"campaignType":"codeOffline"', '"campaignType":"code"'));
    const { body } = await viaProxy.gql(`mutation { updateCampaign(input: { id: "2", merchant: { name: "Техно Мир Плюс" } }) { campaign { id status rawType merchant { name } } userErrors { field message code } } }`);
    proxy.rewrite.clear();
    expect(body.errors).toBeUndefined();
    expect(body.data.updateCampaign).toEqual({ campaign: { id: cid(2), status: 'MODERATION', rawType: 'code', merchant: { name: 'Техно Мир Плюс' } }, userErrors: [] });
    const stored = await viaProxy.gql(`{ campaign(id: "2") { rawType merchant { name } } }`);
    expect(stored.body.data.campaign).toEqual({ rawType: 'codeOffline', merchant: { name: 'Техно Мир Плюс' } });
  });

  it('counts beyond 32 bits come through as they are; beyond 2^53 − 1 the answer is BACKEND_BAD_RESPONSE', async () => {
    proxy.rewrite.clear();
    const big = 3_000_000_000;
    proxy.rewrite.set('campaigns/info', (b) =>
      b.replace(/"campaignShows":\d+/, `"campaignShows":${big}`).replace(/"total":\d+/, `"total":${big + 1}`).replace(/"approvedCount":\d+/, `"approvedCount":${Number.MAX_SAFE_INTEGER}`),
    );
    proxy.rewrite.set('campaigns/get-all-campaigns', (b) => b.replace(/"total":\d+/, `"total":${big + 2}`));
    const { body } = await viaProxy.gql(`{ campaign(id: "1") { stats { shows pins { total } leads { approved } } } campaigns(first: 1) { totalCount } }`);
    expect(body).toEqual({ data: { campaign: { stats: { shows: big, pins: { total: big + 1 }, leads: { approved: Number.MAX_SAFE_INTEGER } } }, campaigns: { totalCount: big + 2 } } });

    proxy.rewrite.set('campaigns/info', (b) => b.replace(/"campaignShows":\d+/, '"campaignShows":9007199254740993'));
    const unsafe = await viaProxy.gql(`{ campaign(id: "1") { id stats { shows } } }`);
    proxy.rewrite.clear();
    expect(unsafe.body.data).toEqual({ campaign: { id: cid(1), stats: null } });
    expect(unsafe.body.errors).toEqual([expect.objectContaining({ path: ['campaign', 'stats'], extensions: expect.objectContaining({ code: 'BACKEND_BAD_RESPONSE' }) })]);
  });

  it('a value an output type cannot represent is BACKEND_BAD_RESPONSE at its field, up to the nearest nullable parent', async () => {
    proxy.rewrite.set('campaigns/get', (b) => b.replaceAll('"#1A237E"', '"navy"'));
    const { body } = await viaProxy.gql(`{ bad: campaign(id: "1") { id card { backgroundColor } } good: campaign(id: "3") { id card { backgroundColor } } }`);
    expect(body.data).toEqual({ bad: null, good: { id: cid(3), card: { backgroundColor: '#1B5E20' } } });
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({ path: ['bad', 'card', 'backgroundColor'], extensions: { code: 'BACKEND_BAD_RESPONSE' } });
    expectNoLeak(body.errors);
  });
});
