import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEXT_RULE_MESSAGE, badTextFor } from '../fixtures/bad-text.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CREATE, createCampaign, promoInput } from './support.js';
import { cid } from '../helpers/ids.js';

/**
 * Issue 11, the BFF's side: bad text in any free-text input field (control characters, lone
 * surrogates, bidirectional and other invisible controls, blank values) is FORMAT (REQUIRED when blank) naming
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
  /** Where the field is in the input. */
  path: string[];
  valid: string;
  input: () => Record<string, unknown>;
  multiline?: boolean;
}

/** `input` with `value` at `path` (groups copied, not changed). */
function put(input: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  return { ...input, [head]: rest.length ? put((input[head] as Record<string, unknown> | undefined) ?? {}, rest, value) : value };
}

const CAMPAIGN_FIELDS: Case[] = [
  { path: ['merchant', 'name'], valid: 'Магазин у дома', input: () => promoInput(9001) },
  { path: ['description'], valid: 'Скидка на всё', input: () => promoInput(9001) },
  { path: ['conditions'], valid: 'При заказе от 1000 рублей', input: () => promoInput(9001), multiline: true },
  { path: ['discount', 'amount'], valid: 'Подарок к заказу', input: () => promoInput(9001, { discount: { type: 'TEXT' } }) },
  { path: ['merchant', 'domain'], valid: 'shop.example.ru', input: () => promoInput(9001) },
  { path: ['merchant', 'logoSvgUrl'], valid: 'https://shop.example.ru/logo.svg', input: () => promoInput(9001) },
  { path: ['merchant', 'logoPngUrl'], valid: 'https://shop.example.ru/logo.png', input: () => promoInput(9001) },
  { path: ['acceptUrl'], valid: 'https://shop.example.ru/go', input: () => promoInput(9001) },
  {
    path: ['appearance', 'backgroundImageUrl'],
    valid: 'https://shop.example.ru/banner.png',
    input: () => promoInput(9001, { type: 'BANNER', appearance: { appearanceType: 'IMAGE_BANNER' } }),
  },
  { path: ['appearance', 'backgroundColor'], valid: '#1A237E', input: () => promoInput(9001) },
  { path: ['appearance', 'fontColor'], valid: '#FFFFFF', input: () => promoInput(9001) },
  {
    path: ['pinSettings', 'couponCode'],
    valid: 'SAVE-2024',
    input: () => promoInput(9001, { type: 'CODE_OFFLINE', acceptUrl: null, pinSettings: { pinType: 'REUSABLE', displayType: 'TEXT' } }),
  },
  { path: ['fee', 'amount'], valid: '15', input: () => promoInput(9001) },
  { path: ['fee', 'min'], valid: '10', input: () => promoInput(9001, { fee: { amount: null, max: '90' } }) },
  { path: ['fee', 'max'], valid: '90', input: () => promoInput(9001, { fee: { amount: null, min: '10' } }) },
  { path: ['startsAt'], valid: '2099-01-01T09:00:00+03:00', input: () => promoInput(9001) },
  { path: ['endsAt'], valid: '2099-02-01T09:00:00+03:00', input: () => promoInput(9001) },
  { path: ['offerEndsAt'], valid: '2099-03-01T09:00:00+03:00', input: () => promoInput(9001) },
];

/**
 * Sends `mutation` with each bad text at `path`; returns what was not refused by the text rule
 * at exactly that input path, as REQUIRED when nothing was given (empty, blank), FORMAT otherwise.
 */
const textRuleCode = (message: string) => (/^must not be (?:empty|blank)/.test(message) ? 'REQUIRED' : 'FORMAT');

async function misses(mutation: string, name: string, path: string[], multiline: boolean, variables: (bad: string) => Record<string, unknown>, valid: string) {
  const missed: string[] = [];
  for (const bad of badTextFor(multiline)) {
    const { status, body } = await stack.gql(mutation, variables(bad.make(valid)));
    const errors = body.data?.[name]?.userErrors ?? [];
    const match = errors.find((e: { field: string[] | null; code: string; message: string }) => e.code === textRuleCode(e.message) && e.field?.join('.') === path.join('.') && TEXT_RULE_MESSAGE.test(e.message));
    if (status !== 200 || !match) missed.push(`${bad.kind}: HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return missed;
}

describe('the text rule in the BFF, before any backend call', () => {
  for (const c of CAMPAIGN_FIELDS) {
    it(`createCampaign and updateCampaign refuse bad text in input.${c.path.join('.')}`, async () => {
      const path = ['input', ...c.path];
      expect(await misses(CREATE, 'createCampaign', path, !!c.multiline, (bad) => ({ input: put(c.input(), c.path, bad) }), c.valid)).toEqual([]);
      // updateCampaign is keyed by id (campaign 1 of the demo store) and reads the campaign before
      // it writes: bad text is refused before that read too, so no call at all is counted.
      expect(await misses(UPDATE, 'updateCampaign', path, !!c.multiline, (bad) => ({ input: put({ id: cid(1) }, c.path, bad) }), c.valid)).toEqual([]);
      expect(await stack.calls()).toEqual({});
      // The valid value passes the very same checks and reaches the campaign API.
      const { body } = await stack.gql(CREATE, { input: put(c.input(), c.path, c.valid) });
      expect(body.data.createCampaign.userErrors).toEqual([]);
    });
  }

  it('updateCampaign: null clears an optional free-text field and is never blank; null for a required one is refused as required', async () => {
    const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const id = await createCampaign(stack, promoInput(9101, { startsAt: future(10), endsAt: future(40), offerEndsAt: future(50) }));
    await stack.resetCalls();

    // Bad text next to nulls: the text rule names the bad field alone, before any call.
    const mixed = await stack.gql(UPDATE, { input: { id, endsAt: null, offerEndsAt: null, pinSettings: { couponCode: null }, merchant: { name: 'Магазин\u202E' } } });
    expect(mixed.body.data.updateCampaign.campaign).toBeNull();
    expect(mixed.body.data.updateCampaign.userErrors).toEqual([
      { field: ['input', 'merchant', 'name'], code: 'FORMAT', message: expect.stringMatching(TEXT_RULE_MESSAGE) },
    ]);
    // null for a free-text field every campaign has: required, not bad text.
    const required = await stack.gql(UPDATE, { input: { id, merchant: { name: null, domain: null }, conditions: null } });
    expect(required.body.data.updateCampaign.userErrors).toEqual(
      [['merchant', 'domain'], ['merchant', 'name'], ['conditions']].map((f) => ({
        field: ['input', ...f],
        code: 'REQUIRED',
        message: 'is required and cannot be cleared: leave it out to keep the current value',
      })),
    );
    expect(await stack.calls()).toEqual({});

    // null for optional free-text fields clears them; an absent field keeps its value.
    const cleared = await stack.gql(UPDATE, { input: { id, startsAt: null, endsAt: null, offerEndsAt: null, appearance: { backgroundImageUrl: null } } });
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
