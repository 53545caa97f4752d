import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { CREATE, newPartner, oneOffInput, promoInput } from './support.js';
import { numberOf } from '../helpers/ids.js';

/**
 * Issue 11: every message the BFF gives a GraphQL caller (mutation userErrors, top-level errors)
 * speaks the GraphQL API's words. Each mutation is driven with a battery of bad inputs and
 * refused states, the campaign API's own refusals included; no message may name a REST path or
 * operation, a REST enum value (`codeOnline`, `percent` after its field, `840`), a REST-only field,
 * the emulator, or use zod's phrasing. Quoted received values are at most 40 characters.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    emulator: { moderation: { mode: 'manual' } },
    limits: { maxPinsPerMutation: 5 },
    client: { attemptTimeoutMs: 300, budgetMs: 800, backoff: { initialMs: 10, maxMs: 20 }, breaker: { consecutiveFailures: 1000, halfOpenAfterMs: 1000 } },
  });
});
afterAll(() => stack?.close());

const FORBIDDEN: [what: string, pattern: RegExp, only?: RegExp][] = [
  ['a REST path', /\b(?:campaigns|categories)\/[a-z-]+/],
  ['a REST operation', /\b(?:add-pins|get-all-campaigns|get-pins-by-status)\b|\bredeem\b(?!ed)/],
  ['a REST enum value', /\b(?:codeOnline|codeOffline|ImageBanner|one-off|ean_13|new_unused|accepted_by_user|redeem_received|pin-required)\b/],
  [
    'a lower-case REST enum value after its field',
    /\b(?:campaignType|pinType|pinDisplayType|appearanceType|discountType|feeType|cashbackType|redeemStatus|status|supportedPlatforms)\s+(?:promo|banner|code|text|fix|percent|reusable|used|approved|declined|bonus|money|mobile|desktop|moderation|started|paused|finished)\b/,
  ],
  ['a REST kind', /\ban? (?:promo|banner|text|fix|percent|reusable|code) (?:campaign|pin|discount)/],
  ['a numeric currency code', /\b(?:643|840)\b/],
  ['a REST-only field name', /\b(?:ymCampaignId|pinList)\b/],
  [
    'a REST campaign field the GraphQL inputs name otherwise',
    /\b(?:campaignType|campaignStart|campaignEnd|offerDuration|offerEnd|merchantName|merchantDomain|merchantLogoSvg|merchantLogoPng|backgroundImage|discountType|discountAmount|discountCurrency|campaignFeeMin|campaignFeeMax|feeType|pinDisplayType|cashbackType|cashbackConfirmTime)\b/,
  ],
  // Campaign fields that exist in the GraphQL API only inside their group (pinSettings.pinType, fee.amount).
  ['a campaign field outside its group', /(?<![.\w])(?:pinType|couponCode|appearanceType|backgroundColor|fontColor|campaignFee|feeCurrency)\b/, /^(?:createCampaign|updateCampaign|addPins|startCampaign|stopCampaign)/],
  ['a REST error code', /\b(?:incorrectData|repeatCampaignData|campaignNotFound|failPin|failFinished|failModerator|failMerchant)\b/],
  ['the emulator', /emulator/i],
  ['zod phrasing', /\bexpected\b|too small|too big|\binvalid\b|\breceived\b/i],
];

const QUOTED = /"(?:[^"\\]|\\.)*"/g;

interface Said {
  label: string;
  message: string;
}
const said: Said[] = [];

/** Sends a mutation or query and keeps every message of the answer. */
async function drive(label: string, query: string, variables: Record<string, unknown>, token: string): Promise<any> {
  const { body } = await stack.gql(query, variables, token);
  for (const error of body.errors ?? []) said.push({ label: `${label} (top-level ${error.extensions?.code})`, message: error.message });
  for (const payload of Object.values(body.data ?? {}) as any[]) {
    for (const e of payload?.userErrors ?? []) said.push({ label: `${label} ${JSON.stringify(e.field)} ${e.code}`, message: e.message });
  }
  return body;
}

const UPDATE = `mutation ($input: UpdateCampaignInput!) { updateCampaign(input: $input) { campaign { id } userErrors { field message code } } }`;
const START = `mutation ($id: ID!) { startCampaign(id: $id) { campaign { id status } userErrors { field message code } } }`;
const STOP = `mutation ($id: ID!) { stopCampaign(id: $id) { campaign { id status } userErrors { field message code } } }`;
const ADD_PINS = `mutation ($input: AddPinsInput!) { addPins(input: $input) { storedCount userErrors { field message code } } }`;
const REPORT = `mutation ($input: ReportLeadInput!) { reportLead(input: $input) { lead { transactionId } userErrors { field message code } } }`;

let nextId = 20_000;
async function created(token: string, input: Record<string, unknown>): Promise<string> {
  const body = await drive('setup', CREATE, { input: { ...input, partnerCampaignId: input.partnerCampaignId ?? nextId++ } }, token);
  const payload = body.data.createCampaign;
  if (!payload.campaign) throw new Error(`setup create failed: ${JSON.stringify(payload.userErrors)}`);
  return payload.campaign.id;
}

describe('messages speak the GraphQL API\'s words', () => {
  let token: string;
  let other: string;
  beforeAll(async () => {
    token = await newPartner(stack, 'store');
    other = await newPartner(stack, 'store');
    await stack.gql(`{ categories { id } }`, {}, token);
  });

  it('createCampaign: every refusal of the input and of the campaign API', async () => {
    const bad: Record<string, unknown>[] = [
      {
        categoryId: '4242',
        appearance: { backgroundColor: '#FAFAFA' },
        description: 'English only',
        merchant: { domain: 'https://www.shop.example.ru/', logoPngUrl: 'not a url' },
        fee: { min: '1' },
        discount: { amount: '150' },
        endsAt: 'tomorrow',
        supportedPlatforms: [],
      },
      { startsAt: '2026-03-01T09:00:00' },
      { startsAt: '2026-03-01', endsAt: '2026-13-01T00:00:00Z', offerEndsAt: '2026-03-01T09:00Z' },
      { startsAt: '2099-02-01T00:00:00Z', endsAt: '2099-01-01T00:00:00Z' },
      { endsAt: '2001-01-01T00:00:00Z' },
      { offerDurationHours: 0, cashback: { confirmDays: -1 } },
      { offerDurationHours: 100_001, cashback: { confirmDays: 3651 }, partnerCampaignId: -7 },
      { type: 'CODE_ONLINE', acceptUrl: null },
      { type: 'CODE_OFFLINE', acceptUrl: null, pinSettings: { pinType: 'REUSABLE', displayType: 'TEXT' } },
      { type: 'CODE_OFFLINE', acceptUrl: null, pinSettings: { pinType: 'ONE_OFF', displayType: 'TEXT', couponCode: 'NOPE' } },
      { type: 'CODE_OFFLINE', acceptUrl: null, pinSettings: { pinType: 'REUSABLE', displayType: 'EAN_13', couponCode: '123' } },
      { type: 'BANNER' },
      { type: 'BANNER', appearance: { appearanceType: 'IMAGE_BANNER' } },
      { discount: { type: 'PERCENT', amount: '15', currency: 'USD' } },
      { discount: { type: 'TEXT', amount: 'Gift' } },
      { discount: { type: 'FIX', amount: '15.555' } },
      { discount: { type: 'PERCENT', amount: '0' } },
      { fee: { amount: '5', min: '1', max: '2' } },
      { fee: { amount: null, min: '10', max: '5' } },
      { fee: { amount: null, min: '10' } },
      { fee: { amount: '-1' } },
      { merchant: { name: 'М'.repeat(301) }, description: 'Я'.repeat(91), conditions: 'Я'.repeat(513), discount: { type: 'TEXT', amount: 'Я'.repeat(31) } },
      { merchant: { name: '', domain: 'shop\u202E.ru' }, description: '   ', conditions: 'Скидка\u0000' },
      { categoryId: 'x'.repeat(100) },
      { acceptUrl: 'ftp://shop.example.ru', merchant: { logoSvgUrl: `https://${'a'.repeat(300)}.ru/logo.svg` } },
      { appearance: { backgroundColor: 'navy', fontColor: '#FFFFFFF' }, startsAt: 'now' },
    ];
    for (const patch of bad) await drive(`createCampaign ${JSON.stringify(patch).slice(0, 60)}`, CREATE, { input: promoInput(nextId++, patch) }, token);
    // The campaign API's refusal: the same partnerCampaignId with another discount.
    await created(token, promoInput(7005));
    await drive('createCampaign repeat', CREATE, { input: promoInput(7005, { discount: { amount: '20' } }) }, token);
    // A code the contract does not know, and an outage.
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/create', code: 'quotaExceeded' });
    await drive('createCampaign unknown code', CREATE, { input: promoInput(nextId++) }, token);
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/create' });
    await drive('createCampaign outage', CREATE, { input: promoInput(nextId++) }, token);
    await stack.admin('faults', { mode: 'contract', operation: 'campaigns/create' });
    await drive('createCampaign bad answer', CREATE, { input: promoInput(nextId++) }, token);
    await stack.admin('faults', undefined, 'DELETE');
    expect(said.filter((s) => s.label.startsWith('createCampaign')).length).toBeGreaterThan(40);
  });

  it('updateCampaign: the input alone, and the campaign it would leave behind', async () => {
    const promo = await created(token, promoInput(nextId++));
    const oneOff = await created(token, oneOffInput(nextId++));
    const withPins = await created(token, oneOffInput(nextId++));
    await drive('setup', ADD_PINS, { input: { campaignId: withPins, pins: ['P-1', 'P-2'] } }, token);
    const key = (id: string) => ({ id });
    const updates: Record<string, unknown>[] = [
      { id: '999999', merchant: { name: 'Новое имя' } },
      { id: 'x'.repeat(100), merchant: { name: 'Новое имя' } },
      { ...key(promo), discount: { type: 'TEXT' } },
      { ...key(promo), type: 'CODE_ONLINE' },
      { ...key(promo), type: 'BANNER' },
      { ...key(promo), type: 'BANNER', appearance: { appearanceType: 'IMAGE_BANNER' } },
      { ...key(promo), discount: { currency: 'USD' } },
      { ...key(promo), discount: { type: 'FIX', amount: 'много' } },
      { ...key(promo), startsAt: '2099-02-01T00:00:00Z', endsAt: '2099-01-01T00:00:00Z' },
      { ...key(promo), endsAt: '2001-01-01T00:00:00Z' },
      { ...key(promo), fee: { min: '1' } },
      { ...key(promo), categoryId: '999' },
      { ...key(promo), startsAt: '2026-03-01T09:00:00', offerDurationHours: 0 },
      { ...key(oneOff), pinSettings: { pinType: 'REUSABLE' } },
      { ...key(oneOff), pinSettings: { couponCode: 'ONE' } },
      { ...key(oneOff), pinSettings: { displayType: 'EAN_13', pinType: 'REUSABLE', couponCode: '12' } },
      { ...key(withPins), pinSettings: { pinType: 'REUSABLE', couponCode: 'ALL' } },
      { ...key(withPins), type: 'PROMO', acceptUrl: 'https://shop.example.ru/go' },
      // Cleared fields the kind of the campaign left behind requires.
      { ...key(promo), acceptUrl: null },
      { ...key(oneOff), pinSettings: { displayType: null } },
      { ...key(oneOff), pinSettings: null, merchant: null },
    ];
    for (const input of updates) await drive(`updateCampaign ${JSON.stringify(input).slice(0, 80)}`, UPDATE, { input }, token);
    expect(said.filter((s) => s.label.startsWith('updateCampaign')).length).toBeGreaterThan(15);
  });

  it('startCampaign and stopCampaign: every refusal', async () => {
    const moderation = await created(token, promoInput(nextId++));
    const declined = await created(token, promoInput(nextId++));
    await stack.admin('moderate', { ymCampaignId: numberOf(declined), decision: 'decline', reason: 'Нет логотипа' });
    const noPins = await created(token, oneOffInput(nextId++));
    await stack.admin('moderate', { ymCampaignId: numberOf(noPins), decision: 'approve' });
    const now = Date.parse((await stack.admin('clock')).now);
    const ending = await created(token, promoInput(nextId++, { endsAt: new Date(now + 3_600_000).toISOString() }));
    await stack.admin('moderate', { ymCampaignId: numberOf(ending), decision: 'approve' });
    await stack.admin('clock', { advanceMs: 2 * 3_600_000 });
    const foreign = await created(other, promoInput(nextId++));
    for (const id of [moderation, declined, noPins, ending, foreign, '999999', 'abc', 'y'.repeat(100), '01']) {
      await drive(`startCampaign ${id.slice(0, 20)}`, START, { id }, token);
      await drive(`stopCampaign ${id.slice(0, 20)}`, STOP, { id }, token);
    }
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/start', code: 'failPin' });
    await drive('startCampaign failPin without a status', START, { id: moderation }, token);
    await stack.admin('faults', { mode: 'hang', operation: 'campaigns/stop' });
    await drive('stopCampaign hang', STOP, { id: moderation }, token);
    await stack.admin('faults', undefined, 'DELETE');
    expect(said.filter((s) => /^(start|stop)Campaign/.test(s.label)).length).toBeGreaterThan(15);
  });

  it('addPins: every refusal', async () => {
    const promo = await created(token, promoInput(nextId++));
    const reusable = await created(token, oneOffInput(nextId++, { pinSettings: { pinType: 'REUSABLE', couponCode: 'ALL' } }));
    const ean = await created(token, oneOffInput(nextId++, { pinSettings: { displayType: 'EAN_13' } }));
    const text = await created(token, oneOffInput(nextId++));
    const cases: [string, string[]][] = [
      [text, []],
      [text, ['A', 'B', 'C', 'D', 'E', 'F']],
      [promo, ['A']],
      [reusable, ['A']],
      [ean, ['123', 'abcdefghijklm', '4600000009991']],
      [text, [' LEADING', 'X'.repeat(256), 'OK', 'a\tb', '\uD800']],
      ['999999', ['A']],
      ['abc', ['A']],
    ];
    for (const [campaignId, pins] of cases) await drive(`addPins ${campaignId} ${JSON.stringify(pins).slice(0, 40)}`, ADD_PINS, { input: { campaignId, pins } }, token);
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/add-pins', code: 'incorrectData' });
    await drive('addPins refused chunk', ADD_PINS, { input: { campaignId: text, pins: ['Q-1'] } }, token);
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/add-pins' });
    await drive('addPins outage', ADD_PINS, { input: { campaignId: text, pins: ['Q-2'] } }, token);
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/info', code: 'campaignNotFound' });
    await drive('addPins info refused', ADD_PINS, { input: { campaignId: text, pins: ['Q-3'] } }, token);
    await stack.admin('faults', undefined, 'DELETE');
    expect(said.filter((s) => s.label.startsWith('addPins')).length).toBeGreaterThan(12);
  });

  it('reportLead: every refusal of the input, the kind and the campaign API', async () => {
    const aggregator = await newPartner(stack, 'aggregator');
    const promo = await created(aggregator, promoInput(nextId++));
    const oneOff = await created(aggregator, oneOffInput(nextId++));
    await drive('setup', ADD_PINS, { input: { campaignId: oneOff, pins: ['PIN-1', 'PIN-2'] } }, aggregator);
    const { clickId } = await stack.admin('accept', { ymCampaignId: numberOf(promo) });
    const { clickId: second } = await stack.admin('accept', { ymCampaignId: numberOf(promo) });
    const leads: Record<string, unknown>[] = [
      { campaignId: oneOff, transactionId: 't1', campaignFee: '1.00' },
      { campaignId: oneOff, transactionId: 't1', campaignFee: '1.00', pinContent: 'NOPE' },
      { campaignId: oneOff, transactionId: 't1', campaignFee: '1.00', pinContent: 'PIN-2' },
      { campaignId: promo, transactionId: 't1', campaignFee: '1.00' },
      { campaignId: promo, transactionId: 't1', campaignFee: '1.00', clickId: 'unknown-click' },
      { campaignId: promo, transactionId: 't2', campaignFee: '1.001', orderAmount: '-5', cashbackAmount: 'abc', clickId },
      { campaignId: promo, transactionId: 'x'.repeat(37), campaignFee: '1.00', clickId, redeemTime: '2026-03-01T12:00:00' },
      { campaignId: promo, transactionId: 't3', campaignFee: '1.00', clickId, redeemStatus: 'APPROVED' },
      { campaignId: promo, transactionId: 't3', campaignFee: '1.00', clickId, redeemStatus: 'USED' },
      { campaignId: promo, transactionId: 't3', campaignFee: '1.00', clickId: second },
      { campaignId: promo, transactionId: 't4', campaignFee: '1.00', clickId },
      { campaignId: promo, transactionId: '', campaignFee: '', sceneRedeem: '\u202E', viewId: ' ', clickId },
      { campaignId: '999999', transactionId: 't1', campaignFee: '1.00' },
      { campaignId: 'abc', transactionId: 't1', campaignFee: '1.00' },
    ];
    for (const input of leads) await drive(`reportLead ${JSON.stringify(input).slice(0, 80)}`, REPORT, { input }, aggregator);
    await stack.admin('faults', { mode: 'malformed', operation: 'campaigns/redeem' });
    await drive('reportLead bad answer', REPORT, { input: { campaignId: promo, transactionId: 't9', campaignFee: '1.00', clickId: second } }, aggregator);
    await stack.admin('faults', undefined, 'DELETE');
    expect(said.filter((s) => s.label.startsWith('reportLead')).length).toBeGreaterThan(12);
  });

  it('queries: every refused argument and backend refusal', async () => {
    const queries: [string, Record<string, unknown>][] = [
      [`query ($after: String) { campaigns(first: 2, after: $after) { totalCount } }`, { after: 'z'.repeat(100) }],
      [`{ campaigns(first: 1001) { totalCount } }`, {}],
      [`{ campaignsByIds(ids: [${Array.from({ length: 101 }, (_, i) => `"${i + 1}"`).join(',')}]) { id } }`, {}],
      [`{ campaigns(first: 1) { nodes { card { discountLabel(locale: "not a locale") } } } }`, {}],
    ];
    for (const [query, variables] of queries) await drive(`query ${query.slice(0, 40)}`, query, variables, 'demo-store-token');
    await stack.admin('faults', { mode: 'error200', operation: 'campaigns/get', code: 'failMerchant' });
    await drive('query refused read', `{ campaign(id: "1") { id description } }`, {}, 'demo-store-token');
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/info' });
    await drive('query outage', `{ campaign(id: "1") { stats { shows } } }`, {}, 'demo-store-token');
    await stack.admin('faults', undefined, 'DELETE');
    expect(said.filter((s) => s.label.startsWith('query')).length).toBeGreaterThan(5);
  });

  it('no message names REST-only vocabulary, the emulator or zod, and quoted values are at most 40 characters', () => {
    const problems: string[] = [];
    for (const { label, message } of said) {
      const unquoted = message.replace(QUOTED, '""');
      for (const [what, pattern, only] of FORBIDDEN) if ((!only || only.test(label)) && pattern.test(unquoted)) problems.push(`${label}: ${what} in ${JSON.stringify(message)}`);
      for (const quoted of message.match(QUOTED) ?? []) {
        let inner: string;
        try {
          inner = JSON.parse(quoted);
        } catch {
          continue; // a quotation mark inside the text, not a quoted value
        }
        const length = [...inner].length;
        if (length > 41 || (length === 41 && !inner.endsWith('…'))) problems.push(`${label}: a quoted value of ${length} characters in ${JSON.stringify(message)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(said.length).toBeGreaterThan(100);
  });

  it('says what is wrong, in the GraphQL API\'s values', () => {
    const find = (label: RegExp, field: string) => said.filter((s) => s.label.startsWith('createCampaign') || s.label.startsWith('updateCampaign')).filter((s) => label.test(s.label) && s.label.includes(`"${field}"]`)).map((s) => s.message);
    expect(find(/^createCampaign \{"startsAt":"2026-03-01T09:00:00"/, 'startsAt')).toEqual([expect.stringMatching(/^"2026-03-01T09:00:00" lacks a time-zone offset: a timestamp here needs one, such as 2026-03-01T09:00:00\+03:00, or Z for UTC$/)]);
    expect(new Set(find(/"currency":"USD"/, 'currency'))).toEqual(new Set(['only discount.type FIX allows discount.currency USD, got discount.type PERCENT']));
    expect(find(/"type":"CODE_ONLINE","acceptUrl":null/, 'pinType')).toEqual(['is required for type CODE_ONLINE']);
    expect(find(/^createCampaign .*"offerDurationHours":0/, 'offerDurationHours')).toEqual(['must be greater than 0, got 0']);
    expect(find(/^updateCampaign .*"offerDurationHours":0/, 'offerDurationHours')).toEqual(['must be greater than 0, got 0']);
    expect(find(/"endsAt":"2001/, 'endsAt')[0]).toMatch(/^must be in the future: "2001-01-01T00:00:00Z" has passed \(it is now /);
    expect(find(/createCampaign repeat/, 'amount')[0]).toMatch(/change the discount with updateCampaign$/);
    expect(find(/"pinType":"REUSABLE","couponCode":"ALL"/, 'pinType')).toEqual(['cannot change while the campaign holds 2 ONE_OFF pins']);
    expect(find(/^updateCampaign .*"acceptUrl":null/, 'acceptUrl')).toEqual(['is required for type PROMO']);
    expect(find(/^updateCampaign .*"displayType":null/, 'displayType')).toEqual(['is required for type CODE_OFFLINE']);
    expect(find(/^updateCampaign .*"pinSettings":null,"merchant":null/, 'merchant')).toEqual(['is required and cannot be cleared: leave it out to keep the current values']);
    expect(find(/^createCampaign .*"backgroundColor":"navy"/, 'backgroundColor')).toEqual(['must be a colour written #RGB or #RRGGBB, got "navy"']);
    expect(find(/^updateCampaign \{"id":"x{40}/, 'id')).toEqual([`no campaign has id "${'x'.repeat(40)}…"; pass a Campaign.id`]);
    expect(said.map((s) => s.message)).toContainEqual(expect.stringMatching(/^pins can be added only to CODE_ONLINE or CODE_OFFLINE campaigns with pinSettings.pinType ONE_OFF; campaign \d+ is a PROMO campaign$/));

  });
});
