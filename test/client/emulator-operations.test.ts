import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestOf } from '../../src/campaign-api/operations.js';
import { BusinessError, UnauthenticatedError } from '../../src/campaign-api/errors.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { closeAllClients, failure, recordingClient, type RecordingClient } from './support/clients.js';
import { emulatorAdmin } from './support/emulator-admin.js';

const STORE = DEMO_TOKENS.store;
const AGGREGATOR = DEMO_TOKENS.aggregator;

let emulator: RunningEmulator;
let admin: ReturnType<typeof emulatorAdmin>;
let api: RecordingClient;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, moderation: { mode: 'manual' } });
  admin = emulatorAdmin(emulator.url);
  api = recordingClient(emulator.url, { attemptTimeoutMs: 2000, budgetMs: 5000 });
});
beforeEach(async () => {
  await admin.reset();
});
afterAll(async () => {
  await closeAllClients();
  await emulator.close();
});

function promo(partnerCampaignId: number, extra: Partial<RequestOf<'create'>> = {}): RequestOf<'create'> {
  return {
    partnerCampaignId,
    categoryId: 1,
    campaignType: 'promo',
    acceptUrl: 'https://lavka.example.ru/promo',
    merchantDomain: 'lavka.example.ru',
    merchantLogoSvg: 'https://lavka.example.ru/logo.svg',
    merchantLogoPng: 'https://lavka.example.ru/logo.png',
    merchantName: 'Лавка',
    backgroundColor: '#1A237E',
    fontColor: '#FFFFFF',
    description: 'Скидка для новых покупателей',
    conditions: 'Действует при заказе на сайте',
    discountType: 'percent',
    discountAmount: '10',
    feeType: 'percent',
    campaignFee: '5',
    ...extra,
  };
}

/** The fixture campaign of a partner that currently has `status`. */
async function fixtureIn(token: string, status: string): Promise<number> {
  const page = await api.client.getAllCampaigns(token, { limit: 100, offset: 0 });
  const found = page.campaigns.find((c) => c.campaignStatus === status);
  if (!found) throw new Error(`the fixtures of ${token} have no campaign in ${status}: ${JSON.stringify(page.campaigns)}`);
  return found.ymCampaignId;
}

async function businessError(promise: Promise<unknown>): Promise<BusinessError> {
  const { error } = await failure(promise);
  if (!(error instanceof BusinessError)) throw new Error(`expected a BusinessError, got ${error.constructor.name}: ${error.message}`);
  return error;
}

describe('every operation succeeds against the emulator', () => {
  it('categories/get', async () => {
    const { categories } = await api.client.getCategories(STORE, {});
    expect(categories.length).toBeGreaterThanOrEqual(10);
    expect(categories[0]).toEqual({ categoryId: expect.any(Number), categoryName: expect.stringMatching(/[а-яё]/i) });
  });

  it('get-all-campaigns pages through the partner campaigns in id order', async () => {
    const all = await api.client.getAllCampaigns(STORE, { limit: 100, offset: 0 });
    expect(all.total).toBe(all.campaigns.length);
    const page = await api.client.getAllCampaigns(STORE, { limit: 2, offset: 1 });
    expect(page).toEqual({ total: all.total, campaigns: all.campaigns.slice(1, 3) });
    const ids = all.campaigns.map((c) => c.ymCampaignId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('create, update, get and info of a new campaign', async () => {
    const created = await api.client.create(STORE, promo(501));
    expect(created).toEqual({ ymCampaignId: expect.any(Number), campaignStatus: 'moderation' });
    const id = created.ymCampaignId;

    await expect(api.client.update(STORE, { partnerCampaignId: 501, description: 'Скидка для всех покупателей' })).resolves.toEqual({
      ymCampaignId: id,
      campaignStatus: 'moderation',
    });
    const details = await api.client.get(STORE, { ymCampaignId: id });
    expect(details).toMatchObject({
      ymCampaignId: id,
      campaignStatus: 'moderation',
      campaignType: 'promo',
      merchantName: 'Лавка',
      description: 'Скидка для всех покупателей',
      discountType: 'percent',
      discountAmount: '10',
    });
    await expect(api.client.info(STORE, { ymCampaignId: id })).resolves.toEqual({
      ymCampaignId: id,
      campaignStatus: 'moderation',
      campaignAccepts: 0,
      campaignRedeems: 0,
      campaignShows: 0,
      campaignPinsStats: { unused: 0, total: 0 },
      campaignRedeemStats: { usedCount: 0, approvedCount: 0, declinedCount: 0 },
    });
  });

  it('stop and start an approved campaign', async () => {
    const { ymCampaignId } = await api.client.create(STORE, promo(502));
    await admin.moderate(ymCampaignId, 'approve');
    await expect(api.client.stop(STORE, { ymCampaignId })).resolves.toEqual({ ymCampaignId, campaignStatus: 'paused' });
    await expect(api.client.start(STORE, { ymCampaignId })).resolves.toEqual({ ymCampaignId, campaignStatus: 'started' });
  });

  it('add-pins, get-pins-by-status and redeem on a one-off code campaign', async () => {
    const id = await fixtureIn(STORE, 'started');
    const before = await api.client.info(STORE, { ymCampaignId: id });
    const added = await api.client.addPins(STORE, { ymCampaignId: id, pinList: ['CLIENT-0001', 'CLIENT-0002'] });
    expect(added).toMatchObject({ ymCampaignId: id, campaignStatus: 'started' });
    expect(added.counters.totalPinCount).toBe(before.campaignPinsStats.total + 2);

    const { pin } = await admin.accept(id);
    expect(typeof pin).toBe('string');
    const accepted = await api.client.getPinsByStatus(STORE, { ymCampaignId: id, pinStatus: 'accepted_by_user' });
    expect(accepted.pins).toContain(pin);

    const lead = { ymCampaignId: id, transactionId: 'client-order-1', pinContent: pin!, campaignFee: '12.50' };
    await expect(api.client.redeem(STORE, lead)).resolves.toEqual({ ymCampaignId: id, transactionId: 'client-order-1', state: 'processing' });
    // Idempotent on transactionId: the same report again is a success.
    await expect(api.client.redeem(STORE, lead)).resolves.toMatchObject({ state: 'processing' });
    const redeemed = await api.client.getPinsByStatus(STORE, { ymCampaignId: id, pinStatus: 'redeem_received' });
    expect(redeemed).toMatchObject({ ymCampaignId: id, pinStatus: 'redeem_received' });
    expect(redeemed.pins).toContain(pin);
  });
});

describe('every error code arrives as a typed BusinessError', () => {
  it('incorrectData on create names every bad field', async () => {
    const error = await businessError(api.client.create(STORE, promo(503, { backgroundColor: '#FFFFFF', description: 'English only' })));
    expect(error).toMatchObject({ code: 'incorrectData', httpStatus: 400, operation: 'create' });
    expect(error.fields.map((f) => f.field).sort()).toEqual(['backgroundColor', 'description']);
  });

  it('incorrectData on add-pins, redeem and get-all-campaigns', async () => {
    const id = await fixtureIn(STORE, 'started');
    const pins = await businessError(api.client.addPins(STORE, { ymCampaignId: id, pinList: ['x'.repeat(300)] }));
    expect(pins.code).toBe('incorrectData');
    expect(pins.fields[0]?.field).toBe('pinList[0]');

    const lead = await businessError(
      api.client.redeem(STORE, { ymCampaignId: id, transactionId: 'unknown-pin', pinContent: 'NO-SUCH-PIN', campaignFee: '1.00' }),
    );
    expect(lead.code).toBe('incorrectData');

    const page = await businessError(api.client.getAllCampaigns(STORE, { limit: 0, offset: 0 }));
    expect(page.code).toBe('incorrectData');
    expect(page.fields.map((f) => f.field)).toEqual(['limit']);
  });

  it('repeatCampaignData when the same partnerCampaignId comes with another discount', async () => {
    await api.client.create(STORE, promo(504));
    const error = await businessError(api.client.create(STORE, promo(504, { discountAmount: '20' })));
    expect(error).toMatchObject({ code: 'repeatCampaignData', operation: 'create' });
  });

  it('campaignNotFound for unknown and foreign campaigns, on every operation that lists it', async () => {
    const foreign = await fixtureIn(AGGREGATOR, 'started');
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['update', () => api.client.update(STORE, { partnerCampaignId: 987654, description: 'Новое описание' })],
      ['get', () => api.client.get(STORE, { ymCampaignId: 987654 })],
      ['info', () => api.client.info(STORE, { ymCampaignId: foreign })],
      ['start', () => api.client.start(STORE, { ymCampaignId: 987654 })],
      ['addPins', () => api.client.addPins(STORE, { ymCampaignId: foreign, pinList: ['A-1'] })],
      ['getPinsByStatus', () => api.client.getPinsByStatus(STORE, { ymCampaignId: foreign, pinStatus: 'new_unused' })],
      ['redeem', () => api.client.redeem(STORE, { ymCampaignId: foreign, transactionId: 't', clickId: 'c', campaignFee: '1.00' })],
    ];
    for (const [operation, call] of calls) {
      const error = await businessError(call());
      expect(error, operation).toMatchObject({ code: 'campaignNotFound', operation, httpStatus: 404 });
    }
  });

  it('failModerator on start of a campaign awaiting moderation, with its current status', async () => {
    const id = await fixtureIn(STORE, 'moderation');
    const error = await businessError(api.client.start(STORE, { ymCampaignId: id }));
    expect(error).toMatchObject({ code: 'failModerator', current: { ymCampaignId: id, campaignStatus: 'moderation' } });
  });

  it('failPin on start of a one-off code campaign without pins', async () => {
    const { ymCampaignId } = await api.client.create(
      STORE,
      promo(505, { campaignType: 'codeOnline', pinType: 'one-off', pinDisplayType: 'text' }),
    );
    await admin.moderate(ymCampaignId, 'approve');
    const { campaignStatus } = await api.client.get(STORE, { ymCampaignId });
    const error = await businessError(api.client.start(STORE, { ymCampaignId }));
    expect(error).toMatchObject({ code: 'failPin', httpStatus: 409, current: { ymCampaignId, campaignStatus } });
  });

  it('failFinished on start and stop of a finished campaign', async () => {
    const id = await fixtureIn(STORE, 'finished');
    for (const call of [() => api.client.start(STORE, { ymCampaignId: id }), () => api.client.stop(STORE, { ymCampaignId: id })]) {
      const error = await businessError(call());
      expect(error).toMatchObject({ code: 'failFinished', current: { ymCampaignId: id, campaignStatus: 'finished' } });
    }
  });

  it("failMerchant on stop of another partner's campaign", async () => {
    const foreign = await fixtureIn(AGGREGATOR, 'started');
    const error = await businessError(api.client.stop(STORE, { ymCampaignId: foreign }));
    expect(error).toMatchObject({ code: 'failMerchant', httpStatus: 403 });
  });

  it('an unknown token is UnauthenticatedError, not a business error', async () => {
    const { error } = await failure(api.client.getCategories('not-a-partner-token', {}));
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(error).toMatchObject({ httpStatus: 401 });
    expect(api.last()).toMatchObject({ outcome: 'unauthenticated', attempts: 1 });
  });
});
