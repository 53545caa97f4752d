import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { createCampaign, newPartner, oneOffInput } from './support.js';
import { cid, numberOf } from '../helpers/ids.js';

/**
 * addPins over real HTTP: 100,000 pins in one mutation, sent in chunks of 10,000 (what the
 * emulator takes), with every count exact and nothing lost when a chunk fails midway.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
});
afterAll(() => stack?.close());
beforeEach(() => stack.admin('reset', {}));

const ADD = `mutation ($input: AddPinsInput!) { addPins(input: $input) {
  campaign { id status }
  addedCount duplicateCount alreadyPresentCount storedCount notStoredPins firstNotStoredIndex
  userErrors { field message code } } }`;

const PIN_TOTAL = `query ($id: ID!) { campaign(id: $id) { stats { pins { unused total } } } }`;

const pinsFrom = (prefix: string, count: number, start = 0) => Array.from({ length: count }, (_, i) => `${prefix}-${start + i}`);

/** A store's approved one-off text campaign, owned by a fresh partner. */
async function oneOffCampaign(): Promise<{ token: string; id: string }> {
  const token = await newPartner(stack, 'store');
  const id = await createCampaign(stack, oneOffInput(9001), token);
  await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'approve' });
  return { token, id };
}

async function pinTotal(id: string, token: string): Promise<number> {
  const { body } = await stack.gql(PIN_TOTAL, { id }, token);
  return body.data.campaign.stats.pins.total;
}

/** Lets the first add-pins call through (slowly), then injects `fault` for the ones after it. */
async function faultFromSecondChunk(fault: Record<string, unknown>): Promise<void> {
  await stack.admin('faults', { mode: 'latency', operation: 'campaigns/add-pins', latencyMs: 400 });
  for (;;) {
    const calls = await stack.calls();
    if ((calls['campaigns/add-pins'] ?? 0) >= 1) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  // Calls are counted on arrival, so the first chunk already carries the latency fault; this one
  // replaces it for the chunks that follow.
  await stack.admin('faults', { operation: 'campaigns/add-pins', ...fault });
}

describe('addPins', () => {
  it('adds 100,000 pins in chunks of 10,000, dropping duplicates and counting pins already there', async () => {
    const { token, id } = await oneOffCampaign();
    const first = await stack.gql(ADD, { input: { campaignId: id, pins: pinsFrom('OLD', 10) } }, token);
    expect(first.body.data.addPins).toMatchObject({ addedCount: 10, storedCount: 10, alreadyPresentCount: 0, userErrors: [] });

    // 98,990 new pins, the 10 old ones in another case, and 1,000 case-insensitive repeats.
    const pins = [...pinsFrom('NEW', 98_990), ...pinsFrom('old', 10), ...pinsFrom('new', 1000)];
    expect(pins).toHaveLength(100_000);
    await stack.resetCalls();
    const started = Date.now();
    const { status, body } = await stack.gql(ADD, { input: { campaignId: id, pins } }, token);
    const elapsedMs = Date.now() - started;
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data.addPins).toEqual({
      campaign: { id, status: 'STARTED' },
      addedCount: 98_990,
      duplicateCount: 1000,
      alreadyPresentCount: 10,
      storedCount: 99_000,
      notStoredPins: [],
      firstNotStoredIndex: null,
      userErrors: [],
    });
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1, 'campaigns/info': 1, 'campaigns/add-pins': 10 });
    expect(await pinTotal(id, token)).toBe(99_000);
    expect(elapsedMs).toBeLessThan(10_000);
  });

  it('refuses more than 100,000 pins before any call', async () => {
    const { token, id } = await oneOffCampaign();
    await stack.resetCalls();
    const { body } = await stack.gql(ADD, { input: { campaignId: id, pins: pinsFrom('P', 100_001) } }, token);
    expect(body.data.addPins).toMatchObject({ addedCount: 0, storedCount: 0, firstNotStoredIndex: 0, notStoredPins: [] });
    expect(body.data.addPins.userErrors).toEqual([
      { field: ['input', 'pins'], code: 'TOO_LONG', message: 'takes at most 100000 pins per call, got 100001; split them into several addPins calls' },
    ]);
    expect(await stack.calls()).toEqual({});
  });

  it('four concurrent addPins of the same 25,000 pins: the addedCounts sum to the pins actually added', async () => {
    const { token, id } = await oneOffCampaign();
    const pins = pinsFrom('SAME', 25_000);
    const answers = await Promise.all(Array.from({ length: 4 }, () => stack.gql(ADD, { input: { campaignId: id, pins } }, token)));
    const payloads = answers.map(({ body }) => {
      expect(body.errors).toBeUndefined();
      return body.data.addPins;
    });
    for (const payload of payloads) {
      expect(payload).toMatchObject({ storedCount: 25_000, duplicateCount: 0, notStoredPins: [], firstNotStoredIndex: null, userErrors: [] });
      expect(payload.addedCount + payload.alreadyPresentCount).toBe(25_000);
    }
    expect(payloads.map((p) => p.addedCount).reduce((a, b) => a + b)).toBe(25_000);
    expect(await pinTotal(id, token)).toBe(25_000);
  });

  it('concurrent addPins of overlapping sets (in other spellings too): each count is exact, and they sum to the pins added', async () => {
    const { token, id } = await oneOffCampaign();
    // Call i sends pins i*5,000 .. i*5,000+14,999; odd calls in lower case. The union is 30,000 pins.
    const sets = Array.from({ length: 4 }, (_, i) => pinsFrom(i % 2 ? 'over' : 'OVER', 15_000, i * 5000));
    const answers = await Promise.all(sets.map((pins) => stack.gql(ADD, { input: { campaignId: id, pins } }, token)));
    const payloads = answers.map(({ body }) => body.data.addPins);
    for (const payload of payloads) {
      expect(payload).toMatchObject({ storedCount: 15_000, userErrors: [] });
      expect(payload.addedCount + payload.alreadyPresentCount).toBe(15_000);
    }
    expect(payloads.map((p) => p.addedCount).reduce((a, b) => a + b)).toBe(30_000);
    expect(await pinTotal(id, token)).toBe(30_000);
  });

  it('reports every pin that does not fit the display type by its index, and sends nothing', async () => {
    // Campaign 6 of the store fixtures: one-off, ean_13, pin-required.
    // (An empty pin is no text at all: refused before the campaign is read, see text-rule.test.ts.)
    const pins = ['4600000009991', 'abc', '123', '4600000009992', '4600000009991', '46000000099930'];
    const { body } = await stack.gql(ADD, { input: { campaignId: '6', pins } });
    const payload = body.data.addPins;
    // The input was refused as a whole, so nothing was dropped as a duplicate either.
    expect(payload).toMatchObject({ addedCount: 0, storedCount: 0, duplicateCount: 0, alreadyPresentCount: 0, firstNotStoredIndex: 0, notStoredPins: [] });
    expect(payload.userErrors.map((e: { field: string[] }) => e.field)).toEqual([
      ['input', 'pins', '1'],
      ['input', 'pins', '2'],
      ['input', 'pins', '5'],
    ]);
    expect(payload.userErrors.every((e: { code: string; message: string }) => e.code === 'FORMAT' && /^must be exactly 13 digits for pinSettings.displayType EAN_13, got "/.test(e.message))).toBe(true);
    expect((await stack.calls())['campaigns/add-pins']).toBeUndefined();
  });

  it('starts a pin-required campaign again', async () => {
    const { body } = await stack.gql(ADD, { input: { campaignId: '6', pins: ['4600000009991', '4600000009992'] } });
    expect(body.data.addPins).toMatchObject({ campaign: { id: cid(6), status: 'STARTED' }, addedCount: 2, userErrors: [] });
  });

  it('refuses campaigns that take no pins, and unknown ones', async () => {
    const reusable = await stack.gql(ADD, { input: { campaignId: '2', pins: ['A'] } });
    expect(reusable.body.data.addPins.userErrors).toEqual([expect.objectContaining({ code: 'NOT_ALLOWED', field: ['input', 'campaignId'] })]);
    expect(reusable.body.data.addPins.userErrors[0].message).toContain('pinSettings.pinType REUSABLE');
    const promo = await stack.gql(ADD, { input: { campaignId: '3', pins: ['A'] } });
    expect(promo.body.data.addPins.userErrors[0].message).toContain('campaign 3 is a PROMO campaign');
    const foreign = await stack.gql(ADD, { input: { campaignId: '9', pins: ['A'] } });
    expect(foreign.body.data.addPins).toMatchObject({ campaign: null, userErrors: [expect.objectContaining({ code: 'CAMPAIGN_NOT_FOUND', field: ['input', 'campaignId'] })] });
    const empty = await stack.gql(ADD, { input: { campaignId: '1', pins: [] } });
    expect(empty.body.data.addPins.userErrors[0]).toMatchObject({ code: 'REQUIRED', field: ['input', 'pins'] });
    expect((await stack.calls())['campaigns/add-pins']).toBeUndefined();
  });

  it('when a chunk fails midway, says exactly which pins were stored and which were not', async () => {
    const { token, id } = await oneOffCampaign();
    const pins = pinsFrom('MID', 100_000);
    const request = stack.gql(ADD, { input: { campaignId: id, pins } }, token);
    await faultFromSecondChunk({ mode: 'http500' });
    const { body } = await request;
    expect(body.errors).toBeUndefined();
    const payload = body.data.addPins;
    expect(payload).toMatchObject({ addedCount: 10_000, storedCount: 10_000, alreadyPresentCount: 0, duplicateCount: 0, firstNotStoredIndex: 10_000 });
    expect(payload.notStoredPins).toEqual(pins.slice(10_000));
    expect(payload.userErrors).toEqual([expect.objectContaining({ code: 'BACKEND_UNAVAILABLE', field: ['input', 'pins'] })]);
    expect(payload.userErrors[0].message).toContain('from input index 10000 on (90000 distinct pins)');
    expect((await stack.calls())['campaigns/add-pins']).toBe(2);

    // The backend has exactly the stored ones; re-sending the rest completes the upload.
    await stack.admin('faults', undefined, 'DELETE');
    expect(await pinTotal(id, token)).toBe(10_000);
    const again = await stack.gql(ADD, { input: { campaignId: id, pins: payload.notStoredPins } }, token);
    expect(again.body.data.addPins).toMatchObject({ addedCount: 90_000, storedCount: 90_000, userErrors: [] });
    expect(await pinTotal(id, token)).toBe(100_000);
  });

  it('a chunk refused by the backend is reported with its code, the rest listed as not stored', async () => {
    const { token, id } = await oneOffCampaign();
    const pins = pinsFrom('BIZ', 25_000);
    const request = stack.gql(ADD, { input: { campaignId: id, pins } }, token);
    await faultFromSecondChunk({ mode: 'error200', code: 'incorrectData' });
    const { body } = await request;
    const payload = body.data.addPins;
    expect(payload).toMatchObject({ addedCount: 10_000, storedCount: 10_000, firstNotStoredIndex: 10_000 });
    expect(payload.notStoredPins).toHaveLength(15_000);
    expect(payload.userErrors.map((e: { code: string }) => e.code)).toEqual(['INCORRECT_DATA', 'INCORRECT_DATA']);
    expect(payload.userErrors[1].message).toContain('the upload stopped');
  });

  it('a chunk refused with a bare 4xx (a proxy\'s 413) is UNKNOWN with its status, the rest listed as not stored, nothing tried again', async () => {
    const { token, id } = await oneOffCampaign();
    const pins = pinsFrom('BIG', 20_001);
    const request = stack.gql(ADD, { input: { campaignId: id, pins } }, token);
    await faultFromSecondChunk({ mode: 'http4xx', httpStatus: 413 });
    const { body } = await request;
    expect(body.errors).toBeUndefined();
    const payload = body.data.addPins;
    expect(payload).toMatchObject({ addedCount: 10_000, storedCount: 10_000, firstNotStoredIndex: 10_000 });
    expect(payload.notStoredPins).toEqual(pins.slice(10_000));
    expect(payload.userErrors).toEqual([expect.objectContaining({ code: 'UNKNOWN', field: ['input', 'pins'] })]);
    expect(payload.userErrors[0].message).toContain('refused the upload of pins from input index 10000 on (10001 distinct pins) with HTTP 413');
    expect((await stack.calls())['campaigns/add-pins']).toBe(2);
    await stack.admin('faults', undefined, 'DELETE');
    expect(await pinTotal(id, token)).toBe(10_000);
  });

  it('a chunk answered with something unreadable is BACKEND_BAD_RESPONSE, the rest listed as not stored', async () => {
    const { token, id } = await oneOffCampaign();
    const pins = pinsFrom('BAD', 20_001);
    const request = stack.gql(ADD, { input: { campaignId: id, pins } }, token);
    await faultFromSecondChunk({ mode: 'malformed' });
    const { body } = await request;
    const payload = body.data.addPins;
    expect(payload).toMatchObject({ addedCount: 10_000, storedCount: 10_000, firstNotStoredIndex: 10_000 });
    expect(payload.notStoredPins).toEqual(pins.slice(10_000));
    expect(payload.userErrors).toEqual([expect.objectContaining({ code: 'BACKEND_BAD_RESPONSE', field: ['input', 'pins'] })]);
    expect((await stack.calls())['campaigns/add-pins']).toBe(2); // the third chunk was never sent
  });

  it('a chunk whose answer was lost after the backend stored it is listed as not confirmed; re-sending is safe', async () => {
    const { token, id } = await oneOffCampaign();
    const pins = pinsFrom('LOST', 30_000);
    const request = stack.gql(ADD, { input: { campaignId: id, pins } }, token);
    await faultFromSecondChunk({ mode: 'reset', afterEffect: true });
    const { body } = await request;
    const payload = body.data.addPins;
    expect(payload).toMatchObject({ addedCount: 10_000, storedCount: 10_000, firstNotStoredIndex: 10_000 });
    expect(payload.notStoredPins).toEqual(pins.slice(10_000));
    expect(payload.userErrors[0]).toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    expect(payload.userErrors[0].message).toContain('may or may not have been stored');

    await stack.admin('faults', undefined, 'DELETE');
    expect(await pinTotal(id, token)).toBe(20_000); // the lost answer's chunk was stored
    const again = await stack.gql(ADD, { input: { campaignId: id, pins: payload.notStoredPins } }, token);
    expect(again.body.data.addPins).toMatchObject({ addedCount: 10_000, alreadyPresentCount: 10_000, storedCount: 20_000, userErrors: [] });
    expect(await pinTotal(id, token)).toBe(30_000);
  });
});
