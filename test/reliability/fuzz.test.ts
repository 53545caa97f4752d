import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from './fuzz-documents.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { newPartner } from '../graphql/support.js';
import { DARK, NEAR_VALID, STRING_FIELDS, cyrillicText, flatPromo, hostileString, money, nest, validCreate, variants } from './fuzz-values.js';
import { expectNothingInternal, rest, restCampaignIds, restInfo, restPins, settle, trackUnhandledRejections } from './support.js';
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
