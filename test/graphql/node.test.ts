import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { campaignNodeId, offerNodeId } from '../../src/campaigns/campaign-id.js';
import { decodeNodeId, encodeNodeId } from '../../src/graphql/node-id.js';

/**
 * Global object identification over real HTTP: opaque ids that name their type, `node(id:)` and
 * `nodes(ids:)` after Relay's convention, and the campaign API's numbers still readable and
 * accepted where a campaign is named. Fixtures: store campaigns 1-8, aggregator campaigns 9-15.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
});
afterAll(() => stack?.close());
beforeEach(() => stack.resetCalls());

describe('global ids', () => {
  it('are opaque, URL-safe, name their type, and come back as they went out', async () => {
    const { body } = await stack.gql('{ campaigns(first: 3) { nodes { id ymCampaignId } } }');
    expect(body.errors).toBeUndefined();
    const nodes = body.data.campaigns.nodes as { id: string; ymCampaignId: number }[];
    expect(nodes.map((n) => n.ymCampaignId)).toEqual([1, 2, 3]);
    for (const { id, ymCampaignId } of nodes) {
      expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(id).not.toBe(String(ymCampaignId));
      expect(decodeNodeId(id)).toEqual({ type: 'Campaign', key: String(ymCampaignId) });
    }
  });

  it('read one spelling only: padded, re-cased or foreign ids name nothing', () => {
    const id = campaignNodeId(42);
    expect(decodeNodeId(id)).toEqual({ type: 'Campaign', key: '42' });
    for (const other of [`${id}=`, id.toLowerCase(), '', 'x'.repeat(1_000_000), Buffer.from('Campaign:42').toString('base64'), encodeNodeId('campaign', 42)]) {
      if (other === id) continue;
      expect(decodeNodeId(other), other.slice(0, 20)).toBeNull();
    }
  });
});

describe('node(id:)', () => {
  it('finds a campaign by its id with one campaigns/get, fields through the fragment', async () => {
    const id = campaignNodeId(1);
    const { body } = await stack.gql('query ($id: ID!) { node(id: $id) { __typename id ... on Campaign { ymCampaignId status merchant { name } } } }', { id });
    expect(body.errors).toBeUndefined();
    expect(body.data.node).toEqual({ __typename: 'Campaign', id, ymCampaignId: 1, status: 'STARTED', merchant: { name: 'Техно Мир' } });
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
  });

  it('is null for another partner’s campaign, a bare number, a foreign type and garbage, without a call for the last three', async () => {
    const ask = (id: string) => stack.gql('query ($id: ID!) { node(id: $id) { id } }', { id });
    expect((await ask(campaignNodeId(9))).body).toEqual({ data: { node: null } });
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
    await stack.resetCalls();
    for (const id of ['1', encodeNodeId('Category', 1), 'not an id', '€'.repeat(10_000)]) {
      expect((await ask(id)).body, id.slice(0, 20)).toEqual({ data: { node: null } });
    }
    expect(await stack.calls()).toEqual({});
  });
});

describe('nodes(ids:)', () => {
  it('answers in the order asked, null where an id names nothing, each campaign read once', async () => {
    const [a, b, theirs] = [campaignNodeId(2), campaignNodeId(3), campaignNodeId(10)];
    const { body } = await stack.gql('query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Campaign { ymCampaignId type } } }', { ids: [b, theirs, a, 'junk', b] });
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes.map((n: { ymCampaignId: number } | null) => n?.ymCampaignId ?? null)).toEqual([3, null, 2, null, 3]);
    expect(body.data.nodes[0].id).toBe(b);
    expect(await stack.calls()).toEqual({ 'campaigns/get': 3 });
  });

  it('refuses more than 100 ids as a whole, before any call', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => campaignNodeId(i + 1));
    const { body } = await stack.gql('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(body.data.nodes).toBeNull();
    expect(body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('at most 100 ids, got 101') });
    expect(await stack.calls()).toEqual({});
  });
});

describe('arguments that take a campaign', () => {
  it('take its id, or the campaign API’s number as digits: both name the same campaign', async () => {
    const id = campaignNodeId(4);
    const { body } = await stack.gql('query ($id: ID!) { byId: campaign(id: $id) { id ymCampaignId } byNumber: campaign(id: "4") { id ymCampaignId } list: campaignsByIds(ids: [$id, "4"]) { id } }', { id });
    expect(body.errors).toBeUndefined();
    expect(body.data.byId).toEqual({ id, ymCampaignId: 4 });
    expect(body.data.byNumber).toEqual(body.data.byId);
    expect(body.data.list).toEqual([{ id }, { id }]);
  });

  it('the feed’s offers have ids of their own, which open their campaigns by campaign(id:) and node(id:)', async () => {
    const { body } = await stack.gql('{ offerFeed(first: 10) { nodes { __typename id ymCampaignId } } }');
    expect(body.errors).toBeUndefined();
    const offers: { id: string; ymCampaignId: number }[] = body.data.offerFeed.nodes;
    expect(offers.length).toBeGreaterThan(1);
    for (const offer of offers) {
      expect(offer.id).toBe(offerNodeId(offer.ymCampaignId));
      expect(offer.id).not.toBe(campaignNodeId(offer.ymCampaignId));
      expect(decodeNodeId(offer.id)).toEqual({ type: 'Offer', key: String(offer.ymCampaignId) });
    }
    const [offer] = offers;
    const campaign = campaignNodeId(offer!.ymCampaignId);
    const opened = await stack.gql('query ($id: ID!) { campaign(id: $id) { id ymCampaignId } node(id: $id) { __typename id } nodes(ids: [$id]) { id } }', { id: offer!.id });
    expect(opened.body.errors).toBeUndefined();
    expect(opened.body.data).toEqual({ campaign: { id: campaign, ymCampaignId: offer!.ymCampaignId }, node: { __typename: 'Campaign', id: campaign }, nodes: [{ id: campaign }] });
  });
});

describe('the cost limit', () => {
  it('counts the fields asked through a fragment on the node’s type', async () => {
    const small = await startStack({ env: { MAX_BACKEND_CALLS: '60' } });
    try {
      // A read per id, which `card` shares, and a statistics read per id through the fragment: 62.
      const ids = Array.from({ length: 31 }, (_, i) => campaignNodeId(i + 1));
      const { status, body } = await small.gql('query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Campaign { card { title } stats { shows } } } }', { ids });
      expect(status).toBe(400);
      expect(body.errors![0]).toMatchObject({ extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'backend_calls', cost: { backendCalls: 62 } } });
      expect(await small.calls()).toEqual({});
    } finally {
      await small.close();
    }
  });
});
