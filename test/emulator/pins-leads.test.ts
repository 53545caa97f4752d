import { describe, expect, it } from 'vitest';
import { AGGREGATOR, campaignBody, create, pins, reusableBody, startedCampaign, useEmulator } from './support.js';

describe('pins (design 4.10)', () => {
  const env = useEmulator();
  const list = (ymCampaignId: number, pinStatus: string) => env.client.ok('getPinsByStatus', { ymCampaignId, pinStatus }).then((r) => r.pins);

  it('add-pins answers the counters; duplicates in any case are not added twice, the first spelling is kept', async () => {
    const id = await create(env.client, campaignBody('codeOffline'));
    const first = await env.client.ok('addPins', { ymCampaignId: id, pinList: ['Abc-1', 'abc-2', 'ABC-1'] });
    expect(first).toEqual({ ymCampaignId: id, campaignStatus: 'moderation', counters: { unusedPinCount: 2, acceptedPinCount: 0, redeemedPinCount: 0, totalPinCount: 2 } });
    const second = await env.client.ok('addPins', { ymCampaignId: id, pinList: ['ABC-2', 'abc-3'] });
    expect(second.counters.totalPinCount).toBe(3);
    expect(await list(id, 'new_unused')).toEqual(['Abc-1', 'abc-2', 'abc-3']);
  });

  it('new_unused → accepted_by_user (a user takes it) → redeem_received (a lead)', async () => {
    const { id } = await startedCampaign(env.client, 'codeOnline', {}, 3);
    const taken = await env.client.adminOk('accept', { ymCampaignId: id });
    expect(taken).toEqual({ pin: `P${id}-0` });
    expect(await list(id, 'accepted_by_user')).toEqual([`P${id}-0`]);
    expect(await list(id, 'new_unused')).toEqual([`P${id}-1`, `P${id}-2`]);
    await env.client.ok('redeem', { ymCampaignId: id, pinContent: `p${id}-0`, transactionId: 'T-1', campaignFee: '10.00' });
    expect(await list(id, 'accepted_by_user')).toEqual([]);
    expect(await list(id, 'redeem_received')).toEqual([`P${id}-0`]);
    const info = await env.client.info(id);
    expect(info.campaignPinsStats).toEqual({ unused: 2, total: 3 });
    const counters = (await env.client.ok('addPins', { ymCampaignId: id, pinList: [`P${id}-0`] })).counters;
    expect(counters).toEqual({ unusedPinCount: 2, acceptedPinCount: 0, redeemedPinCount: 1, totalPinCount: 3 });
  });

  it('concurrent add-pins calls are each atomic: their answers read as one call after another', async () => {
    const id = await create(env.client, campaignBody('codeOffline'));
    // Overlapping sets, in other spellings, each with a pin of its own so every call raises the
    // total: each call's total is then the size of the union of the calls up to it.
    const sets = Array.from({ length: 6 }, (_, i) => [...pins(i % 2 ? 'c' : 'C', 9_999, i * 3000), `only-${i}`]);
    const answers = await Promise.all(sets.map((pinList) => env.client.ok('addPins', { ymCampaignId: id, pinList })));
    const order = answers.map((answer, i) => ({ total: answer.counters.totalPinCount as number, set: sets[i]! })).sort((a, b) => a.total - b.total);
    const seen = new Set<string>();
    for (const { total, set } of order) {
      for (const pin of set) seen.add(pin.toLowerCase());
      expect(total).toBe(seen.size);
    }
    expect((await env.client.info(id)).campaignPinsStats.total).toBe(24_999 + 6);
  });

  it('at most 10,000 pins per call; exactly 10,000 is fine', async () => {
    const id = await create(env.client, campaignBody('codeOffline'));
    const error = await env.client.fail('addPins', { ymCampaignId: id, pinList: pins('X', 10_001) }, 'incorrectData', 400);
    expect(error.errors.fields).toEqual([{ field: 'pinList', message: 'takes at most 10000 pins per call, got 10001; upload them in several calls' }]);
    expect((await env.client.ok('addPins', { ymCampaignId: id, pinList: pins('X', 10_000) })).counters.totalPinCount).toBe(10_000);
  });

  it('every bad pin is reported as pinList[i] and none of the call is added', async () => {
    const id = await create(env.client, campaignBody('codeOffline', { pinDisplayType: 'ean_13' }));
    const error = await env.client.fail('addPins', { ymCampaignId: id, pinList: ['4006381333931', '123', '4006381333948', 'ABCDEFGHIJKLM'] }, 'incorrectData', 400);
    expect(error.errors.fields!.map((f) => f.field)).toEqual(['pinList[1]', 'pinList[3]']);
    expect(error.errors.message).toBe('2 of 4 pins do not fit pinDisplayType ean_13; no pin was added');
    expect((await env.client.info(id)).campaignPinsStats.total).toBe(0);
  });

  it('text pins: not empty, no surrounding spaces, at most 255, no control characters; wrong types named', async () => {
    const id = await create(env.client, campaignBody('codeOffline'));
    const error = await env.client.fail('addPins', { ymCampaignId: id, pinList: ['ok', '', ' x', 'y'.repeat(256), 'a\nb', 'z'.repeat(255)] }, 'incorrectData', 400);
    expect(error.errors.fields!.map((f) => f.field)).toEqual(['pinList[1]', 'pinList[2]', 'pinList[3]', 'pinList[4]']);
    const types = await env.client.fail('addPins', { ymCampaignId: id, pinList: ['a', 7, null] }, 'incorrectData', 400);
    expect(types.errors.fields!.map((f) => f.field)).toEqual(['pinList[1]', 'pinList[2]']);
    await env.client.fail('addPins', { ymCampaignId: id, pinList: 'abc' }, 'incorrectData', 400);
    expect((await env.client.ok('addPins', { ymCampaignId: id, pinList: ['ok', 'z'.repeat(255)] })).counters.totalPinCount).toBe(2);
  });

  it('add-pins only for one-off code campaigns', async () => {
    for (const body of [campaignBody('promo'), campaignBody('banner'), reusableBody('codeOffline')]) {
      const id = await create(env.client, body);
      const error = await env.client.fail('addPins', { ymCampaignId: id, pinList: ['A'] }, 'incorrectData', 400);
      expect(error.errors.fields![0]!.field).toBe('pinList');
      expect(error.errors.message).toMatch(/^pinList takes pins only for campaignType codeOnline or codeOffline with pinType one-off; campaign \d+ is campaignType /);
    }
  });

  it('a million pins in chunks of 10,000 stay usable: info and accept answer fast', async () => {
    const id = await create(env.client, campaignBody('codeOffline'));
    for (let chunk = 0; chunk < 100; chunk++) {
      await env.client.ok('addPins', { ymCampaignId: id, pinList: pins(`M${chunk}-`, 10_000) });
    }
    await env.client.adminOk('moderate', { ymCampaignId: id, decision: 'approve' });
    const started = performance.now();
    const info = await env.client.info(id);
    const taken = await env.client.adminOk('accept', { ymCampaignId: id });
    const afterTake = await env.client.info(id);
    const elapsed = performance.now() - started;
    expect(info.campaignPinsStats).toEqual({ unused: 1_000_000, total: 1_000_000 });
    expect(taken).toEqual({ pin: 'M0-0' });
    expect(afterTake.campaignPinsStats.unused).toBe(999_999);
    expect(afterTake.campaignAccepts).toBe(1);
    // Budget 100 ms for three calls, plus a wide margin for a busy two-core CI machine.
    expect(elapsed).toBeLessThan(100 + 900);
    for (let i = 0; i < 200; i++) await env.client.adminOk('accept', { ymCampaignId: id });
    expect((await env.client.info(id)).campaignPinsStats.unused).toBe(1_000_000 - 201);
    expect((await env.client.ok('getPinsByStatus', { ymCampaignId: id, pinStatus: 'accepted_by_user' })).pins).toHaveLength(201);
    const dup = await env.client.ok('addPins', { ymCampaignId: id, pinList: ['m99-9999', 'NEW'] });
    expect(dup.counters.totalPinCount).toBe(1_000_001);
  }, 60_000);
});

describe('leads (design 4.11)', () => {
  const env = useEmulator();
  const lead = (ymCampaignId: number, extra: Record<string, unknown>) => ({ ymCampaignId, campaignFee: '25.50', orderAmount: '1000.00', ...extra });

  it('a one-off code campaign reports by pinContent, case-insensitive; the answer is processing', async () => {
    const { id } = await startedCampaign(env.client, 'codeOffline', {}, 2);
    const { pin } = await env.client.adminOk('accept', { ymCampaignId: id });
    const answer = await env.client.ok('redeem', lead(id, { pinContent: pin.toLowerCase(), transactionId: 'order-1' }));
    expect(answer).toEqual({ ymCampaignId: id, transactionId: 'order-1', state: 'processing' });
    const info = await env.client.info(id);
    expect(info).toMatchObject({ campaignAccepts: 0, campaignRedeems: 1, campaignRedeemStats: { usedCount: 1, approvedCount: 0, declinedCount: 0 } });
  });

  it('pinContent must be a pin of the campaign that a user took, and not redeemed yet', async () => {
    const { id } = await startedCampaign(env.client, 'codeOffline', {}, 3);
    const { pin } = await env.client.adminOk('accept', { ymCampaignId: id });
    const bad = async (pinContent: string | undefined, message: RegExp) => {
      const e = await env.client.fail('redeem', lead(id, { pinContent, transactionId: `t-${Math.random()}` }), 'incorrectData', 400);
      expect(e.errors.fields).toEqual([{ field: 'pinContent', message: expect.stringMatching(message) }]);
    };
    await bad(undefined, /^is required for campaignType codeOffline with pinType one-off/);
    await bad('NOT-A-PIN', /is not a pin of campaign/);
    await bad(`P${id}-2`, /has not been taken by a user yet/);
    await env.client.ok('redeem', lead(id, { pinContent: pin, transactionId: 'first' }));
    await bad(pin, /already redeemed in another transaction/);
  });

  it('click campaigns report by the clickId the accept issued', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    const taken = await env.client.adminOk('accept', { ymCampaignId: id });
    expect(taken).toEqual({ acceptUrl: `https://shop.example.ru/go?clickId=${taken.clickId}&viewId=${taken.viewId}`, clickId: `click-${id}-1`, viewId: `view-${id}-1` });
    await env.client.fail('redeem', lead(id, { transactionId: 'a' }), 'incorrectData', 400);
    const unknown = await env.client.fail('redeem', lead(id, { transactionId: 'a', clickId: 'click-0-0' }), 'incorrectData', 400);
    expect(unknown.errors.fields![0]).toEqual({ field: 'clickId', message: expect.stringMatching(/was not issued for campaign/) });
    await env.client.ok('redeem', lead(id, { transactionId: 'a', clickId: taken.clickId, viewId: taken.viewId, redeemStatus: 'approved' }));
    const reused = await env.client.fail('redeem', lead(id, { transactionId: 'b', clickId: taken.clickId }), 'incorrectData', 400);
    expect(reused.errors.fields![0]!.message).toBe('was already reported with transactionId "a"');
    expect((await env.client.info(id)).campaignRedeemStats).toEqual({ usedCount: 0, approvedCount: 1, declinedCount: 0 });
  });

  it('reusable code campaigns use clickId, and accept hands out the couponCode', async () => {
    const { id } = await startedCampaign(env.client, 'codeOffline', { pinType: 'reusable', couponCode: 'ЛЕТО2025' });
    const taken = await env.client.adminOk('accept', { ymCampaignId: id });
    expect(taken).toEqual({ clickId: `click-${id}-1`, viewId: `view-${id}-1`, couponCode: 'ЛЕТО2025' });
    await env.client.fail('redeem', lead(id, { transactionId: 'x', pinContent: 'ЛЕТО2025' }), 'incorrectData', 400);
    await env.client.ok('redeem', lead(id, { transactionId: 'x', clickId: taken.clickId }));
  });

  it('idempotent on transactionId; status moves used → approved → declined; nothing else', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    const clicks = [];
    for (let i = 0; i < 3; i++) clicks.push((await env.client.adminOk('accept', { ymCampaignId: id })).clickId);
    const report = (t: string, clickId: string, redeemStatus?: string) => lead(id, { transactionId: t, clickId, redeemStatus });
    await env.client.ok('redeem', report('t1', clicks[0]));
    await env.client.ok('redeem', report('t1', clicks[0]));
    await env.client.ok('redeem', report('t1', clicks[0], 'used'));
    expect((await env.client.info(id)).campaignRedeemStats).toEqual({ usedCount: 1, approvedCount: 0, declinedCount: 0 });
    await env.client.ok('redeem', report('t1', clicks[0], 'approved'));
    await env.client.ok('redeem', report('t1', clicks[0], 'approved'));
    const back = await env.client.fail('redeem', report('t1', clicks[0], 'used'), 'incorrectData', 400);
    expect(back.errors.fields).toEqual([{ field: 'redeemStatus', message: expect.stringMatching(/cannot move the lead of transactionId "t1" from redeemStatus approved to redeemStatus used/) }]);
    await env.client.ok('redeem', report('t1', clicks[0], 'declined'));
    await env.client.fail('redeem', report('t1', clicks[0], 'approved'), 'incorrectData', 400);
    await env.client.ok('redeem', report('t2', clicks[1]));
    await env.client.ok('redeem', report('t2', clicks[1], 'declined'));
    await env.client.fail('redeem', report('t2', clicks[1], 'used'), 'incorrectData', 400);
    const other = await env.client.fail('redeem', report('t2', clicks[2]), 'incorrectData', 400);
    expect(other.errors.fields![0]!.field).toBe('clickId');
    expect(await env.client.info(id)).toMatchObject({ campaignAccepts: 1, campaignRedeems: 2, campaignRedeemStats: { usedCount: 0, approvedCount: 0, declinedCount: 2 } });
  });

  it('the same transactionId with another pin → incorrectData naming pinContent', async () => {
    const { id } = await startedCampaign(env.client, 'codeOnline', {}, 3);
    const a = (await env.client.adminOk('accept', { ymCampaignId: id })).pin;
    const b = (await env.client.adminOk('accept', { ymCampaignId: id })).pin;
    await env.client.ok('redeem', lead(id, { transactionId: 'same', pinContent: a }));
    const e = await env.client.fail('redeem', lead(id, { transactionId: 'same', pinContent: b }), 'incorrectData', 400);
    expect(e.errors.fields![0]!.field).toBe('pinContent');
    await env.client.ok('redeem', lead(id, { transactionId: 'same', pinContent: a.toLowerCase(), redeemStatus: 'approved' }));
  });

  it('a repeat that differs in anything but an allowed redeemStatus move → incorrectData naming each field, nothing changed', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    const { clickId, viewId } = await env.client.adminOk('accept', { ymCampaignId: id });
    const first = lead(id, { transactionId: 'fee', clickId, viewId, redeemTime: '2026-03-01T12:00:00+03:00', bonusDescription: { category: 'обувь' } });
    await env.client.ok('redeem', first);
    const fee = await env.client.fail('redeem', { ...first, campaignFee: '99.00' }, 'incorrectData', 400);
    expect(fee.errors.fields).toEqual([
      { field: 'campaignFee', message: 'differs from the first report of transactionId "fee" ("25.50" then, "99.00" now); a report repeated with the same transactionId may change only redeemStatus (a field left out keeps its first value)' },
    ]);
    // Also together with an allowed status move: the move does not happen either.
    const several = await env.client.fail(
      'redeem',
      { ...first, redeemStatus: 'approved', orderAmount: '1', feeCurrency: 840, sceneRedeem: 'app', bonusDescription: { category: 'сумки' } },
      'incorrectData',
      400,
    );
    expect(several.errors.fields!.map((f) => f.field).sort()).toEqual(['bonusDescription.category', 'feeCurrency', 'orderAmount', 'sceneRedeem']);
    expect(several.errors.fields!.find((f) => f.field === 'orderAmount')!.message).toMatch(/^differs from the first report of transactionId "fee" \("1000.00" then, "1" now\)/);
    // A field the first report left out cannot be added by a repeat: that too would change the report.
    const added = await env.client.fail('redeem', { ...first, cashbackAmount: '5.00' }, 'incorrectData', 400);
    expect(added.errors.fields).toEqual([{ field: 'cashbackAmount', message: expect.stringMatching(/^differs from the first report of transactionId "fee" \(absent then, "5.00" now\)/) }]);
    expect((await env.client.info(id)).campaignRedeemStats).toEqual({ usedCount: 1, approvedCount: 0, declinedCount: 0 });
    // The same report written another way is the same report: amounts, instants, the default currency.
    await env.client.ok('redeem', { ...first, campaignFee: '25.5', orderAmount: '1000', redeemTime: '2026-03-01T09:00:00Z', feeCurrency: 643, redeemStatus: 'approved' });
    expect((await env.client.info(id)).campaignRedeemStats).toEqual({ usedCount: 0, approvedCount: 1, declinedCount: 0 });
  });

  it('a repeat that leaves optional fields out keeps the first report\'s values and moves the status', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    const { clickId, viewId } = await env.client.adminOk('accept', { ymCampaignId: id });
    const first = lead(id, {
      transactionId: 'short', clickId, viewId, orderCurrency: 840, feeCurrency: 643, cashbackAmount: '3.00',
      redeemTime: '2026-03-01T12:00:00+03:00', sceneRedeem: 'app', bonusDescription: { category: 'обувь' },
    });
    await env.client.ok('redeem', first);
    // Only the keys, the fee the contract requires and the new status.
    await env.client.ok('redeem', { ymCampaignId: id, clickId, transactionId: 'short', campaignFee: first.campaignFee, redeemStatus: 'approved' });
    expect((await env.client.info(id)).campaignRedeemStats).toEqual({ usedCount: 0, approvedCount: 1, declinedCount: 0 });
    // The first report's values are still what the lead holds: a repeat stating one of them another way conflicts.
    const differs = await env.client.fail('redeem', { ymCampaignId: id, clickId, transactionId: 'short', campaignFee: first.campaignFee, orderCurrency: 643 }, 'incorrectData', 400);
    expect(differs.errors.fields).toEqual([{ field: 'orderCurrency', message: expect.stringMatching(/^differs from the first report of transactionId "short"/) }]);
    await env.client.ok('redeem', { ...first, redeemStatus: 'declined' });
    expect((await env.client.info(id)).campaignRedeemStats).toEqual({ usedCount: 0, approvedCount: 0, declinedCount: 1 });
  });

  it('field rules of a lead: transactionId ≤ 36, money with two decimals, currencies, datetime', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    const { clickId } = await env.client.adminOk('accept', { ymCampaignId: id });
    const e = await env.client.fail(
      'redeem',
      { ymCampaignId: id, clickId, transactionId: 'x'.repeat(37), campaignFee: '1.234', orderAmount: '-5', orderCurrency: 978, redeemTime: 'yesterday', cashbackAmount: 'lots' },
      'incorrectData',
      400,
    );
    expect(e.errors.fields!.map((f) => f.field).sort()).toEqual(['campaignFee', 'cashbackAmount', 'orderAmount', 'orderCurrency', 'redeemTime', 'transactionId']);
    const missing = await env.client.fail('redeem', { ymCampaignId: id, clickId }, 'incorrectData', 400);
    expect(missing.errors.fields!.map((f) => f.field).sort()).toEqual(['campaignFee', 'transactionId']);
    await env.client.ok('redeem', {
      ymCampaignId: id, clickId, transactionId: 'x'.repeat(36), campaignFee: '1.23', orderAmount: '5', orderCurrency: 840, feeCurrency: 643,
      redeemTime: '2025-01-01T10:00:00+03:00', cashbackAmount: '0.50', sceneRedeem: 'app', bonusDescription: { category: 'обувь' },
    });
  });

  it('leads are accepted after the campaign stopped (issued offers stay valid)', async () => {
    const { id } = await startedCampaign(env.client, 'banner');
    const { clickId } = await env.client.adminOk('accept', { ymCampaignId: id });
    await env.client.ok('stop', { ymCampaignId: id });
    await env.client.ok('redeem', lead(id, { transactionId: 'late', clickId }));
  });

  it("another partner's campaign → campaignNotFound", async () => {
    await env.client.fail('redeem', lead(1, { transactionId: 'x', pinContent: 'TECHNO-0004' }), 'campaignNotFound', 404, AGGREGATOR);
  });
});
