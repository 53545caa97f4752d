import { describe, expect, it } from 'vitest';
import { AGGREGATOR, DAY, STORE, approve, campaignBody, create, isoIn, pins, startedCampaign, useEmulator } from './support.js';

/**
 * The emulator clock is real time plus an offset, so real milliseconds pass between calls:
 * tests step the clock in multiples of a minute, far beyond how long a test runs.
 */
const MARGIN = 60_000;
const DELAY = 10 * MARGIN;

/** Every row of the reference's transition table (section 3) with design 4.2-4.6. */
describe('campaign state machine', () => {
  const env = useEmulator();

  it('(none) → create → moderation, with a new ymCampaignId from one global counter', async () => {
    const a = await env.client.ok('create', campaignBody('promo'));
    const b = await env.client.ok('create', campaignBody('promo'), AGGREGATOR);
    expect(a.campaignStatus).toBe('moderation');
    expect(a.ymCampaignId).toBe(16); // the fixtures hold 1..15
    expect(b.ymCampaignId).toBe(a.ymCampaignId + 1);
  });

  it("an aggregator's campaign without campaignStart goes live at upload, still pending moderation", async () => {
    const promo = await env.client.ok('create', campaignBody('promo'), AGGREGATOR);
    expect(promo.campaignStatus).toBe('started');
    const oneOff = await env.client.ok('create', campaignBody('codeOffline'), AGGREGATOR);
    expect(oneOff.campaignStatus).toBe('pin-required');
    const later = await env.client.ok('create', campaignBody('promo', { campaignStart: isoIn(await env.client.now(), DAY) }), AGGREGATOR);
    expect(later.campaignStatus).toBe('moderation');
    // Approval keeps the live one running; a decline takes it down.
    await approve(env.client, promo.ymCampaignId);
    expect(await env.client.status(promo.ymCampaignId, AGGREGATOR)).toBe('started');
    const other = await create(env.client, campaignBody('banner'), AGGREGATOR);
    await env.client.adminOk('moderate', { ymCampaignId: other, decision: 'decline', reason: 'плохой баннер' });
    expect(await env.client.status(other, AGGREGATOR)).toBe('declined');
  });

  it('moderation → approved → verified: a store campaign without campaignStart starts at once', async () => {
    const id = await create(env.client, campaignBody('promo'));
    await approve(env.client, id);
    expect(await env.client.status(id)).toBe('started');
  });

  it('moderation → approved with campaignStart ahead → reads paused, then starts on schedule', async () => {
    const now = await env.client.now();
    const id = await create(env.client, campaignBody('banner', { campaignStart: isoIn(now, 2 * DAY) }));
    await approve(env.client, id);
    expect(await env.client.status(id)).toBe('paused');
    await env.client.advance(2 * DAY - 60_000);
    expect(await env.client.status(id)).toBe('paused');
    await env.client.advance(60_000);
    expect(await env.client.status(id)).toBe('started');
  });

  it('verified (scheduled) → campaigns/start → started before its start date', async () => {
    const id = await create(env.client, campaignBody('promo', { campaignStart: isoIn(await env.client.now(), DAY) }));
    await approve(env.client, id);
    expect((await env.client.ok('start', { ymCampaignId: id })).campaignStatus).toBe('started');
    await env.client.advance(2 * DAY);
    expect(await env.client.status(id)).toBe('started');
  });

  it('approval with campaignStart already passed starts the campaign', async () => {
    const now = await env.client.now();
    const id = await create(env.client, campaignBody('promo', { campaignStart: isoIn(now, -DAY) }));
    await approve(env.client, id);
    expect(await env.client.status(id)).toBe('started');
  });

  it('moderation → rejected → declined; update → moderation with the data replaced', async () => {
    const body = campaignBody('promo');
    const id = await create(env.client, body);
    await env.client.adminOk('moderate', { ymCampaignId: id, decision: 'decline', reason: 'нет логотипа' });
    expect(await env.client.status(id)).toBe('declined');
    const updated = await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, description: 'Новое описание' });
    expect(updated).toEqual({ ymCampaignId: id, campaignStatus: 'moderation' });
    expect((await env.client.ok('get', { ymCampaignId: id })).description).toBe('Новое описание');
  });

  it.each(['started', 'paused', 'pin-required', 'moderation', 'declined'] as const)('any existing (%s) → update → moderation', async (from) => {
    const { id, body } = await startedCampaign(env.client, 'codeOnline', {}, 1);
    if (from === 'paused') await env.client.ok('stop', { ymCampaignId: id });
    if (from === 'pin-required') await env.client.adminOk('accept', { ymCampaignId: id });
    if (from === 'moderation') await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, merchantName: 'Другой' });
    if (from === 'declined') {
      await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, merchantName: 'Другой' });
      await env.client.adminOk('moderate', { ymCampaignId: id, decision: 'decline' });
    }
    expect(await env.client.status(id)).toBe(from);
    const answer = await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, conditions: 'Новые условия акции' });
    expect(answer.campaignStatus).toBe('moderation');
    expect((await env.client.ok('get', { ymCampaignId: id })).conditions).toBe('Новые условия акции');
  });

  it('finished → update with a later campaignEnd → moderation, and runs again once approved', async () => {
    const now = await env.client.now();
    const { id, body } = await startedCampaign(env.client, 'promo', { campaignEnd: isoIn(now, DAY) });
    await env.client.advance(DAY);
    expect(await env.client.status(id)).toBe('finished');
    // Without an end in the future it stays finished, and the refusal says so rather than blaming
    // a campaignEnd the caller did not send.
    const key = { partnerCampaignId: body.partnerCampaignId };
    const refused = await env.client.fail('update', { ...key, description: 'Снова в строю' }, 'failFinished', 409);
    expect(refused.errors.message).toBe(`campaign ${id} is finished (its campaignEnd has passed); an update revives it only together with a campaignEnd in the future`);
    expect(refused.errors.fields).toBeUndefined();
    expect(refused.result).toEqual({ ymCampaignId: id, campaignStatus: 'finished' });
    await env.client.fail('update', { ...key, campaignEnd: null }, 'failFinished', 409);
    await env.client.fail('update', { ...key, campaignEnd: isoIn(now, DAY / 2) }, 'failFinished', 409);
    const badEnd = await env.client.fail('update', { ...key, campaignEnd: 'soon' }, 'incorrectData', 400);
    expect(badEnd.errors.fields!.map((f) => f.field)).toEqual(['campaignEnd']);
    expect(await env.client.status(id)).toBe('finished');
    const later = isoIn(now, 10 * DAY);
    expect((await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, campaignEnd: later })).campaignStatus).toBe('moderation');
    await approve(env.client, id);
    expect(await env.client.status(id)).toBe('started');
  });

  it('create again with the same partnerCampaignId and discount: data replaced, stopped, sent to moderation', async () => {
    const { id, body } = await startedCampaign(env.client, 'promo');
    const again = await env.client.ok('create', { ...body, merchantName: 'Магазин 2' });
    expect(again).toEqual({ ymCampaignId: id, campaignStatus: 'moderation' });
    expect((await env.client.ok('get', { ymCampaignId: id })).merchantName).toBe('Магазин 2');
    expect((await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 })).total).toBe(9);
  });

  it('create again with another discountAmount → repeatCampaignData, nothing changes', async () => {
    const { id, body } = await startedCampaign(env.client, 'promo');
    const error = await env.client.fail('create', { ...body, discountAmount: '20', merchantName: 'Иной' }, 'repeatCampaignData', 400);
    expect(error.errors.message).toMatch(/discountAmount "10", got "20"/);
    expect(await env.client.status(id)).toBe('started');
    expect((await env.client.ok('get', { ymCampaignId: id })).merchantName).toBe('Магазин');
  });

  it('the same partnerCampaignId at another partner is a separate campaign', async () => {
    const body = campaignBody('promo');
    const mine = await create(env.client, body);
    const theirs = await create(env.client, { ...body, discountAmount: '50' }, AGGREGATOR);
    expect(theirs).not.toBe(mine);
  });

  it('verified → start time reached with a one-off code campaign without pins → pin-required, add-pins starts it', async () => {
    const now = await env.client.now();
    const id = await create(env.client, campaignBody('codeOnline', { campaignStart: isoIn(now, DAY) }));
    await approve(env.client, id);
    expect(await env.client.status(id)).toBe('paused');
    await env.client.advance(DAY);
    expect(await env.client.status(id)).toBe('pin-required');
    const added = await env.client.ok('addPins', { ymCampaignId: id, pinList: ['A1', 'A2'] });
    expect(added.campaignStatus).toBe('started');
  });

  it('approval of a one-off code campaign without pins → pin-required (store, no campaignStart)', async () => {
    const id = await create(env.client, campaignBody('codeOffline'));
    await approve(env.client, id);
    expect(await env.client.status(id)).toBe('pin-required');
  });

  it('campaigns/start on a one-off code campaign without unused pins → failPin, status unchanged', async () => {
    const id = await create(env.client, campaignBody('codeOnline', { campaignStart: isoIn(await env.client.now(), DAY) }));
    await approve(env.client, id);
    const error = await env.client.fail('start', { ymCampaignId: id }, 'failPin', 409);
    expect(error.result).toEqual({ ymCampaignId: id, campaignStatus: 'paused' });
    await env.client.ok('addPins', { ymCampaignId: id, pinList: ['X1'] });
    expect((await env.client.ok('start', { ymCampaignId: id })).campaignStatus).toBe('started');
  });

  it('started → the last unused pin is taken → pin-required; add-pins → started', async () => {
    const { id } = await startedCampaign(env.client, 'codeOffline', {}, 2);
    await env.client.adminOk('accept', { ymCampaignId: id });
    expect(await env.client.status(id)).toBe('started');
    await env.client.adminOk('accept', { ymCampaignId: id });
    expect(await env.client.status(id)).toBe('pin-required');
    const error = await env.client.fail('start', { ymCampaignId: id }, 'failPin', 409);
    expect(error.result?.campaignStatus).toBe('pin-required');
    expect((await env.client.ok('addPins', { ymCampaignId: id, pinList: ['NEW-1'] })).campaignStatus).toBe('started');
  });

  it('pin-required → stop → paused; add-pins then leaves it paused', async () => {
    const { id } = await startedCampaign(env.client, 'codeOffline', {}, 1);
    await env.client.adminOk('accept', { ymCampaignId: id });
    await env.client.ok('stop', { ymCampaignId: id });
    expect((await env.client.ok('addPins', { ymCampaignId: id, pinList: ['Z'] })).campaignStatus).toBe('paused');
  });

  it('paused → start → started; started → stop → paused (with errors: {} in the success)', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    const stop = await env.client.call('stop', { ymCampaignId: id });
    expect(stop.body).toEqual({ status: 'success', errors: {}, result: { ymCampaignId: id, campaignStatus: 'paused' } });
    expect((await env.client.ok('start', { ymCampaignId: id })).campaignStatus).toBe('started');
    expect((await env.client.ok('start', { ymCampaignId: id })).campaignStatus).toBe('started');
  });

  it('a paused campaign waiting for its start date stays paused after stop', async () => {
    const now = await env.client.now();
    const id = await create(env.client, campaignBody('promo', { campaignStart: isoIn(now, DAY) }));
    await approve(env.client, id);
    await env.client.ok('stop', { ymCampaignId: id });
    await env.client.advance(2 * DAY);
    expect(await env.client.status(id)).toBe('paused');
  });

  it('stop on another partner\'s campaign → failMerchant with its current status', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    const error = await env.client.fail('stop', { ymCampaignId: id }, 'failMerchant', 403, AGGREGATOR);
    expect(error.result).toEqual({ ymCampaignId: id, campaignStatus: 'started' });
    expect(await env.client.status(id)).toBe('started');
  });

  it('stop during moderation keeps moderation; the approval then leaves it paused', async () => {
    const id = await create(env.client, campaignBody('promo'));
    expect((await env.client.ok('stop', { ymCampaignId: id })).campaignStatus).toBe('moderation');
    await approve(env.client, id);
    expect(await env.client.status(id)).toBe('paused');
  });

  it.each(['started', 'paused', 'moderation', 'pin-required'] as const)('%s → campaignEnd passes → finished', async (from) => {
    const now = await env.client.now();
    const end = { campaignEnd: isoIn(now, DAY) };
    let id: number;
    if (from === 'moderation') id = await create(env.client, campaignBody('promo', end));
    else {
      id = (await startedCampaign(env.client, 'codeOnline', end, 1)).id;
      if (from === 'paused') await env.client.ok('stop', { ymCampaignId: id });
      if (from === 'pin-required') await env.client.adminOk('accept', { ymCampaignId: id });
    }
    expect(await env.client.status(id)).toBe(from);
    await env.client.advance(DAY - MARGIN);
    expect(await env.client.status(id)).toBe(from);
    await env.client.advance(MARGIN);
    expect(await env.client.status(id)).toBe('finished');
  });

  it('finished: start and stop → failFinished with the status', async () => {
    const now = await env.client.now();
    const { id } = await startedCampaign(env.client, 'promo', { campaignEnd: isoIn(now, DAY) });
    await env.client.adminOk('clock', { now: isoIn(now, 2 * DAY) });
    for (const op of ['start', 'stop'] as const) {
      const error = await env.client.fail(op, { ymCampaignId: id }, 'failFinished', 409);
      expect(error.result).toEqual({ ymCampaignId: id, campaignStatus: 'finished' });
    }
  });

  it('start on moderation or declined → failModerator', async () => {
    const id = await create(env.client, campaignBody('promo'));
    expect((await env.client.fail('start', { ymCampaignId: id }, 'failModerator', 409)).result?.campaignStatus).toBe('moderation');
    await env.client.adminOk('moderate', { ymCampaignId: id, decision: 'decline' });
    expect((await env.client.fail('start', { ymCampaignId: id }, 'failModerator', 409)).result?.campaignStatus).toBe('declined');
  });

  it('events due together apply in time order: approval, then start, then end', async () => {
    await env.client.adminOk('moderation', { mode: 'auto', delayMs: 10 * MARGIN });
    const now = await env.client.now();
    const id = await create(env.client, campaignBody('promo', { campaignStart: isoIn(now, 20 * MARGIN), campaignEnd: isoIn(now, 30 * MARGIN) }));
    await env.client.advance(25 * MARGIN);
    expect(await env.client.status(id)).toBe('started');
    await env.client.advance(5 * MARGIN);
    expect(await env.client.status(id)).toBe('finished');
  });
});

describe('moderation policy', () => {
  const env = useEmulator({ moderation: { mode: 'auto', delayMs: DELAY } });

  it('auto mode approves after its delay on the emulator clock', async () => {
    const id = await create(env.client, campaignBody('promo'));
    await env.client.advance(DELAY - MARGIN);
    expect(await env.client.status(id)).toBe('moderation');
    await env.client.advance(MARGIN);
    expect(await env.client.status(id)).toBe('started');
  });

  it('manual decisions are allowed in auto mode, and a decided campaign cannot be decided again', async () => {
    const id = await create(env.client, campaignBody('promo'));
    await env.client.adminOk('moderate', { ymCampaignId: id, decision: 'decline' });
    await env.client.advance(2 * DELAY);
    expect(await env.client.status(id)).toBe('declined');
    const again = await env.client.admin('moderate', { ymCampaignId: id, decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already declined/);
  });

  it('manual mode waits for a decision; switching back to auto schedules what is pending', async () => {
    expect(await env.client.adminOk('moderation', { mode: 'manual' })).toEqual({ mode: 'manual', delayMs: DELAY });
    const id = await create(env.client, campaignBody('promo'));
    await env.client.advance(10 * DAY);
    expect(await env.client.status(id)).toBe('moderation');
    await env.client.adminOk('moderation', { mode: 'auto', delayMs: 2 * DELAY });
    await env.client.advance(2 * DELAY - MARGIN);
    expect(await env.client.status(id)).toBe('moderation');
    await env.client.advance(MARGIN);
    expect(await env.client.status(id)).toBe('started');
  });

  it('fixture campaigns keep their status as the clock moves (no auto moderation for them)', async () => {
    const before = await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 });
    await env.client.advance(60_000);
    const after = await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 });
    expect(after).toEqual(before);
  });

  it('update restarts the moderation delay', async () => {
    const body = campaignBody('promo');
    const id = await create(env.client, body);
    await env.client.advance(DELAY - MARGIN);
    await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, merchantName: 'Новое имя' });
    await env.client.advance(DELAY - MARGIN);
    expect(await env.client.status(id)).toBe('moderation');
    await env.client.advance(MARGIN);
    expect(await env.client.status(id)).toBe('started');
  });

  it('pins added while pending count when the campaign starts', async () => {
    const id = await create(env.client, campaignBody('codeOffline'));
    await env.client.ok('addPins', { ymCampaignId: id, pinList: pins('Q', 3) });
    await env.client.advance(DELAY);
    expect(await env.client.status(id)).toBe('started');
  });
});
