import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/emulator/index.js';
import { AGGREGATOR, DAY, STORE, campaignBody, create, startedCampaign, useEmulator } from './support.js';

describe('admin API under /_emulator/', () => {
  const env = useEmulator();

  it('reset brings back the fixtures, ids, clock and policy', async () => {
    await create(env.client, campaignBody('promo'));
    await env.client.advance(5 * DAY);
    await env.client.adminOk('moderation', { mode: 'auto', delayMs: 5 });
    const answer = await env.client.adminOk('reset');
    expect(answer).toEqual({ reset: true, campaigns: 15 });
    expect((await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 })).total).toBe(8);
    expect(await create(env.client, campaignBody('promo'))).toBe(16);
    expect((await env.client.adminOk('clock', undefined, 'GET')).offsetMs).toBe(0);
    expect(await env.client.adminOk('moderation', undefined, 'GET')).toEqual({ mode: 'manual', delayMs: 1500 });
  });

  it('moderation policy: validated, GET reads it back', async () => {
    expect(await env.client.adminOk('moderation', { mode: 'auto', delayMs: 100 })).toEqual({ mode: 'auto', delayMs: 100 });
    expect(await env.client.adminOk('moderation', undefined, 'GET')).toEqual({ mode: 'auto', delayMs: 100 });
    const bad = await env.client.admin('moderation', { mode: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^mode: /);
    expect((await env.client.admin('moderation', { mode: 'auto', delayMs: -1 })).status).toBe(400);
  });

  it('moderate: approve, decline with a reason, 404 for an unknown id, 409 when not pending, 400 for a bad decision', async () => {
    const id = await create(env.client, campaignBody('promo'));
    expect(await env.client.adminOk('moderate', { ymCampaignId: id, decision: 'approve' })).toEqual({ ymCampaignId: id, campaignStatus: 'started', verdict: 'approved' });
    expect((await env.client.admin('moderate', { ymCampaignId: id, decision: 'decline' })).status).toBe(409);
    expect((await env.client.admin('moderate', { ymCampaignId: 9999, decision: 'approve' })).status).toBe(404);
    const bad = await env.client.admin('moderate', { ymCampaignId: id, decision: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/decision/);
    const other = await create(env.client, campaignBody('promo'));
    expect(await env.client.adminOk('moderate', { ymCampaignId: other, decision: 'decline', reason: 'Нет' })).toMatchObject({ campaignStatus: 'declined' });
  });

  it('clock: advanceMs or now, forward only, GET reads it', async () => {
    const before = await env.client.now();
    const moved = await env.client.adminOk('clock', { advanceMs: DAY });
    expect(Date.parse(moved.now) - before).toBeGreaterThanOrEqual(DAY);
    expect(moved.offsetMs).toBeGreaterThanOrEqual(DAY);
    const target = new Date(before + 10 * DAY).toISOString();
    const jumped = await env.client.adminOk('clock', { now: target });
    expect(Date.parse(jumped.now)).toBeGreaterThanOrEqual(Date.parse(target));
    const back = await env.client.admin('clock', { now: new Date(before).toISOString() });
    expect(back.status).toBe(409);
    expect(back.body.error).toMatch(/only moves forward/);
    expect((await env.client.admin('clock', { advanceMs: -5 })).status).toBe(400);
    expect((await env.client.admin('clock', { advanceMS: 5 })).status).toBe(400);
    expect((await env.client.admin('clock', {})).status).toBe(400);
  });

  it('show counts views of a started campaign; 409 for one users cannot see', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    expect(await env.client.adminOk('show', { ymCampaignId: id })).toEqual({ ymCampaignId: id, campaignShows: 1 });
    await env.client.adminOk('show', { ymCampaignId: id });
    expect((await env.client.info(id)).campaignShows).toBe(2);
    const paused = await env.client.admin('show', { ymCampaignId: 2 });
    expect(paused.status).toBe(409);
    expect(paused.body.error).toMatch(/campaign 2 is paused/);
    expect((await env.client.admin('show', { ymCampaignId: 12345 })).status).toBe(404);
    expect((await env.client.admin('show', { ymCampaignId: 'x' })).status).toBe(400);
  });

  it('accept: a pin for one-off campaigns, a tracked URL for the others; accepts count until redeemed', async () => {
    const { id } = await startedCampaign(env.client, 'codeOnline', {}, 1);
    expect(await env.client.adminOk('accept', { ymCampaignId: id })).toEqual({ pin: `P${id}-0` });
    const none = await env.client.admin('accept', { ymCampaignId: id });
    expect(none.status).toBe(409); // pin-required now
    const banner = await startedCampaign(env.client, 'banner', { acceptUrl: 'https://shop.example.ru/go?utm=1' });
    const taken = await env.client.adminOk('accept', { ymCampaignId: banner.id });
    expect(new URL(taken.acceptUrl).searchParams.get('utm')).toBe('1');
    expect(new URL(taken.acceptUrl).searchParams.get('clickId')).toBe(taken.clickId);
    expect(new URL(taken.acceptUrl).searchParams.get('viewId')).toBe(taken.viewId);
    expect((await env.client.info(banner.id)).campaignAccepts).toBe(1);
  });

  it('calls: counted per operation path, before anything else; DELETE clears', async () => {
    await env.client.call('get', { ymCampaignId: 1 });
    await env.client.call('get', { ymCampaignId: 99999 });
    await env.client.raw('/v1/campaigns/get', { body: '{}' }); // no token: still a call
    await env.client.call('getCategories');
    expect(await env.client.adminOk('calls', undefined, 'GET')).toEqual({ calls: { 'campaigns/get': 3, 'categories/get': 1 } });
    expect(await env.client.adminOk('calls', undefined, 'DELETE')).toEqual({ calls: {} });
    expect(await env.client.adminOk('calls', undefined, 'GET')).toEqual({ calls: {} });
  });

  it('requests: the last calls with the traceparent each carried, oldest first; DELETE clears', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await env.client.raw('/v1/campaigns/get', { body: '{"ymCampaignId":1}', headers: { authorization: `Bearer ${STORE}`, traceparent } });
    await env.client.call('getCategories');
    const { requests } = await env.client.adminOk('requests', undefined, 'GET');
    expect(requests.map((r: { operation: string; traceparent: string | null }) => [r.operation, r.traceparent])).toEqual([
      ['campaigns/get', traceparent],
      ['categories/get', null],
    ]);
    expect(requests[0].headers).toEqual(expect.arrayContaining(['authorization', 'traceparent', 'content-type']));
    expect(requests[1].headers).not.toContain('traceparent');
    expect(Date.parse(requests[0].at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await env.client.adminOk('requests', undefined, 'DELETE')).toEqual({ requests: [] });
    expect(await env.client.adminOk('requests', undefined, 'GET')).toEqual({ requests: [] });
  });

  it('partners: register another store or aggregator; its campaigns are its own', async () => {
    expect(await env.client.adminOk('partners', { token: 'second-store-token', kind: 'store' })).toEqual({ registered: true, kind: 'store' });
    expect((await env.client.admin('partners', { token: 'second-store-token', kind: 'aggregator' })).status).toBe(409);
    expect((await env.client.admin('partners', { token: 'short', kind: 'store' })).status).toBe(400);
    expect(await env.client.ok('getAllCampaigns', { limit: 10, offset: 0 }, 'second-store-token')).toEqual({ status: 'success', total: 0, campaigns: [] });
    const id = await create(env.client, campaignBody('promo'), 'second-store-token');
    await env.client.fail('get', { ymCampaignId: id }, 'campaignNotFound', 404, STORE);
    // Registered partners outlive a reset, without their campaigns.
    await env.client.adminOk('reset');
    expect((await env.client.ok('getAllCampaigns', { limit: 10, offset: 0 }, 'second-store-token')).total).toBe(0);
  });

  it('unknown routes → 404, wrong methods → 405 with Allow, bad JSON → 400, all as {error}', async () => {
    const unknown = await env.client.admin('teleport', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/\/_emulator\/reset/);
    const method = await env.client.admin('reset', undefined, 'GET');
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
    const json = await env.client.raw('/_emulator/moderate', { body: '{"ymCampaignId":' });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatch(/not valid JSON/);
  });
});

describe('fixtures', () => {
  const env = useEmulator();

  it('a directory of at least 10 categories with Russian names', async () => {
    const { categories } = await env.client.ok('getCategories');
    expect(categories).toEqual(CATEGORIES);
    expect(categories.length).toBeGreaterThanOrEqual(10);
    for (const c of categories) expect(c.categoryName).toMatch(/^[А-ЯЁ][а-яё ,]+$/);
  });

  it.each([
    ['store', STORE],
    ['aggregator', AGGREGATOR],
  ])('the %s has every status and every campaign type, with non-zero statistics', async (_name, token) => {
    const { campaigns } = await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 }, token);
    const statuses = new Set(campaigns.map((c: any) => c.campaignStatus));
    expect([...statuses].sort()).toEqual(['declined', 'finished', 'moderation', 'paused', 'pin-required', 'started']);
    const details = await Promise.all(campaigns.map((c: any) => env.client.ok('get', { ymCampaignId: c.ymCampaignId }, token)));
    expect(new Set(details.map((d) => d.campaignType))).toEqual(new Set(['codeOnline', 'codeOffline', 'promo', 'banner']));
    expect(details.some((d) => d.pinType === 'one-off')).toBe(true);
    expect(details.some((d) => d.pinType === 'reusable')).toBe(true);
    const infos = await Promise.all(campaigns.map((c: any) => env.client.info(c.ymCampaignId, token)));
    const sum = (f: (i: any) => number) => infos.reduce((n, i) => n + f(i), 0);
    expect(sum((i) => i.campaignShows)).toBeGreaterThan(0);
    expect(sum((i) => i.campaignAccepts)).toBeGreaterThan(0);
    expect(sum((i) => i.campaignRedeems)).toBeGreaterThan(0);
    expect(sum((i) => i.campaignPinsStats.total)).toBeGreaterThan(0);
    expect(sum((i) => i.campaignRedeemStats.approvedCount)).toBeGreaterThan(0);
  });

  it('statistics agree with the pins: accepted + redeemed + unused = total', async () => {
    for (const [id, token] of [[1, STORE], [6, STORE], [9, AGGREGATOR], [14, AGGREGATOR]] as const) {
      const info = await env.client.info(id, token);
      const counts = await Promise.all(['new_unused', 'accepted_by_user', 'redeem_received'].map((pinStatus) => env.client.ok('getPinsByStatus', { ymCampaignId: id, pinStatus }, token)));
      const [unused, accepted, redeemed] = counts.map((c) => c.pins.length) as [number, number, number];
      expect(unused).toBe(info.campaignPinsStats.unused);
      expect(unused + accepted + redeemed).toBe(info.campaignPinsStats.total);
      expect(accepted).toBe(info.campaignAccepts);
      expect(redeemed).toBe(info.campaignRedeems);
    }
  });

  it('the same fixtures on every start', async () => {
    const first = await env.client.ok('get', { ymCampaignId: 3 });
    await env.client.adminOk('reset');
    expect(await env.client.ok('get', { ymCampaignId: 3 })).toEqual(first);
  });
});

describe('get-all-campaigns paging and ownership', () => {
  const env = useEmulator();

  it('limit 1..100 and offset ≥ 0, ordered by ymCampaignId, total of the partner', async () => {
    for (let i = 0; i < 5; i++) await create(env.client, campaignBody('promo'));
    const all = await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 });
    expect(all.total).toBe(13);
    const ids = all.campaigns.map((c: any) => c.ymCampaignId);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 16, 17, 18, 19, 20]);
    const pages = [];
    for (let offset = 0; offset < 13; offset += 5) pages.push(...(await env.client.ok('getAllCampaigns', { limit: 5, offset })).campaigns);
    expect(pages).toEqual(all.campaigns);
    expect(await env.client.ok('getAllCampaigns', { limit: 5, offset: 13 })).toEqual({ status: 'success', total: 13, campaigns: [] });
    expect((await env.client.ok('getAllCampaigns', { limit: 1, offset: 12 })).campaigns).toEqual([{ ymCampaignId: 20, campaignStatus: 'moderation' }]);
    for (const bad of [{ limit: 101, offset: 0 }, { limit: 0, offset: 0 }, { limit: 10, offset: -1 }, { limit: 2.5, offset: 0 }, { limit: 10 }, { offset: 0 }]) {
      const e = await env.client.fail('getAllCampaigns', bad, 'incorrectData', 400);
      expect(e.errors.fields!.length, JSON.stringify(bad)).toBe(1);
    }
    await env.client.ok('getAllCampaigns', { limit: 100, offset: 1000 });
  });

  it("every operation on another partner's campaign: campaignNotFound, except stop → failMerchant", async () => {
    const { id, body } = await startedCampaign(env.client, 'codeOffline', {}, 2, AGGREGATOR);
    const ops = [
      ['get', { ymCampaignId: id }],
      ['info', { ymCampaignId: id }],
      ['start', { ymCampaignId: id }],
      ['addPins', { ymCampaignId: id, pinList: ['A'] }],
      ['redeem', { ymCampaignId: id, pinContent: `P${id}-0`, transactionId: 't', campaignFee: '1' }],
      ['getPinsByStatus', { ymCampaignId: id, pinStatus: 'new_unused' }],
    ] as const;
    for (const [op, request] of ops) await env.client.fail(op, request, 'campaignNotFound', 404, STORE);
    await env.client.fail('update', { partnerCampaignId: body.partnerCampaignId, merchantName: 'Чужой' }, 'campaignNotFound', 404, STORE);
    await env.client.fail('stop', { ymCampaignId: id }, 'failMerchant', 403, STORE);
    expect((await env.client.info(id, AGGREGATOR)).campaignPinsStats.total).toBe(2);
    expect(await env.client.status(id, AGGREGATOR)).toBe('started');
  });
});
