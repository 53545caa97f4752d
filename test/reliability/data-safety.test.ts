import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { createCampaign, newPartner, oneOffInput } from '../graphql/support.js';
import { restInfo, restPins, waitForCalls } from './support.js';
import { numberOf } from '../helpers/ids.js';

/**
 * No pin and no lead is lost or doubled when the backend fails in the middle of a write, even
 * when it stored the data and only the answer was lost. The emulator's own REST API is the judge:
 * get-pins-by-status lists every pin, campaigns/info counts every lead. test/graphql/add-pins.test.ts
 * shows the payload for a failure from the second chunk on; this suite fails a chunk in the middle,
 * in every way a write can fail, and checks the backend pin by pin.
 */
const ATTEMPT_TIMEOUT_MS = 1000;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    emulator: { moderation: { mode: 'manual' } },
    env: { BACKEND_ATTEMPT_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS), BACKEND_BUDGET_MS: '4000', BACKEND_BACKOFF_INITIAL_MS: '10', BACKEND_BACKOFF_MAX_MS: '50' },
  });
});
afterAll(() => stack?.close());
beforeEach(async () => {
  await stack.admin('faults', undefined, 'DELETE');
  await stack.resetCalls();
});

const ADD = `mutation ($input: AddPinsInput!) { addPins(input: $input) {
  addedCount duplicateCount alreadyPresentCount storedCount notStoredPins firstNotStoredIndex
  userErrors { field message code } } }`;

/** Holds every chunk for a while, and turns the fault on from chunk `n` on while chunk n-1 is held. */
async function failFromChunk(n: number, fault: Record<string, unknown>): Promise<void> {
  await stack.admin('faults', { mode: 'latency', operation: 'campaigns/add-pins', latencyMs: 300 });
  await waitForCalls(stack, 'campaigns/add-pins', n - 1);
  await stack.admin('faults', { operation: 'campaigns/add-pins', ...fault });
  // The fault must have been set while chunk n-1 was still held, or this run proves nothing.
  expect((await stack.calls())['campaigns/add-pins']).toBe(n - 1);
}

const lower = (pins: string[]) => pins.map((p) => p.toLowerCase());

describe('addPins: 100,000 pins while one chunk in the middle fails', () => {
  it.each([
    { mode: 'http500', fault: { mode: 'http500' }, storedByFailedChunk: false, code: 'BACKEND_UNAVAILABLE' },
    { mode: 'reset after storing', fault: { mode: 'reset', afterEffect: true }, storedByFailedChunk: true, code: 'BACKEND_UNAVAILABLE' },
    { mode: 'hang after storing', fault: { mode: 'hang', afterEffect: true }, storedByFailedChunk: true, code: 'BACKEND_UNAVAILABLE' },
    { mode: 'malformed answer after storing', fault: { mode: 'malformed', afterEffect: true }, storedByFailedChunk: true, code: 'BACKEND_BAD_RESPONSE' },
  ])('$mode: the payload names what was stored, the retry completes the set, no pin twice', async ({ mode, fault, storedByFailedChunk, code }) => {
    const token = await newPartner(stack, 'store');
    const id = await createCampaign(stack, oneOffInput(8001), token);
    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'approve' });
    const tag = mode.split(' ')[0]!.toUpperCase();
    const pins = Array.from({ length: 100_000 }, (_, i) => `${tag}-${i}`);

    await stack.resetCalls();
    const request = stack.gql(ADD, { input: { campaignId: id, pins } }, token);
    await failFromChunk(4, fault);
    const { body } = await request;

    // The first three chunks of 10,000 were confirmed; from the fourth on nothing is claimed.
    expect(body.errors).toBeUndefined();
    const payload = body.data.addPins;
    expect(payload).toMatchObject({ storedCount: 30_000, addedCount: 30_000, alreadyPresentCount: 0, duplicateCount: 0, firstNotStoredIndex: 30_000 });
    expect(payload.notStoredPins).toEqual(pins.slice(30_000));
    expect(payload.userErrors).toEqual([expect.objectContaining({ code, field: ['input', 'pins'] })]);
    expect((await stack.calls())['campaigns/add-pins'], 'the failed chunk is not re-sent blindly, nothing after it is sent').toBe(4);

    await stack.admin('faults', undefined, 'DELETE');
    const atBackend = await restPins(stack, token, numberOf(id));
    expect(atBackend).toEqual(pins.slice(0, storedByFailedChunk ? 40_000 : 30_000));

    // The partner re-sends what the payload listed: the set is complete, each pin exactly once.
    const retry = await stack.gql(ADD, { input: { campaignId: id, pins: payload.notStoredPins } }, token);
    expect(retry.body.data.addPins).toMatchObject({
      storedCount: 70_000,
      addedCount: storedByFailedChunk ? 60_000 : 70_000,
      alreadyPresentCount: storedByFailedChunk ? 10_000 : 0,
      notStoredPins: [],
      userErrors: [],
    });
    const complete = await restPins(stack, token, numberOf(id));
    expect(complete).toHaveLength(100_000);
    expect(new Set(lower(complete)).size, 'no pin twice').toBe(100_000);
    expect(new Set(complete)).toEqual(new Set(pins));
  });

  it('re-sending all 100,000 pins in another case adds nothing and doubles nothing', async () => {
    const token = await newPartner(stack, 'store');
    const id = await createCampaign(stack, oneOffInput(8002), token);
    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'approve' });
    const pins = Array.from({ length: 100_000 }, (_, i) => `Again-${i}`);
    const first = await stack.gql(ADD, { input: { campaignId: id, pins } }, token);
    expect(first.body.data.addPins).toMatchObject({ addedCount: 100_000, userErrors: [] });
    const again = await stack.gql(ADD, { input: { campaignId: id, pins: pins.map((p) => p.toUpperCase()) } }, token);
    expect(again.body.data.addPins).toMatchObject({ addedCount: 0, alreadyPresentCount: 100_000, storedCount: 100_000, userErrors: [] });
    const atBackend = await restPins(stack, token, numberOf(id));
    expect(atBackend).toEqual(pins); // first spelling kept, once each
  });
});

describe('reportLead when the backend times out after storing the lead', () => {
  const REPORT = `mutation ($input: ReportLeadInput!) { reportLead(input: $input) {
    lead { transactionId state redeemStatus } userErrors { field message code } } }`;
  let token: string;
  let campaignId: string;

  beforeAll(async () => {
    token = await newPartner(stack, 'aggregator');
    // An aggregator's promo campaign is live at upload, so users can take it at once.
    campaignId = await createCampaign(stack, oneOffInput(8100, { type: 'PROMO', pinSettings: null, acceptUrl: 'https://shop.example.ru/go' }), token);
  });

  async function lead(transactionId: string, redeemStatus?: string): Promise<Record<string, unknown>> {
    const { clickId } = await stack.admin('accept', { ymCampaignId: numberOf(campaignId) });
    return { campaignId, transactionId, clickId, campaignFee: '150.00', orderAmount: '3000.00', ...(redeemStatus ? { redeemStatus } : {}) };
  }
  const counters = async () => {
    const info = await restInfo(stack, token, numberOf(campaignId));
    return { redeems: info.campaignRedeems, ...info.campaignRedeemStats };
  };

  it('hang after storing, then the backend recovers: the client\'s own retry succeeds, one lead', async () => {
    const before = await counters();
    const input = await lead('safe-hang-1');
    await stack.admin('faults', { mode: 'hang', operation: 'campaigns/redeem', afterEffect: true });
    const request = stack.gql(REPORT, { input }, token);
    await waitForCalls(stack, 'campaigns/redeem', 1);
    await stack.admin('faults', undefined, 'DELETE'); // the retry after the attempt timeout gets through
    const { body } = await request;
    expect(body.errors).toBeUndefined();
    expect(body.data.reportLead).toEqual({ lead: { transactionId: 'safe-hang-1', state: 'PROCESSING', redeemStatus: 'USED' }, userErrors: [] });
    expect((await stack.calls())['campaigns/redeem'], 'the redeem was retried once').toBe(2);
    expect(await counters()).toEqual({ ...before, redeems: before.redeems + 1, usedCount: before.usedCount + 1 });
  });

  it.each([
    { mode: 'reset', fault: { mode: 'reset', afterEffect: true } },
    { mode: 'hang', fault: { mode: 'hang', afterEffect: true } },
  ])('$mode after storing, every attempt: BACKEND_UNAVAILABLE, then the partner\'s retry; still one lead', async ({ mode, fault }) => {
    const before = await counters();
    const input = await lead(`safe-${mode}-2`);
    await stack.admin('faults', { operation: 'campaigns/redeem', ...fault });
    const started = performance.now();
    const failed = await stack.gql(REPORT, { input }, token);
    expect(performance.now() - started).toBeLessThan(4000 + 500);
    expect(failed.body.data).toBeNull();
    expect(failed.body.errors![0].extensions.code).toBe('BACKEND_UNAVAILABLE');
    // Three attempts reached the backend and each stored it: idempotent on transactionId, one lead.
    expect((await stack.calls())['campaigns/redeem']).toBe(3);
    expect(await counters()).toEqual({ ...before, redeems: before.redeems + 1, usedCount: before.usedCount + 1 });

    await stack.admin('faults', undefined, 'DELETE');
    const retried = await stack.gql(REPORT, { input }, token);
    expect(retried.body.data.reportLead.userErrors).toEqual([]);
    expect(await counters()).toEqual({ ...before, redeems: before.redeems + 1, usedCount: before.usedCount + 1 });
  });

  it('a status change whose answer was lost is applied once: used → approved, no second lead', async () => {
    const input = await lead('safe-approve-3');
    expect((await stack.gql(REPORT, { input }, token)).body.data.reportLead.userErrors).toEqual([]);
    const before = await counters();
    await stack.admin('faults', { mode: 'reset', operation: 'campaigns/redeem', afterEffect: true });
    const failed = await stack.gql(REPORT, { input: { ...input, redeemStatus: 'APPROVED' } }, token);
    expect(failed.body.errors![0].extensions.code).toBe('BACKEND_UNAVAILABLE');
    await stack.admin('faults', undefined, 'DELETE');
    const retried = await stack.gql(REPORT, { input: { ...input, redeemStatus: 'APPROVED' } }, token);
    expect(retried.body.data.reportLead).toMatchObject({ lead: { redeemStatus: 'APPROVED' }, userErrors: [] });
    expect(await counters()).toEqual({ ...before, usedCount: before.usedCount - 1, approvedCount: before.approvedCount + 1 });
  });
});
