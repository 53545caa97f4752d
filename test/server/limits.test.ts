import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { createCampaign, newPartner, promoInput } from '../graphql/support.js';

/**
 * Every limit with a probe that exceeds it and one that stays within. A refused operation makes
 * no backend call: the emulator's call counters stay empty.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    env: { MAX_TOKENS: '400', MAX_DEPTH: '5', MAX_ALIASES: '5', MAX_DIRECTIVES: '4', MAX_BACKEND_CALLS: '60', MAX_LIST_NODES: '500' },
  });
  // Warm the category directory so "no backend call" below is about the refused query alone.
  await stack.gql('{ categories { id } }');
});
afterAll(() => stack.close());
beforeEach(() => stack.resetCalls());

async function refused(query: string, variables?: Record<string, unknown>) {
  const { status, body } = await stack.gql(query, variables);
  expect(await stack.calls(), 'a refused operation must not reach the backend').toEqual({});
  expect(body.data).toBeUndefined();
  return { status, error: body.errors![0] };
}

describe('query limits', () => {
  it('token count: a token bomb is a 400 syntax error', async () => {
    const { status, error } = await refused(`{ ${'categories { id } '.repeat(120)} }`);
    expect(status).toBe(400);
    expect(error.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(error.message).toMatch(/more tha[nt] 400 tokens/);
  });

  it('depth', async () => {
    const within = await stack.gql('{ campaigns(first: 1) { nodes { merchant { name } } } }');
    expect(within.body.errors).toBeUndefined();
    await stack.resetCalls();
    const { status, error } = await refused('{ campaigns(first: 1) { edges { node { pins(status: NEW_UNUSED, first: 1) { edges { node { code } } } } } } }');
    expect(status).toBe(400);
    expect(error.message).toMatch(/Query depth limit of 5 exceeded/);
    expect(error.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('aliases, __typename included', async () => {
    const ok = await stack.gql('{ a: __typename b: __typename c: __typename d: __typename e: __typename }');
    expect(ok.status).toBe(200);
    await stack.resetCalls();
    const { status, error } = await refused(`{ ${Array.from({ length: 6 }, (_, i) => `t${i}: __typename`).join(' ')} }`);
    expect(status).toBe(400);
    expect(error.message).toMatch(/Aliases limit of 5 exceeded, found 6/);
  });

  it('directives', async () => {
    const { status, error } = await refused(`{ categories { id ${'@include(if: true) '.repeat(5)} } }`);
    expect(status).toBe(400);
    expect(error.message).toMatch(/Directives limit of 4 exceeded, found 5/);
  });

  it('backend calls, counted before any call with the actual first argument', async () => {
    const within = await stack.gql('query($n: Int) { campaigns(first: $n) { nodes { card { title } } } }', { n: 5 });
    expect(within.body.errors).toBeUndefined();
    await stack.resetCalls();
    const { status, error } = await refused('query($n: Int) { campaigns(first: $n) { nodes { card { title } stats { shows } } } }', { n: 30 });
    expect(status).toBe(400);
    expect(error.extensions).toMatchObject({ code: 'QUERY_LIMIT_EXCEEDED', limit: 'backend_calls' });
    expect(error.message).toMatch(/could make 61 backend calls, at most 60 are allowed/);
  });

  it('list sizes: nested lists multiply', async () => {
    const { status, error } = await refused('{ campaigns(first: 10) { nodes { id pins(status: NEW_UNUSED, first: 100) { nodes { code } } } } }');
    expect(status).toBe(400);
    expect(error.extensions).toMatchObject({ code: 'QUERY_LIMIT_EXCEEDED', limit: 'list_nodes' });
  });

  it('circular fragments are refused by validation', async () => {
    const { status, error } = await refused('{ campaigns { nodes { ...A } } } fragment A on Campaign { id ...B } fragment B on Campaign { id ...A }');
    expect(status).toBe(400);
    expect(error.message).toMatch(/Cannot spread fragment "A" within itself/);
  });

  it('counts refusals in the metrics', async () => {
    const metrics = await (await fetch(stack.metricsUrl)).text();
    for (const limit of ['aliases', 'depth', 'directives', 'backend_calls', 'list_nodes']) {
      expect(metrics).toMatch(new RegExp(`bff_limit_rejections_total\\{limit="${limit}"\\} [1-9]`));
    }
  });
});

describe('the status filter', () => {
  it('reads at most MAX_STATUS_SCAN campaigns, and says so beyond', async () => {
    // Manual moderation: on a busy machine 100 creates outlast the auto-moderation delay, and an
    // approved campaign would leave the MODERATION count this test reads.
    const small = await startStack({ env: { MAX_STATUS_SCAN: '100' }, emulator: { moderation: { mode: 'manual' } } });
    try {
      const token = await newPartner(small, 'store');
      const query = '{ campaigns(first: 5, status: MODERATION) { totalCount } }';
      for (let i = 1; i <= 100; i++) await createCampaign(small, promoInput(i), token);
      const within = await small.gql(query, undefined, token);
      expect(within.body.data.campaigns.totalCount).toBe(100);

      await createCampaign(small, promoInput(101), token);
      await small.resetCalls();
      const beyond = await small.gql(query, undefined, token);
      expect(beyond.body.errors![0]).toMatchObject({
        message: expect.stringMatching(/^Argument "status" filters at most 100 campaigns \(1 list calls\); this partner has 101/),
        extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'status_scan' },
      });
      expect(await small.calls()).toEqual({ 'campaigns/get-all-campaigns': 1 });
    } finally {
      await small.close();
    }
  });
});

describe('the per-request deadline', () => {
  it('answers 503 REQUEST_TIMEOUT in time when the backend hangs', async () => {
    const slow = await startStack({ env: { REQUEST_TIMEOUT_MS: '300', BACKEND_ATTEMPT_TIMEOUT_MS: '5000', BACKEND_BUDGET_MS: '10000' } });
    try {
      await slow.admin('faults', { mode: 'hang', operation: 'campaigns/get' });
      const started = performance.now();
      const { status, body } = await slow.gql('{ campaign(id: "1") { id card { title } } }');
      expect(performance.now() - started).toBeLessThan(300 + 700);
      expect(status).toBe(503);
      expect(body.errors![0]).toMatchObject({ extensions: { code: 'REQUEST_TIMEOUT' }, message: expect.stringContaining('300 ms') });
      // Still serving afterwards.
      await slow.admin('faults', undefined, 'DELETE');
      expect((await slow.gql('{ categories { id } }')).status).toBe(200);
    } finally {
      await slow.close();
    }
  });
});
