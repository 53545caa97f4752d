import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startRewritingProxy, type RewritingProxy } from '../graphql/rewriting-proxy.js';
import { promoInput } from '../graphql/support.js';
import { campaignOf, cid } from '../helpers/ids.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { app, DEMO_APP, get, partner, post } from './support.js';

/**
 * An offer an app can act on: the feed an app reads with its key (a GET, as an app opens) gives
 * each offer what the campaign's record holds for acting on it, the same values a partner reads
 * of its campaign, shared by every caller of the app (public HTTP caching): the kind, the link,
 * the code everyone gets, the dates and durations, the merchant, the discount and the cashback
 * terms. Codes handed out one per user (uploaded pins) never appear.
 */
const ACTIONS = `
  type acceptUrl endsAt offerDurationHours offerEndsAt
  pinSettings { pinType displayType couponCode expiresAt }
  merchant { name domain logoSvgUrl logoPngUrl }
  discount { type amount value currency label }
  cashback { type confirmDays }`;
const FEED = `query AppOffers($first: Int) { offerFeed(first: $first) { totalCount nodes { id ymCampaignId card { actionUrl } ${ACTIONS} } } }`;
const CAMPAIGNS = `query Campaigns($ids: [ID!]!) { campaignsByIds(ids: $ids) { id ${ACTIONS} } }`;
const PINS = `query Pins($id: ID!) {
  campaign(id: $id) {
    unused: pins(status: NEW_UNUSED, first: 1000) { nodes { code } }
    accepted: pins(status: ACCEPTED_BY_USER, first: 1000) { nodes { code } }
    redeemed: pins(status: REDEEM_RECEIVED, first: 1000) { nodes { code } }
  }
}`;

type Offer = Record<string, any> & { id: string; pinSettings: { pinType: string; couponCode: string | null } | null };

let stack: Stack;
/** The campaign the aggregator creates with every term an app reads, live at upload. */
let created: string;
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().replace(/\.\d{3}Z$/, '.000Z');
const endsAt = inDays(30);
const offerEndsAt = inDays(45);

beforeAll(async () => {
  stack = await startStack({ appKeys: DEMO_APP, emulator: { moderation: { mode: 'manual' } } });
  // The store's reusable code campaign (TECHNO500), stopped in the fixtures: running again.
  const started = await stack.gql(`mutation ($id: ID!) { startCampaign(id: $id) { campaign { status } userErrors { message } } }`, { id: cid(2) });
  expect(started.body.data.startCampaign).toEqual({ campaign: { status: 'STARTED' }, userErrors: [] });
  // The aggregator's banner (the pet store's), stopped in the fixtures: running again.
  const banner = await stack.gql(`mutation ($id: ID!) { startCampaign(id: $id) { campaign { type status } } }`, { id: cid(11) }, DEMO_TOKENS.aggregator);
  expect(banner.body.data.startCampaign.campaign).toEqual({ type: 'BANNER', status: 'STARTED' });
  const input = promoInput(93_001, {
    type: 'CODE_ONLINE',
    pinSettings: { pinType: 'REUSABLE', displayType: 'TEXT', couponCode: 'WINTER25' },
    acceptUrl: 'https://shop.example.ru/winter',
    endsAt,
    offerDurationHours: 72,
    offerEndsAt,
    discount: { type: 'FIX', amount: '250' },
    cashback: { type: 'MONEY', confirmDays: 14 },
  });
  const answer = await stack.gql(`mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id status } userErrors { field message } } }`, { input }, DEMO_TOKENS.aggregator);
  expect(answer.body.data.createCampaign.userErrors).toEqual([]);
  created = answer.body.data.createCampaign.campaign.id;
});
afterAll(() => stack?.close());

/** The feed as an app opens it: a GET with its key, no token. */
async function appFeed() {
  const answer = await get(stack.bffUrl, { query: FEED, variables: JSON.stringify({ first: 100 }) }, app());
  expect(answer.body.errors).toBeUndefined();
  expect(answer.status).toBe(200);
  return { answer, offers: answer.body.data.offerFeed.nodes as Offer[] };
}

describe('an offer an app can act on (X-App-Key, GET)', () => {
  it('has the kind, the link, the code everyone gets, the dates, the merchant, the discount and the cashback', async () => {
    const { answer, offers } = await appFeed();
    const byId = new Map(offers.map((o) => [campaignOf(o.id), o]));

    // A code for the till, the same for everyone, and no link.
    expect(byId.get(cid(2))).toMatchObject({
      type: 'CODE_OFFLINE',
      acceptUrl: null,
      pinSettings: { pinType: 'REUSABLE', displayType: 'TEXT', couponCode: 'TECHNO500' },
      merchant: { name: 'Техно Мир', domain: 'techno-mir.example.ru' },
      discount: { type: 'FIX', amount: '500', value: '500' },
      cashback: null,
    });
    // A code for an online store and the link to use it on, with every term of the offer.
    expect(byId.get(created)).toMatchObject({
      type: 'CODE_ONLINE',
      acceptUrl: 'https://shop.example.ru/winter',
      pinSettings: { pinType: 'REUSABLE', displayType: 'TEXT', couponCode: 'WINTER25' },
      endsAt,
      offerDurationHours: 72,
      offerEndsAt,
      merchant: { name: 'Магазин', domain: 'shop.example.ru', logoSvgUrl: 'https://shop.example.ru/logo.svg', logoPngUrl: 'https://shop.example.ru/logo.png' },
      discount: { type: 'FIX', value: '250' },
      cashback: { type: 'MONEY', confirmDays: 14 },
    });
    // One code per user: handed out by the offer service, so the offer has its kind and link only.
    expect(byId.get(cid(1))).toMatchObject({
      type: 'CODE_ONLINE',
      acceptUrl: 'https://techno-mir.example.ru/promo',
      pinSettings: { pinType: 'ONE_OFF', displayType: 'TEXT', couponCode: null },
    });
    // A link and nothing to show.
    expect(byId.get(cid(3))).toMatchObject({ type: 'PROMO', acceptUrl: 'https://svezhie-produkty.example.ru/akciya', pinSettings: null });
    for (const offer of offers) expect(offer.acceptUrl, offer.id).toBe(offer.card.actionUrl);

    // Shared by the app's callers and by HTTP caches: every field has its cache hint.
    expect(answer.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(answer.headers.etag).toBeTruthy();
  });

  it("says of each offer what its partner reads of the campaign, the code of a one-off campaign aside", async () => {
    const { offers } = await appFeed();
    const ids = offers.map((o) => o.id);
    const campaigns = new Map<string, Offer>();
    for (const token of [DEMO_TOKENS.store, DEMO_TOKENS.aggregator]) {
      const { body } = await post(stack.bffUrl, { query: CAMPAIGNS, variables: { ids } }, partner(token));
      for (const c of body.data.campaignsByIds as (Offer | null)[]) if (c) campaigns.set(c.id, c);
    }
    // Asked by the offers' ids, answered with their campaigns.
    expect([...campaigns.keys()].sort()).toEqual(ids.map(campaignOf).sort());
    const kinds = new Set<string>();
    for (const offer of offers) {
      const { card: _card, ymCampaignId: _number, id, ...rest } = offer;
      const acted = { id: campaignOf(id), ...rest };
      const expected = campaigns.get(campaignOf(offer.id))!;
      const shared = expected.pinSettings?.pinType === 'REUSABLE' || !expected.pinSettings ? expected : { ...expected, pinSettings: { ...expected.pinSettings, couponCode: null } };
      expect(acted, offer.id).toEqual(shared);
      kinds.add(`${offer.type}/${offer.pinSettings?.pinType ?? '-'}`);
    }
    // Every kind an app meets in the demo feed was compared.
    expect([...kinds].sort()).toEqual(['BANNER/-', 'CODE_OFFLINE/ONE_OFF', 'CODE_OFFLINE/REUSABLE', 'CODE_ONLINE/ONE_OFF', 'CODE_ONLINE/REUSABLE', 'PROMO/-']);
  });

  it('never holds a code handed out one per user, in any status', async () => {
    const { answer, offers } = await appFeed();
    const oneOff = offers.filter((o) => o.pinSettings?.pinType === 'ONE_OFF');
    expect(oneOff.length).toBeGreaterThan(1);
    const pins: string[] = [];
    for (const offer of oneOff) {
      for (const token of [DEMO_TOKENS.store, DEMO_TOKENS.aggregator]) {
        const { body } = await post(stack.bffUrl, { query: PINS, variables: { id: offer.id } }, partner(token));
        const c = body.data?.campaign;
        if (c) pins.push(...[c.unused, c.accepted, c.redeemed].flatMap((list: { nodes: { code: string }[] }) => list.nodes.map((n) => n.code)));
      }
    }
    expect(pins.length).toBeGreaterThan(20);
    const leaked = pins.filter((code) => answer.text.includes(code));
    expect(leaked).toEqual([]);
  });
});

describe('a record that holds a code beside one-off codes', () => {
  let proxy: RewritingProxy;
  let viaProxy: Stack;
  beforeAll(async () => {
    proxy = await startRewritingProxy();
    viaProxy = await startStack({ appKeys: DEMO_APP, emulator: { moderation: { mode: 'manual' } }, client: { baseUrl: proxy.url } });
    proxy.target = viaProxy.emulatorUrl;
    // A backend that keeps a coupon code on a campaign handing out one-off codes (left from
    // before its pin type changed, say): the partner sees it, apps never do.
    proxy.rewrite.set('campaigns/get', (b) => b.replace('"pinType":"one-off"', '"pinType":"one-off","couponCode":"LEFTOVER-1"'));
  });
  afterAll(async () => {
    await viaProxy?.close();
    await proxy?.close();
  });

  it('gives apps no code for it; its partner still reads the record as it is', async () => {
    const feed = await get(viaProxy.bffUrl, { query: FEED, variables: JSON.stringify({ first: 100 }) }, app());
    expect(feed.body.errors).toBeUndefined();
    const offer = feed.body.data.offerFeed.nodes.find((o: Offer) => campaignOf(o.id) === cid(1));
    expect(offer.pinSettings).toMatchObject({ pinType: 'ONE_OFF', displayType: 'TEXT', couponCode: null });
    expect(feed.text).not.toContain('LEFTOVER-1');
    const own = await post(viaProxy.bffUrl, { query: `{ campaign(id: "${cid(1)}") { pinSettings { couponCode } } }` }, partner(DEMO_TOKENS.store));
    expect(own.body.data.campaign.pinSettings.couponCode).toBe('LEFTOVER-1');
  });
});
