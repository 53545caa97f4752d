import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { CREATE, createCampaign, newPartner, oneOffInput, promoInput } from './support.js';
import { cid, numberOf } from '../helpers/ids.js';

/**
 * createCampaign, startCampaign, stopCampaign and reportLead with their user error codes over real
 * HTTP (updateCampaign: update-campaign.test.ts). Expected failures are payload data
 * (`userErrors` naming the input path); the backend is called only with input that passed the
 * contract's rules.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
  await stack.gql(`{ categories { id } }`); // warm: the category check then costs no call
});
afterAll(() => stack?.close());
// Back to the fixtures (and no faults, no counted calls) before each test, so tests do not depend on each other.
beforeEach(() => stack.admin('reset', {}));

const START = `mutation ($id: ID!) { startCampaign(id: $id) { campaign { id status } userErrors { field message code } } }`;
const STOP = `mutation ($id: ID!) { stopCampaign(id: $id) { campaign { id status } userErrors { field message code } } }`;
const REPORT = `mutation ($input: ReportLeadInput!) {
  reportLead(input: $input) { lead { transactionId state redeemStatus campaign { id type } } userErrors { field message code } } }`;

const fields = (errors: { field: string[] | null }[]) => errors.map((e) => e.field?.join('.') ?? null).sort();

describe('createCampaign', () => {
  it('creates a campaign in moderation and reads it back', async () => {
    const { body } = await stack.gql(
      `mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) {
        campaign { id status type merchant { name domain } discount { type amount currency } fee { type amount currency } category { name } supportedPlatforms }
        userErrors { field message code } } }`,
      { input: promoInput(7001, { supportedPlatforms: ['MOBILE', 'DESKTOP'], discount: { type: 'FIX', amount: '500', currency: 'USD' } }) },
    );
    expect(body.errors).toBeUndefined();
    const payload = body.data.createCampaign;
    expect(payload.userErrors).toEqual([]);
    expect(payload.campaign).toMatchObject({
      status: 'MODERATION',
      type: 'PROMO',
      merchant: { name: 'Магазин', domain: 'shop.example.ru' },
      discount: { type: 'FIX', amount: '500', currency: 'USD' },
      fee: { type: 'PERCENT', amount: '5', currency: 'RUB' },
      category: { name: 'Электроника' },
      supportedPlatforms: ['MOBILE', 'DESKTOP'],
    });
    expect(await stack.calls()).toEqual({ 'campaigns/create': 1, 'campaigns/get': 1 });
  });

  it('reports every problem of the input at once, by input path, and calls nothing', async () => {
    const input = promoInput(7002, {
      categoryId: '4242',
      appearance: { backgroundColor: '#FAFAFA' },
      description: 'English only',
      merchant: { domain: 'https://www.shop.example.ru/', logoPngUrl: 'not a url' },
      fee: { min: '1' },
      discount: { type: 'PERCENT', amount: '150' },
      endsAt: 'tomorrow',
      supportedPlatforms: [],
    });
    const { body } = await stack.gql(CREATE, { input });
    expect(body.errors).toBeUndefined();
    const { campaign, userErrors } = body.data.createCampaign;
    expect(campaign).toBeNull();
    // Each says what kind of problem it is, for a form to branch on without reading the message.
    const codes = Object.fromEntries(userErrors.map((e: { field: string[]; code: string }) => [e.field.join('.'), e.code]));
    expect(codes).toEqual({
      'input.appearance.backgroundColor': 'OUT_OF_RANGE',
      'input.endsAt': 'FORMAT',
      'input.fee.amount': 'NOT_ALLOWED',
      'input.categoryId': 'NOT_FOUND',
      'input.description': 'FORMAT',
      'input.discount.amount': 'OUT_OF_RANGE',
      'input.merchant.domain': 'FORMAT',
      'input.merchant.logoPngUrl': 'FORMAT',
      'input.supportedPlatforms': 'REQUIRED',
    });
    expect(userErrors).toHaveLength(9);
    const byField = Object.fromEntries(userErrors.map((e: { field: string[]; message: string }) => [e.field.join('.'), e.message]));
    expect(byField['input.appearance.backgroundColor']).toMatch(/too light/);
    expect(byField['input.description']).toMatch(/Russian/);
    expect(byField['input.merchant.domain']).toMatch(/scheme/);
    expect(byField['input.categoryId']).toBe('no category has id 4242; pick one from the categories query');
    expect(byField['input.discount.amount']).toContain('"150"');
    expect(byField['input.fee.amount']).toBe('give either fee.amount or the pair fee.min and fee.max, not both');
    expect(await stack.calls()).toEqual({});
  });

  it('offers inputs no read-only enum value: CODE and UNKNOWN are no values of the input enums', async () => {
    for (const [patch, message] of [
      [{ type: 'CODE' }, /"input\.type".*Value "CODE" does not exist in "CampaignTypeInput" enum/],
      [{ fee: { currency: 'UNKNOWN' } }, /"input\.fee\.currency".*Value "UNKNOWN" does not exist in "CurrencyCodeInput" enum/],
    ] as const) {
      const { status, body } = await stack.gql(CREATE, { input: promoInput(7003, patch) });
      expect(status).toBe(400);
      expect(body.errors!.map((e) => [e.extensions.code, e.message])).toEqual([['BAD_USER_INPUT', expect.stringMatching(message)]]);
    }
    const names = async (type: string) => (await stack.gql(`{ __type(name: "${type}") { enumValues { name } } }`)).body.data.__type.enumValues.map((v: { name: string }) => v.name);
    expect(await names('CampaignTypeInput')).toEqual(['CODE_ONLINE', 'CODE_OFFLINE', 'PROMO', 'BANNER']);
    for (const type of ['PinTypeInput', 'PinDisplayTypeInput', 'DiscountTypeInput', 'FeeTypeInput', 'AppearanceTypeInput', 'CashbackTypeInput', 'PlatformInput', 'CurrencyCodeInput']) {
      expect(await names(type), type).not.toContain('UNKNOWN');
    }
    expect(await stack.calls()).toEqual({});
  });

  it('checks the conditional requirements', async () => {
    const code = await stack.gql(CREATE, { input: oneOffInput(7004, { type: 'CODE_ONLINE', pinSettings: null }) });
    expect(fields(code.body.data.createCampaign.userErrors)).toEqual(['input.acceptUrl', 'input.pinSettings.displayType', 'input.pinSettings.pinType']);
    expect(await stack.calls()).toEqual({});
  });

  it('answers REPEAT_CAMPAIGN_DATA for the same partnerCampaignId with another discount amount', async () => {
    await createCampaign(stack, promoInput(7005));
    const { body } = await stack.gql(CREATE, { input: promoInput(7005, { discount: { amount: '20' } }) });
    expect(body.data.createCampaign.campaign).toBeNull();
    expect(body.data.createCampaign.userErrors).toHaveLength(1);
    expect(body.data.createCampaign.userErrors[0]).toMatchObject({ code: 'REPEAT_CAMPAIGN_DATA' });
    expect(body.data.createCampaign.userErrors[0].field[0]).toBe('input');
  });

  it('maps an error code it does not know to UNKNOWN, keeping the backend code in the message', async () => {
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/create', code: 'quotaExceeded' });
    const { body } = await stack.gql(CREATE, { input: promoInput(7006) });
    expect(body.errors).toBeUndefined();
    expect(body.data.createCampaign.campaign).toBeNull();
    expect(body.data.createCampaign.userErrors[0].code).toBe('UNKNOWN');
    expect(body.data.createCampaign.userErrors[0].message).toContain('quotaExceeded');
  });

  it('maps a backend INCORRECT_DATA to userErrors', async () => {
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/create', code: 'incorrectData' });
    const { body } = await stack.gql(CREATE, { input: promoInput(7007) });
    expect(body.data.createCampaign.userErrors[0].code).toBe('INCORRECT_DATA');
  });
});

describe('startCampaign and stopCampaign', () => {
  it('start: STARTED on success', async () => {
    const { body } = await stack.gql(START, { id: '2' });
    expect(body.data.startCampaign).toEqual({ campaign: { id: cid(2), status: 'STARTED' }, userErrors: [] });
    expect(await stack.calls()).toEqual({ 'campaigns/start': 1 });
  });

  it('stop: PAUSED on success', async () => {
    const { body } = await stack.gql(STOP, { id: '3' });
    expect(body.data.stopCampaign).toEqual({ campaign: { id: cid(3), status: 'PAUSED' }, userErrors: [] });
  });

  it('FAIL_MODERATOR carries the campaign in its current status', async () => {
    const { body } = await stack.gql(START, { id: '4' });
    expect(body.data.startCampaign.campaign).toEqual({ id: cid(4), status: 'MODERATION' });
    expect(body.data.startCampaign.userErrors).toEqual([expect.objectContaining({ code: 'FAIL_MODERATOR', field: ['id'] })]);
    const declined = await stack.gql(START, { id: '5' });
    expect(declined.body.data.startCampaign.campaign).toEqual({ id: cid(5), status: 'DECLINED' });
    expect(declined.body.data.startCampaign.userErrors[0].code).toBe('FAIL_MODERATOR');
  });

  it('FAIL_FINISHED on start and on stop', async () => {
    for (const query of [START, STOP]) {
      const { body } = await stack.gql(query, { id: '7' });
      const payload = body.data.startCampaign ?? body.data.stopCampaign;
      expect(payload.campaign).toEqual({ id: cid(7), status: 'FINISHED' });
      expect(payload.userErrors[0].code).toBe('FAIL_FINISHED');
    }
  });

  it('FAIL_PIN for a one-off campaign without unused pins', async () => {
    const token = await newPartner(stack, 'store');
    const future = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const id = await createCampaign(stack, oneOffInput(7201, { startsAt: future }), token);
    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'approve' });
    const { body } = await stack.gql(START, { id }, token);
    expect(body.data.startCampaign.campaign).toEqual({ id, status: 'PAUSED' });
    expect(body.data.startCampaign.userErrors).toEqual([expect.objectContaining({ code: 'FAIL_PIN', field: ['id'] })]);
  });

  it('CAMPAIGN_NOT_FOUND and FAIL_MERCHANT never return another partner\'s campaign', async () => {
    const start = await stack.gql(START, { id: '9' });
    expect(start.body.data.startCampaign).toEqual({ campaign: null, userErrors: [expect.objectContaining({ code: 'CAMPAIGN_NOT_FOUND', field: ['id'] })] });
    const stop = await stack.gql(STOP, { id: '9' });
    expect(stop.body.data.stopCampaign).toEqual({ campaign: null, userErrors: [expect.objectContaining({ code: 'FAIL_MERCHANT', field: ['id'] })] });
    const junk = await stack.gql(START, { id: 'abc' });
    expect(junk.body.data.startCampaign.userErrors[0]).toMatchObject({ code: 'CAMPAIGN_NOT_FOUND', field: ['id'] });
  });

  it('reads the current status when the backend refuses without one', async () => {
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/start', code: 'failModerator' });
    const { body } = await stack.gql(START, { id: '8' });
    expect(body.data.startCampaign.campaign).toEqual({ id: cid(8), status: 'PAUSED' });
    expect(body.data.startCampaign.userErrors[0].code).toBe('FAIL_MODERATOR');
    expect(await stack.calls()).toEqual({ 'campaigns/start': 1, 'campaigns/get': 1 });
  });
});

describe('reportLead', () => {
  it('reports a lead with the pin of a one-off code campaign, idempotently, and moves it on', async () => {
    await stack.admin('show', { ymCampaignId: 1 });
    const { pin } = await stack.admin('accept', { ymCampaignId: 1 });
    const input = { campaignId: '1', transactionId: 'order-t-1', pinContent: pin.toLowerCase(), campaignFee: '150.00', orderAmount: '3000.00' };
    for (let i = 0; i < 2; i++) {
      const { body } = await stack.gql(REPORT, { input });
      expect(body.errors).toBeUndefined();
      expect(body.data.reportLead).toEqual({
        lead: { transactionId: 'order-t-1', state: 'PROCESSING', redeemStatus: 'USED', campaign: { id: cid(1), type: 'CODE_ONLINE' } },
        userErrors: [],
      });
    }
    const approved = await stack.gql(REPORT, { input: { ...input, redeemStatus: 'APPROVED' } });
    expect(approved.body.data.reportLead.lead.redeemStatus).toBe('APPROVED');
    const stats = await stack.gql(`{ campaign(id: "1") { stats { leads { used approved } } } }`);
    expect(stats.body.data.campaign.stats.leads).toEqual({ used: 1, approved: 2 });
  });

  it('moves a lead on without restating the optional fields of the first report', async () => {
    await stack.admin('show', { ymCampaignId: 1 });
    const { pin } = await stack.admin('accept', { ymCampaignId: 1 });
    const first = { campaignId: '1', transactionId: 'order-short-1', pinContent: pin, campaignFee: '150.00', orderAmount: '3000.00', cashbackAmount: '30.00' };
    expect((await stack.gql(REPORT, { input: first })).body.data.reportLead.userErrors).toEqual([]);
    const { body } = await stack.gql(REPORT, { input: { campaignId: '1', transactionId: 'order-short-1', pinContent: pin, campaignFee: '150.00', redeemStatus: 'APPROVED' } });
    expect(body.errors).toBeUndefined();
    expect(body.data.reportLead).toEqual({
      lead: { transactionId: 'order-short-1', state: 'PROCESSING', redeemStatus: 'APPROVED', campaign: { id: cid(1), type: 'CODE_ONLINE' } },
      userErrors: [],
    });
    // A field sent again with another value is still a conflict.
    const other = await stack.gql(REPORT, { input: { ...first, orderAmount: '10.00', redeemStatus: 'DECLINED' } });
    expect(other.body.data.reportLead.userErrors).toEqual([expect.objectContaining({ field: ['input', 'orderAmount'], code: 'INCORRECT_DATA' })]);
  });

  it('the same transactionId with another campaignFee is INCORRECT_DATA naming campaignFee, and changes nothing', async () => {
    await stack.admin('show', { ymCampaignId: 1 });
    const { pin } = await stack.admin('accept', { ymCampaignId: 1 });
    const input = { campaignId: '1', transactionId: 'order-fee-1', pinContent: pin, campaignFee: '150.00' };
    expect((await stack.gql(REPORT, { input })).body.data.reportLead.userErrors).toEqual([]);
    for (const again of [{ ...input, campaignFee: '10.00' }, { ...input, campaignFee: '10.00', redeemStatus: 'APPROVED' }]) {
      const { body } = await stack.gql(REPORT, { input: again });
      expect(body.errors).toBeUndefined();
      expect(body.data.reportLead).toEqual({
        lead: null,
        userErrors: [
          {
            field: ['input', 'campaignFee'],
            code: 'INCORRECT_DATA',
            message: 'differs from the first report of transactionId "order-fee-1" ("150.00" then, "10.00" now); a report repeated with the same transactionId may change only redeemStatus (a field left out keeps its first value)',
          },
        ],
      });
    }
    const stats = await stack.gql(`{ campaign(id: "1") { stats { leads { used approved } } } }`);
    expect(stats.body.data.campaign.stats.leads).toEqual({ used: 2, approved: 1 });
    // The same report again, and an allowed move, still succeed.
    expect((await stack.gql(REPORT, { input })).body.data.reportLead.userErrors).toEqual([]);
    expect((await stack.gql(REPORT, { input: { ...input, redeemStatus: 'DECLINED' } })).body.data.reportLead.lead.redeemStatus).toBe('DECLINED');
  });

  it('the same transactionId reported at once with two fees: exactly one report is taken, the other names campaignFee', async () => {
    const redeems = async () => (await stack.gql(`{ campaign(id: "3") { stats { redeems } } }`)).body.data.campaign.stats.redeems;
    const before = await redeems();
    const { clickId } = await stack.admin('accept', { ymCampaignId: 3 });
    const input = { campaignId: '3', transactionId: 'order-race-1', clickId };
    const answers = await Promise.all(['100.00', '200.00'].map((campaignFee) => stack.gql(REPORT, { input: { ...input, campaignFee } })));
    const payloads = answers.map(({ body }) => body.data.reportLead);
    const taken = payloads.filter((p) => p.userErrors.length === 0);
    const refused = payloads.filter((p) => p.userErrors.length > 0);
    expect(taken).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toEqual({ lead: null, userErrors: [expect.objectContaining({ field: ['input', 'campaignFee'], code: 'INCORRECT_DATA' })] });
    expect(await redeems()).toBe(before + 1);
  });

  it('reports a lead with the clickId of a promo campaign', async () => {
    const { clickId, viewId } = await stack.admin('accept', { ymCampaignId: 3 });
    const { body } = await stack.gql(REPORT, {
      input: { campaignId: '3', transactionId: 'order-t-2', clickId, viewId, campaignFee: '99.90', redeemTime: '2026-03-01T12:00:00+03:00', bonusDescription: { category: 'фрукты' } },
    });
    expect(body.data.reportLead.userErrors).toEqual([]);
    expect(body.data.reportLead.lead.campaign.type).toBe('PROMO');
  });

  it('checks pinContent / clickId against the campaign kind before redeem', async () => {
    const promo = await stack.gql(REPORT, { input: { campaignId: '3', transactionId: 't-3', pinContent: 'X', campaignFee: '1' } });
    expect(promo.body.data.reportLead.lead).toBeNull();
    expect(promo.body.data.reportLead.userErrors).toEqual([expect.objectContaining({ code: 'REQUIRED', field: ['input', 'clickId'] })]);
    const code = await stack.gql(REPORT, { input: { campaignId: '1', transactionId: 't-4', clickId: 'c', campaignFee: '1' } });
    expect(code.body.data.reportLead.userErrors).toEqual([expect.objectContaining({ code: 'REQUIRED', field: ['input', 'pinContent'] })]);
    const reusable = await stack.gql(REPORT, { input: { campaignId: '2', transactionId: 't-5', pinContent: 'TECHNO500', campaignFee: '1' } });
    expect(reusable.body.data.reportLead.userErrors[0].field).toEqual(['input', 'clickId']);
    expect((await stack.calls())['campaigns/redeem']).toBeUndefined();
  });

  it('reports every invalid value at once, by input path', async () => {
    const { body } = await stack.gql(REPORT, {
      input: { campaignId: '1', transactionId: 'x'.repeat(37), pinContent: 'TECHNO-0001', campaignFee: '1.999', orderAmount: '-5', redeemTime: 'yesterday' },
    });
    const codes = Object.fromEntries(body.data.reportLead.userErrors.map((e: { field: string[]; code: string }) => [e.field.join('.'), e.code]));
    expect(codes).toEqual({ 'input.campaignFee': 'FORMAT', 'input.orderAmount': 'FORMAT', 'input.redeemTime': 'FORMAT', 'input.transactionId': 'TOO_LONG' });
    expect((await stack.calls())['campaigns/redeem']).toBeUndefined();
  });

  it('passes the backend\'s INCORRECT_DATA for an unknown pin with its field', async () => {
    const { body } = await stack.gql(REPORT, { input: { campaignId: '1', transactionId: 't-6', pinContent: 'NEVER-ISSUED', campaignFee: '1' } });
    expect(body.data.reportLead.lead).toBeNull();
    expect(body.data.reportLead.userErrors).toEqual([expect.objectContaining({ code: 'INCORRECT_DATA', field: ['input', 'pinContent'] })]);
  });

  it('answers CAMPAIGN_NOT_FOUND for a campaign of another partner', async () => {
    const { body } = await stack.gql(REPORT, { input: { campaignId: '9', transactionId: 't-7', clickId: 'c', campaignFee: '1' } });
    expect(body.data.reportLead).toEqual({ lead: null, userErrors: [expect.objectContaining({ code: 'CAMPAIGN_NOT_FOUND', field: ['input', 'campaignId'] })] });
  });
});
