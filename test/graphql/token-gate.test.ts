import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * A request's calls with a token the campaign API has not judged lately: the first goes and tells
 * the others, which wait for it. A made-up token fanning out over a list of ids costs one backend
 * call, not one per id, however many requests send it at once; a refused token's list fails as a
 * whole with one error; a partner's first request after its verdict lapsed costs one round trip
 * more than a warm one, and nothing else changes for it.
 */

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => String(from + i));
const BY_IDS = 'query ($ids: [ID!]!) { campaignsByIds(ids: $ids) { id } }';
const ALIASES = `query ($ids: [ID!]!) { ${Array.from({ length: 5 }, (_, i) => `a${i}: campaignsByIds(ids: $ids) { id }`).join(' ')} }`;

describe('calls with a token the campaign API has not judged lately', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('a made-up token over 5 × 100 ids: one backend call, and each list fails as a whole with one error', async () => {
    await stack.resetCalls();
    const { status, body } = await stack.gql(ALIASES, { ids: ids(100) }, 'made-up-token-over-ids');
    expect(status).toBe(200);
    expect(body.errors).toHaveLength(5);
    for (const error of body.errors!) expect(error.extensions.code).toBe('UNAUTHENTICATED');
    expect(body.data).toEqual({ a0: null, a1: null, a2: null, a3: null, a4: null });
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
    // Refused lately: the same again makes no call at all.
    await stack.gql(ALIASES, { ids: ids(100) }, 'made-up-token-over-ids');
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
  });

  it('many requests at once with one made-up token: one backend call between them', async () => {
    await stack.resetCalls();
    const answers = await Promise.all(Array.from({ length: 10 }, () => stack.gql(BY_IDS, { ids: ids(50) }, 'made-up-token-at-once')));
    for (const { body } of answers) {
      expect(body.data).toEqual({ campaignsByIds: null });
      expect(body.errors!.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
    }
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
  });

  it('no token: the list fails as a whole, with one error and no call', async () => {
    await stack.resetCalls();
    const { body } = await stack.gql(ALIASES, { ids: ids(100) }, null);
    expect(body.errors).toHaveLength(5);
    expect(body.errors!.every((e: any) => e.extensions.code === 'UNAUTHENTICATED')).toBe(true);
    expect(await stack.calls()).toEqual({});
  });

  it('a partner\'s token: every id read once, each item its own, whether the token was judged lately or not', async () => {
    const own = (await stack.gql('{ campaigns(first: 3) { nodes { id } } }', {}, DEMO_TOKENS.aggregator)).body.data.campaigns.nodes.map((n: { id: string }) => n.id);
    expect(own).toHaveLength(3);
    for (let round = 0; round < 2; round++) {
      await stack.resetCalls();
      const { body } = await stack.gql(BY_IDS, { ids: [...own, '999999', 'not-an-id'] }, DEMO_TOKENS.aggregator);
      expect(body.errors).toBeUndefined();
      expect(body.data.campaignsByIds).toEqual([...own.map((id: string) => ({ id })), null, null]);
      expect(await stack.calls()).toEqual({ 'campaigns/get': 4 });
    }
  });
});
