import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEXT_RULE_MESSAGE, badTextFor } from '../fixtures/bad-text.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CREATE, createCampaign, promoInput } from './support.js';
import { cid } from '../helpers/ids.js';

/**
 * Issue 11, the BFF's side: bad text in any free-text input field (control characters, lone
 * surrogates, bidirectional and other invisible controls, blank values) is INCORRECT_DATA naming
 * the GraphQL input field, and the campaign API is never called (its call counters stay empty).
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
  await stack.gql(`{ categories { id } }`); // the category check then costs no call
});
afterAll(() => stack?.close());
beforeEach(() => stack.admin('reset', {}));

const UPDATE = `mutation ($input: UpdateCampaignInput!) { updateCampaign(input: $input) { campaign { id } userErrors { field message code } } }`;
const REPORT = `mutation ($input: ReportLeadInput!) { reportLead(input: $input) { lead { transactionId } userErrors { field message code } } }`;
const ADD_PINS = `mutation ($input: AddPinsInput!) { addPins(input: $input) { storedCount userErrors { field message code } } }`;

interface Case {
  field: string;
  valid: string;
  input: () => Record<string, unknown>;
  multiline?: boolean;
}

const CAMPAIGN_FIELDS: Case[] = [
  { field: 'merchantName', valid: 'Магазин у дома', input: () => promoInput(9001) },
  { field: 'description', valid: 'Скидка на всё', input: () => promoInput(9001) },
  { field: 'conditions', valid: 'При заказе от 1000 рублей', input: () => promoInput(9001), multiline: true },
  { field: 'discountAmount', valid: 'Подарок к заказу', input: () => promoInput(9001, { discountType: 'TEXT' }) },
  { field: 'merchantDomain', valid: 'shop.example.ru', input: () => promoInput(9001) },
  { field: 'merchantLogoSvg', valid: 'https://shop.example.ru/logo.svg', input: () => promoInput(9001) },
  { field: 'merchantLogoPng', valid: 'https://shop.example.ru/logo.png', input: () => promoInput(9001) },
  { field: 'acceptUrl', valid: 'https://shop.example.ru/go', input: () => promoInput(9001) },
  {
    field: 'backgroundImage',
    valid: 'https://shop.example.ru/banner.png',
    input: () => promoInput(9001, { campaignType: 'BANNER', appearanceType: 'IMAGE_BANNER' }),
  },
  { field: 'backgroundColor', valid: '#1A237E', input: () => promoInput(9001) },
  { field: 'fontColor', valid: '#FFFFFF', input: () => promoInput(9001) },
  {
    field: 'couponCode',
    valid: 'SAVE-2024',
    input: () => promoInput(9001, { campaignType: 'CODE_OFFLINE', acceptUrl: null, pinType: 'REUSABLE', pinDisplayType: 'TEXT' }),
  },
  { field: 'campaignFee', valid: '15', input: () => promoInput(9001) },
  { field: 'campaignFeeMin', valid: '10', input: () => promoInput(9001, { campaignFee: null, campaignFeeMax: '90' }) },
  { field: 'campaignFeeMax', valid: '90', input: () => promoInput(9001, { campaignFee: null, campaignFeeMin: '10' }) },
  { field: 'campaignStart', valid: '2099-01-01T09:00:00+03:00', input: () => promoInput(9001) },
  { field: 'campaignEnd', valid: '2099-02-01T09:00:00+03:00', input: () => promoInput(9001) },
  { field: 'offerEnd', valid: '2099-03-01T09:00:00+03:00', input: () => promoInput(9001) },
];

/**
 * Sends `mutation` with each bad text at `path`; returns what was not refused by the text rule
 * as INCORRECT_DATA at exactly that input path.
 */
async function misses(mutation: string, name: string, path: string[], multiline: boolean, variables: (bad: string) => Record<string, unknown>, valid: string) {
  const missed: string[] = [];
  for (const bad of badTextFor(multiline)) {
    const { status, body } = await stack.gql(mutation, variables(bad.make(valid)));
    const errors = body.data?.[name]?.userErrors ?? [];
    const match = errors.find((e: { field: string[] | null; code: string; message: string }) => e.code === 'INCORRECT_DATA' && e.field?.join('.') === path.join('.') && TEXT_RULE_MESSAGE.test(e.message));
    if (status !== 200 || !match) missed.push(`${bad.kind}: HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return missed;
}

describe('the text rule in the BFF, before any backend call', () => {
  for (const c of CAMPAIGN_FIELDS) {
    it(`createCampaign and updateCampaign refuse bad text in input.${c.field}`, async () => {
      const path = ['input', c.field];
      expect(await misses(CREATE, 'createCampaign', path, !!c.multiline, (bad) => ({ input: { ...c.input(), [c.field]: bad } }), c.valid)).toEqual([]);
      // updateCampaign is keyed by id (campaign 1 of the demo store) and reads the campaign before
      // it writes: bad text is refused before that read too, so no call at all is counted.
      expect(await misses(UPDATE, 'updateCampaign', path, !!c.multiline, (bad) => ({ input: { id: cid(1), [c.field]: bad } }), c.valid)).toEqual([]);
      expect(await stack.calls()).toEqual({});
      // The valid value passes the very same checks and reaches the campaign API.
      const { body } = await stack.gql(CREATE, { input: { ...c.input(), [c.field]: c.valid } });
      expect(body.data.createCampaign.userErrors).toEqual([]);
    });
  }

  it('updateCampaign: null clears an optional free-text field and is never blank; null for a required one is refused as required', async () => {
    const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const id = await createCampaign(stack, promoInput(9101, { campaignStart: future(10), campaignEnd: future(40), offerEnd: future(50) }));
    await stack.resetCalls();

    // Bad text next to nulls: the text rule names the bad field alone, before any call.
    const mixed = await stack.gql(UPDATE, { input: { id, campaignEnd: null, offerEnd: null, couponCode: null, merchantName: 'Магазин\u202E' } });
    expect(mixed.body.data.updateCampaign.campaign).toBeNull();
    expect(mixed.body.data.updateCampaign.userErrors).toEqual([
      { field: ['input', 'merchantName'], code: 'INCORRECT_DATA', message: expect.stringMatching(TEXT_RULE_MESSAGE) },
    ]);
    // null for a free-text field every campaign has: required, not bad text.
    const required = await stack.gql(UPDATE, { input: { id, merchantName: null, conditions: null, merchantDomain: null } });
    expect(required.body.data.updateCampaign.userErrors).toEqual(
      ['merchantDomain', 'merchantName', 'conditions'].map((f) => ({
        field: ['input', f],
        code: 'INCORRECT_DATA',
        message: 'is required and cannot be cleared: leave it out to keep the current value',
      })),
    );
    expect(await stack.calls()).toEqual({});

    // null for optional free-text fields clears them; an absent field keeps its value.
    const cleared = await stack.gql(UPDATE, { input: { id, campaignStart: null, campaignEnd: null, offerEnd: null, backgroundImage: null } });
    expect(cleared.body.data.updateCampaign.userErrors).toEqual([]);
    const { body } = await stack.gql(`query ($id: ID!) { campaign(id: $id) { startsAt endsAt merchant { name } } }`, { id });
    expect(body.data.campaign).toEqual({ startsAt: null, endsAt: null, merchant: { name: 'Магазин' } });
  });

  const LEAD_FIELDS: { path: string[]; valid: string }[] = [
    { path: ['transactionId'], valid: 'order-1001' },
    { path: ['clickId'], valid: 'click-1' },
    { path: ['pinContent'], valid: 'PIN-1' },
    { path: ['sceneRedeem'], valid: 'mobile_app' },
    { path: ['redeemTime'], valid: '2026-03-01T12:30:00+03:00' },
    { path: ['campaignFee'], valid: '150.00' },
    { path: ['orderAmount'], valid: '3000.00' },
    { path: ['cashbackAmount'], valid: '150.00' },
    { path: ['viewId'], valid: 'view-1-1' },
    { path: ['bonusDescription', 'category'], valid: 'ноутбуки' },
  ];
  for (const l of LEAD_FIELDS) {
    it(`reportLead refuses bad text in input.${l.path.join('.')}`, async () => {
      const lead = { campaignId: '1', transactionId: 'order-1', clickId: 'click-1', campaignFee: '1.00' };
      const variables = (bad: string) => ({
        input: l.path.length === 2 ? { ...lead, bonusDescription: { category: bad } } : { ...lead, [l.path[0]!]: bad },
      });
      expect(await misses(REPORT, 'reportLead', ['input', ...l.path], false, variables, l.valid)).toEqual([]);
      expect(await stack.calls()).toEqual({});
    });
  }

  it('addPins refuses bad text in a pin, naming its index', async () => {
    const variables = (bad: string) => ({ input: { campaignId: '4', pins: ['GOOD-1', bad] } });
    expect(await misses(ADD_PINS, 'addPins', ['input', 'pins', '1'], false, variables, 'PIN-0001')).toEqual([]);
    expect(await stack.calls()).toEqual({});
  });
});
