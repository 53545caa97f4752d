import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCampaignApiClient, type CampaignApiClient } from '../../src/campaign-api/http-client.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { newPartner } from './support.js';

/**
 * A field costs a backend call only if the query asks for it, and a call is made once per
 * request whatever the query repeats. Counted by the emulator (`/_emulator/calls`).
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
});
afterAll(() => stack?.close());
beforeEach(() => stack.resetCalls());

describe('reads', () => {
  it('campaigns { nodes { id status } } is exactly one get-all-campaigns call', async () => {
    const { body } = await stack.gql(`{ campaigns(first: 100) { totalCount nodes { id status rawStatus } edges { cursor node { id status } } pageInfo { hasNextPage } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.campaigns.nodes).toHaveLength(8);
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 1 });
  });

  it('a detail field of every node costs one get per node, all in one request', async () => {
    const { body } = await stack.gql(`{ campaigns(first: 5) { nodes { id type merchant { name } card { title } discount { label } } } }`);
    expect(body.errors).toBeUndefined();
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 1, 'campaigns/get': 5 });
  });

  it('duplicates in one request cost one get (and one info) per unique id', async () => {
    const { body } = await stack.gql(`{
      a: campaign(id: "1") { type stats { shows } }
      b: campaign(id: "1") { card { title } stats { redeems } }
      byIds: campaignsByIds(ids: ["2", "1", "2", "3", "3"]) { merchant { name } stats { shows } }
      list: campaigns(first: 3) { nodes { description stats { accepts } } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(await stack.calls()).toEqual({ 'campaigns/get': 3, 'campaigns/info': 3, 'campaigns/get-all-campaigns': 1 });
  });

  it('warm categories cost another partner one read of the directory (its token checked), then no call, in queries and in Campaign.category', async () => {
    await stack.gql(`{ categories { id } }`);
    await stack.resetCalls();
    const query = `{ categories { id name } category(id: "3") { name } campaign(id: "9") { category { name } } }`;
    const { body } = await stack.gql(query, {}, 'demo-aggregator-token');
    expect(body.errors).toBeUndefined();
    expect(body.data.campaign.category.name).toBe('Спорт и отдых');
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1, 'categories/get': 1 });
    await stack.resetCalls();
    expect((await stack.gql(query, {}, 'demo-aggregator-token')).body).toEqual(body);
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
  });

  it('stats and pins cost their own call only when asked', async () => {
    await stack.gql(`{ campaign(id: "1") { id status } }`);
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
    await stack.resetCalls();
    await stack.gql(`{ campaign(id: "1") { stats { shows } pins(status: NEW_UNUSED) { totalCount } } }`);
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1, 'campaigns/info': 1, 'campaigns/get-pins-by-status': 1 });
  });
});

describe('the status filter over a long list', () => {
  let token: string;
  let client: CampaignApiClient;
  const COUNT = 230;

  beforeAll(async () => {
    token = await newPartner(stack, 'aggregator');
    client = createCampaignApiClient({ baseUrl: stack.emulatorUrl });
    // An aggregator's campaigns go live at upload; every third is stopped, so two statuses mix.
    const ids: number[] = [];
    for (let i = 0; i < COUNT; i += 23) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(23, COUNT - i) }, (_, k) =>
          client.create(token, {
            partnerCampaignId: 50_000 + i + k,
            categoryId: 2,
            campaignType: 'promo',
            acceptUrl: 'https://shop.example.ru/promo',
            merchantDomain: 'shop.example.ru',
            merchantLogoSvg: 'https://shop.example.ru/logo.svg',
            merchantLogoPng: 'https://shop.example.ru/logo.png',
            merchantName: 'Магазин',
            backgroundColor: '#1A237E',
            fontColor: '#FFFFFF',
            description: 'Скидка на всё',
            conditions: 'При заказе от 1000 рублей',
            discountType: 'percent',
            discountAmount: '15',
            feeType: 'percent',
            campaignFee: '5',
          }),
        ),
      );
      ids.push(...batch.map((r) => r.ymCampaignId));
    }
    ids.sort((a, b) => a - b);
    await Promise.all(ids.filter((_, i) => i % 3 === 0).map((id) => client.stop(token, { ymCampaignId: id })));
  });
  afterAll(() => client?.close());

  it('reads the whole list in pages of 100 and no campaign record', async () => {
    await stack.resetCalls();
    const { body } = await stack.gql(`{ campaigns(status: PAUSED, first: 100) { totalCount nodes { id status } pageInfo { hasNextPage endCursor } } }`, {}, token);
    expect(body.errors).toBeUndefined();
    const paused = Math.ceil(COUNT / 3);
    expect(body.data.campaigns.totalCount).toBe(paused);
    expect(body.data.campaigns.nodes).toHaveLength(paused);
    expect(body.data.campaigns.nodes.every((n: { status: string }) => n.status === 'PAUSED')).toBe(true);
    expect(body.data.campaigns.pageInfo.hasNextPage).toBe(false);
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': Math.ceil(COUNT / 100) });
  });

  it('pages the filtered list with cursors that count only matching campaigns', async () => {
    const PAGE = `query ($after: String) { campaigns(status: STARTED, first: 40, after: $after) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const { body }: { body: any } = await stack.gql(PAGE, { after }, token);
      expect(body.errors).toBeUndefined();
      expect(body.data.campaigns.totalCount).toBe(COUNT - Math.ceil(COUNT / 3));
      seen.push(...body.data.campaigns.nodes.map((n: { id: string }) => n.id));
      after = body.data.campaigns.pageInfo.hasNextPage ? body.data.campaigns.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toHaveLength(COUNT - Math.ceil(COUNT / 3));
    expect(new Set(seen).size).toBe(seen.length);
    const numbers = seen.map(Number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('without a filter, a page deep in the list is one call at its offset', async () => {
    await stack.resetCalls();
    const first = await stack.gql(`{ campaigns(first: 100) { totalCount pageInfo { endCursor } } }`, {}, token);
    const second = await stack.gql(`query ($after: String) { campaigns(first: 100, after: $after) { nodes { id } pageInfo { hasNextPage } } }`, { after: first.body.data.campaigns.pageInfo.endCursor }, token);
    expect(first.body.data.campaigns.totalCount).toBe(COUNT);
    expect(second.body.data.campaigns.nodes).toHaveLength(100);
    expect(second.body.data.campaigns.pageInfo.hasNextPage).toBe(true);
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 2 });
  });
});
