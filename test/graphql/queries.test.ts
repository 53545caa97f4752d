import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid } from '../helpers/ids.js';

/**
 * Every query over real HTTP: the BFF on port 0 in front of the emulator, whose fixtures are
 * deterministic (store campaigns 1-8, aggregator campaigns 9-15) with moderation manual, so
 * statuses stay put.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
});
afterAll(() => stack?.close());
beforeEach(() => stack.resetCalls());

describe('campaign(id)', () => {
  it('reads every field of campaigns/get, grouped for its readers', async () => {
    const { body } = await stack.gql(`{
      campaign(id: "1") {
        id ymCampaignId partnerCampaignId status rawStatus type rawType description conditions startsAt endsAt offerDurationHours acceptUrl supportedPlatforms categoryId
        merchant { name domain logoSvgUrl logoPngUrl }
        appearance { backgroundColor fontColor backgroundImageUrl appearanceType }
        discount { type amount value currency label }
        fee { type amount min max currency }
        pinSettings { pinType displayType couponCode expiresAt }
        cashback { type confirmDays }
        category { id name }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const c = body.data.campaign;
    expect(c).toMatchObject({
      id: cid(1),
      ymCampaignId: 1,
      partnerCampaignId: 1001,
      status: 'STARTED',
      rawStatus: 'started',
      type: 'CODE_ONLINE',
      rawType: 'codeOnline',
      description: 'Скидка 10% на ноутбуки',
      startsAt: null,
      acceptUrl: 'https://techno-mir.example.ru/promo',
      categoryId: '2',
      merchant: {
        name: 'Техно Мир',
        domain: 'techno-mir.example.ru',
        logoSvgUrl: 'https://techno-mir.example.ru/logo.svg',
        logoPngUrl: 'https://techno-mir.example.ru/logo.png',
      },
      appearance: { backgroundColor: '#1A237E', fontColor: '#FFFFFF', backgroundImageUrl: null, appearanceType: null },
      discount: { type: 'PERCENT', amount: '10', value: '10', currency: 'RUB', label: '10\u00a0%' },
      fee: { type: 'PERCENT', amount: '5', min: null, max: null, currency: 'RUB' },
      pinSettings: { pinType: 'ONE_OFF', displayType: 'TEXT', couponCode: null },
      cashback: null,
      category: { id: '2', name: 'Электроника' },
    });
    expect(c.conditions.length).toBeGreaterThan(0);
    // DateTime answers in UTC, whatever offset the backend stored.
    expect(c.endsAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(c.pinSettings.expiresAt).toMatch(/Z$/);
  });

  it('is null for an id the partner has no campaign with, and for one of another partner', async () => {
    const { body } = await stack.gql(`{ unknown: campaign(id: "999999") { id } foreign: campaign(id: "9") { id } junk: campaign(id: "abc") { id } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ unknown: null, foreign: null, junk: null });
    // "abc" names no campaign, so it costs no call.
    expect((await stack.calls())['campaigns/get']).toBe(2);
  });

  it('groups a fee range, a text discount and a banner appearance', async () => {
    const { body } = await stack.gql(`{
      promo: campaign(id: "3") { type fee { type amount min max } discount { type amount value label } pinSettings { pinType } }
      banner: campaign(id: "4") { type appearance { appearanceType backgroundImageUrl } card { backgroundImageUrl actionUrl } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.promo).toEqual({
      type: 'PROMO',
      fee: { type: 'FIX', amount: null, min: '50', max: '300' },
      discount: { type: 'TEXT', amount: 'Подарок к заказу', value: null, label: 'Подарок к заказу' },
      pinSettings: null,
    });
    expect(body.data.banner).toEqual({
      type: 'BANNER',
      appearance: { appearanceType: 'IMAGE_BANNER', backgroundImageUrl: 'https://knizhnaya-polka.example.ru/banner.png' },
      card: { backgroundImageUrl: 'https://knizhnaya-polka.example.ru/banner.png', actionUrl: 'https://knizhnaya-polka.example.ru/banner' },
    });
  });
});

describe('CampaignCard', () => {
  it('has everything a mobile card shows, with the discount formatted by Intl', async () => {
    const { body } = await stack.gql(`{
      percent: campaign(id: "1") { card { title description conditions discountLabel logoSvgUrl logoPngUrl backgroundColor fontColor backgroundImageUrl actionUrl } }
      rub: campaign(id: "2") { card { ru: discountLabel en: discountLabel(locale: "en-US") } }
      text: campaign(id: "3") { card { discountLabel en: discountLabel(locale: "en-US") } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.percent.card).toMatchObject({
      title: 'Техно Мир',
      description: 'Скидка 10% на ноутбуки',
      discountLabel: '10\u00a0%',
      logoSvgUrl: 'https://techno-mir.example.ru/logo.svg',
      logoPngUrl: 'https://techno-mir.example.ru/logo.png',
      backgroundColor: '#1A237E',
      fontColor: '#FFFFFF',
      backgroundImageUrl: null,
      actionUrl: 'https://techno-mir.example.ru/promo',
    });
    expect(body.data.rub.card).toEqual({ ru: '500\u00a0₽', en: 'RUB\u00a0500' });
    expect(body.data.text.card).toEqual({ discountLabel: 'Подарок к заказу', en: 'Подарок к заказу' });
  });

  it('formats dollars ("$20" in en-US, "20 $" in ru-RU)', async () => {
    const { body } = await stack.gql(`{ campaign(id: "10") { card { en: discountLabel(locale: "en-US") ru: discountLabel } } }`, {}, 'demo-aggregator-token');
    expect(body.errors).toBeUndefined();
    expect(body.data.campaign.card).toEqual({ en: '$20', ru: '20\u00a0$' });
  });

  it('refuses a locale that is not a BCP 47 tag, naming the argument', async () => {
    const { body } = await stack.gql(`{ campaign(id: "1") { id card { discountLabel(locale: "not a locale!") } } }`);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors![0].message).toContain('"locale"');
    expect(body.errors![0].path).toEqual(['campaign', 'card', 'discountLabel']);
  });

  it('refuses a well-formed tag Intl does not support, naming the argument and the value', async () => {
    const { body } = await stack.gql(`{
      a: campaign(id: "1") { id card { discountLabel(locale: "not-a-locale") } }
      b: campaign(id: "2") { id discount { label(locale: "not-a-locale") } } }`);
    expect(body.errors).toHaveLength(2);
    for (const error of body.errors!) {
      expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'locale' });
      expect(error.message).toContain('got "not-a-locale"');
    }
    // The label is non-null, and so are `card` and `discount`: the campaign is null.
    expect(body.data).toEqual({ a: null, b: null });
  });
});

describe('Campaign.stats', () => {
  it('gives the counters of campaigns/info and rates derived from them', async () => {
    const { body } = await stack.gql(`{ campaign(id: "1") { stats { shows accepts redeems acceptRate redeemRate conversionRate approvalRate pins { unused total } leads { used approved declined } } } }`);
    expect(body.errors).toBeUndefined();
    const s = body.data.campaign.stats;
    expect(s).toMatchObject({ shows: 42, accepts: 2, redeems: 3, pins: { unused: 15, total: 20 }, leads: { used: 1, approved: 1, declined: 1 } });
    expect(s.acceptRate).toBeCloseTo(5 / 42, 12);
    expect(s.redeemRate).toBeCloseTo(3 / 42, 12);
    expect(s.conversionRate).toBeCloseTo(3 / 5, 12);
    expect(s.approvalRate).toBeCloseTo(1 / 3, 12);
  });

  it('answers null rates where the denominator is zero', async () => {
    const { body } = await stack.gql(`{ campaign(id: "4") { stats { shows accepts redeems acceptRate redeemRate conversionRate approvalRate } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.campaign.stats).toEqual({ shows: 0, accepts: 0, redeems: 0, acceptRate: null, redeemRate: null, conversionRate: null, approvalRate: null });
  });
});

describe('Campaign.pins', () => {
  it('pages through the pins of one status', async () => {
    const query = `query ($after: String) { campaign(id: "1") { pins(status: NEW_UNUSED, first: 6, after: $after) {
      totalCount nodes { code status } edges { cursor node { code } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const { body }: { body: any } = await stack.gql(query, { after });
      expect(body.errors).toBeUndefined();
      const pins: any = body.data.campaign.pins;
      expect(pins.totalCount).toBe(15);
      expect(pins.nodes.every((p: { status: string }) => p.status === 'NEW_UNUSED')).toBe(true);
      expect(pins.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual(pins.nodes.map((p: { code: string }) => p.code));
      expect(pins.pageInfo.hasPreviousPage).toBe(page > 0);
      seen.push(...pins.nodes.map((p: { code: string }) => p.code));
      if (!pins.pageInfo.hasNextPage) break;
      after = pins.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(15);
    expect(new Set(seen).size).toBe(15);
    expect(seen[0]).toBe('TECHNO-0006');
  });

  it('reads each status on its own, once per (campaign, status) in a request', async () => {
    const { body } = await stack.gql(`{ campaign(id: "1") {
      a: pins(status: ACCEPTED_BY_USER) { totalCount nodes { status } }
      b: pins(status: ACCEPTED_BY_USER, first: 1) { totalCount }
      r: pins(status: REDEEM_RECEIVED) { totalCount nodes { code status } } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.campaign.a.totalCount).toBe(2);
    expect(body.data.campaign.a.nodes.every((p: { status: string }) => p.status === 'ACCEPTED_BY_USER')).toBe(true);
    expect(body.data.campaign.b.totalCount).toBe(2);
    expect(body.data.campaign.r.totalCount).toBe(3);
    expect((await stack.calls())['campaigns/get-pins-by-status']).toBe(2);
  });

  it('refuses first beyond 1000, naming the argument', async () => {
    const { body } = await stack.gql(`{ campaign(id: "1") { id pins(status: NEW_UNUSED, first: 1001) { totalCount } } }`);
    expect(body.data.campaign).toEqual({ id: cid(1), pins: null });
    expect(body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'first' }, path: ['campaign', 'pins'] });
    expect(body.errors![0].message).toMatch(/"first" must be from 0 to 1000, got 1001/);
  });
});

describe('campaigns(first, after, withStatus)', () => {
  const PAGE = `query ($first: Int, $after: String, $status: CampaignStatusInput) {
    campaigns(first: $first, after: $after, withStatus: $status) {
      totalCount nodes { id status } edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

  it('pages through every campaign of the partner in id order', async () => {
    const ids: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const { body }: { body: any } = await stack.gql(PAGE, { first: 3, after });
      expect(body.errors).toBeUndefined();
      const c: any = body.data.campaigns;
      expect(c.totalCount).toBe(8);
      expect(c.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(c.nodes.map((n: { id: string }) => n.id));
      expect(c.pageInfo.startCursor).toBe(c.edges[0].cursor);
      expect(c.pageInfo.endCursor).toBe(c.edges.at(-1).cursor);
      expect(c.pageInfo.hasPreviousPage).toBe(pages > 0);
      ids.push(...c.nodes.map((n: { id: string }) => n.id));
      after = c.pageInfo.hasNextPage ? c.pageInfo.endCursor : null;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map(cid));
  });

  it('defaults to 20, allows 0 (only the total) and refuses more than 100, naming the argument', async () => {
    const all = await stack.gql(`{ campaigns { totalCount nodes { id } } }`);
    expect(all.body.data.campaigns.nodes).toHaveLength(8);
    const none = await stack.gql(PAGE, { first: 0 });
    expect(none.body.data.campaigns).toMatchObject({ totalCount: 8, nodes: [], edges: [], pageInfo: { hasNextPage: true, startCursor: null, endCursor: null } });
    const tooMany = await stack.gql(PAGE, { first: 101 });
    expect(tooMany.body.data).toEqual({ campaigns: null });
    expect(tooMany.body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'first' } });
    expect(tooMany.body.errors![0].message).toBe('Argument "first" must be from 0 to 100, got 101; read further pages with "after"');
    const negative = await stack.gql(PAGE, { first: -1 });
    expect(negative.body.errors![0].message).toContain('got -1');
  });

  it('refuses a cursor it did not make, naming the argument', async () => {
    for (const after of ['bogus', Buffer.from('offset:-3').toString('base64url'), Buffer.from('offset:01').toString('base64url')]) {
      const { body } = await stack.gql(PAGE, { after });
      expect(body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'after' } });
    }
    expect(await stack.calls()).toEqual({});
  });

  it('filters by status, counting and paging only the matching campaigns', async () => {
    const paused = await stack.gql(PAGE, { status: 'PAUSED' });
    expect(paused.body.errors).toBeUndefined();
    expect(paused.body.data.campaigns.totalCount).toBe(2);
    expect(paused.body.data.campaigns.nodes).toEqual([{ id: cid(2), status: 'PAUSED' }, { id: cid(8), status: 'PAUSED' }]);

    const first = await stack.gql(PAGE, { status: 'PAUSED', first: 1 });
    expect(first.body.data.campaigns.nodes).toEqual([{ id: cid(2), status: 'PAUSED' }]);
    expect(first.body.data.campaigns.pageInfo.hasNextPage).toBe(true);
    const second = await stack.gql(PAGE, { status: 'PAUSED', first: 1, after: first.body.data.campaigns.pageInfo.endCursor });
    expect(second.body.data.campaigns.nodes).toEqual([{ id: cid(8), status: 'PAUSED' }]);
    expect(second.body.data.campaigns.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    for (const [status, ids] of [['MODERATION', [4]], ['DECLINED', [5]], ['PIN_REQUIRED', [6]], ['FINISHED', [7]], ['STARTED', [1, 3]]] as const) {
      const { body } = await stack.gql(PAGE, { status });
      expect(body.data.campaigns.nodes.map((n: { id: string }) => n.id)).toEqual(ids.map(cid));
    }
  });

  it('offers no UNKNOWN to filter with; the deprecated status argument still filters, and not together with withStatus', async () => {
    const types = await stack.gql(`{
      withStatus: __type(name: "CampaignStatusInput") { enumValues { name } }
      output: __type(name: "CampaignStatus") { enumValues { name } }
      query: __type(name: "Query") { fields { name args(includeDeprecated: true) { name isDeprecated type { name } } } }
    }`);
    const statuses = ['MODERATION', 'DECLINED', 'PIN_REQUIRED', 'STARTED', 'PAUSED', 'FINISHED'];
    expect(types.body.data.withStatus.enumValues.map((v: { name: string }) => v.name)).toEqual(statuses);
    expect(types.body.data.output.enumValues.map((v: { name: string }) => v.name)).toEqual([...statuses, 'UNKNOWN']);
    const args = types.body.data.query.fields.find((f: { name: string }) => f.name === 'campaigns').args;
    expect(args.filter((a: { name: string }) => /status/i.test(a.name))).toEqual([
      { name: 'withStatus', isDeprecated: false, type: { name: 'CampaignStatusInput' } },
      { name: 'status', isDeprecated: true, type: { name: 'CampaignStatus' } },
    ]);

    const unknown = await stack.gql(`{ campaigns(withStatus: UNKNOWN) { totalCount } }`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0].message).toBe('Value "UNKNOWN" does not exist in "CampaignStatusInput" enum.');

    // Operations written before withStatus keep working, cursors included.
    const OLD = `query ($first: Int, $after: String, $status: CampaignStatus) { campaigns(first: $first, after: $after, status: $status) { nodes { id } pageInfo { endCursor } } }`;
    const old = await stack.gql(OLD, { status: 'PAUSED', first: 1 });
    expect(old.body.data.campaigns.nodes).toEqual([{ id: cid(2) }]);
    const next = await stack.gql(PAGE, { status: 'PAUSED', after: old.body.data.campaigns.pageInfo.endCursor });
    expect(next.body.data.campaigns.nodes).toEqual([{ id: cid(8), status: 'PAUSED' }]);

    const both = await stack.gql(`{ campaigns(withStatus: PAUSED, status: PAUSED) { totalCount } }`);
    expect(both.body.data).toEqual({ campaigns: null });
    expect(both.body.errors![0]).toMatchObject({
      message: 'Argument "status" cannot be given with `withStatus`, which replaces it; give `withStatus` alone',
      extensions: { code: 'BAD_USER_INPUT', argument: 'status' },
    });
  });
});

describe('campaignsByIds(ids)', () => {
  it('keeps the order asked, with null for ids the partner has no campaign with', async () => {
    const { body } = await stack.gql(`{ campaignsByIds(ids: ["3", "999", "1", "9", "x", "3"]) { id status merchant { name } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.campaignsByIds).toEqual([
      { id: cid(3), status: 'STARTED', merchant: { name: 'Свежие продукты' } },
      null,
      { id: cid(1), status: 'STARTED', merchant: { name: 'Техно Мир' } },
      null,
      null,
      { id: cid(3), status: 'STARTED', merchant: { name: 'Свежие продукты' } },
    ]);
  });

  it('refuses more than 100 ids, naming the argument', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1));
    const { body } = await stack.gql(`query ($ids: [ID!]!) { campaignsByIds(ids: $ids) { id } }`, { ids });
    expect(body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'ids' } });
    expect(body.errors![0].message).toContain('at most 100 ids, got 101');
    expect(await stack.calls()).toEqual({});
  });
});

describe('categories and category(id)', () => {
  it('lists the shared directory in id order, and finds one category', async () => {
    const { body } = await stack.gql(`{ categories { id name } category(id: "2") { id name } none: category(id: "4242") { id } junk: category(id: "x") { id } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.categories.length).toBeGreaterThanOrEqual(10);
    expect(body.data.categories[0]).toEqual({ id: '1', name: 'Продукты' });
    const ids = body.data.categories.map((c: { id: string }) => Number(c.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(body.data.category).toEqual({ id: '2', name: 'Электроника' });
    expect(body.data.none).toBeNull();
    expect(body.data.junk).toBeNull();
  });

  it('is the same directory for every partner', async () => {
    const store = await stack.gql(`{ categories { id name } }`);
    const aggregator = await stack.gql(`{ categories { id name } }`, {}, 'demo-aggregator-token');
    expect(aggregator.body.data).toEqual(store.body.data);
  });
});
