import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * What a request with bad variables (or a bad literal) gets back, over HTTP, in both modes and on
 * both paths: the first request of a document goes through Apollo, the same request again goes to
 * the compiled path first. Production names no schema element the caller did not name
 * (no "Did you mean"), and no message quotes more than 40 characters of what it received.
 */
const X40 = 'x'.repeat(40);
const MILLION = 'x'.repeat(1_000_000);

/** Every quoted span of a message: at most 40 characters, or 40 and "…" when cut. */
function quotesAreShort(message: string): void {
  for (const [, inner] of message.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    const units = inner!.match(/\\u[0-9a-fA-F]{4}|\\[^]|[^]/gu) ?? [];
    const cut = units.length === 41 && units[40] === '…';
    expect(units.length <= 40 || cut, `quoted span of ${units.length} characters in ${message.slice(0, 300)}`).toBe(true);
  }
}

const ADD_PINS = 'mutation($input: AddPinsInput!) { addPins(input: $input) { storedCount } }';
const REPORT = 'mutation($input: ReportLeadInput!) { reportLead(input: $input) { lead { transactionId } } }';
const BY_STATUS = 'query($s: CampaignStatus) { campaigns(first: 1, status: $s) { totalCount } }';
const FIRST = 'query($n: Int) { campaigns(first: $n) { totalCount } }';
const BY_IDS = 'query($ids: [ID!]!) { campaignsByIds(ids: $ids) { id } }';
const LEAD = { campaignId: '1', transactionId: 't-1', campaignFee: '1' };

describe.each(['development', 'production'] as const)('variable errors in %s', (mode) => {
  let stack: Stack;
  const log = captureLogs();
  const lines = log.entries;
  let n = 0;

  beforeAll(async () => {
    stack = await startStack({
      env: mode === 'production' ? { NODE_ENV: 'production', CAMPAIGN_API_URL: 'http://127.0.0.1:1' } : {},
      logger: log.logger,
    });
  });
  afterAll(() => stack?.close());

  async function send(query: string, variables?: Record<string, unknown>) {
    const requestId = `${mode}-${++n}`;
    const response = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-store-token', 'x-request-id': requestId },
      body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as any, path: lines.find((l) => l.requestId === requestId)?.path };
  }

  /** The same request twice: Apollo's path, then the compiled path's turn. Both answers must match. */
  async function twice(query: string, variables?: Record<string, unknown>) {
    const first = await send(query, variables);
    const second = await send(query, variables);
    expect(second.status).toBe(first.status);
    expect(second.text).toBe(first.text);
    return [first, second] as const;
  }

  it('quotes 40 characters of a 1,000,000-character string sent for an Int, on both paths', async () => {
    // Registered with valid variables, so the bad ones below meet the compiled path first.
    expect((await send(FIRST, { n: 1 })).status).toBe(200);
    expect((await send(FIRST, { n: 1 })).path).toBe('compiled');
    for (const answer of await twice(FIRST, { n: MILLION })) {
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(400);
      expect(answer.body.errors).toEqual([
        {
          message: `Variable "$n" got invalid value "${X40}…"; Int cannot represent non-integer value: "${X40}…"`,
          locations: [{ line: 1, column: 7 }],
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ]);
    }
  });

  it.each([
    ['a value inside an input object', ADD_PINS, { input: { campaignId: { id: MILLION }, pins: ['A'] } }, 'at "input.campaignId"'],
    ['a list item', ADD_PINS, { input: { campaignId: '1', pins: ['A', [MILLION]] } }, 'at "input.pins[1]"'],
    ['a string in a nested list', BY_IDS, { ids: [[[MILLION, MILLION]]] }, 'at "ids[0]"'],
    ['an enum value inside an input object', REPORT, { input: { ...LEAD, redeemStatus: MILLION } }, 'does not exist in "RedeemStatus" enum'],
    ['an enum value with quotes and backslashes', BY_STATUS, { s: 'a"b\\c'.repeat(100_000) }, 'does not exist in "CampaignStatus" enum'],
    ['an unknown key of a nested input object', REPORT, { input: { ...LEAD, bonusDescription: { [`k${MILLION}`]: 1 } } }, 'is not defined by type "BonusDescriptionInput"'],
    ['an unknown key made of quotes', ADD_PINS, { input: { campaignId: '1', pins: ['A'], ['"'.repeat(1000)]: 1 } }, 'is not defined by type "AddPinsInput"'],
    ['a long list for a scalar', FIRST, { n: Array.from({ length: 10_000 }, () => 'y'.repeat(100)) }, 'Int cannot represent'],
    ['a deeply nested list for an ID', BY_IDS, { ids: JSON.parse(`${'['.repeat(500)}"id"${']'.repeat(500)}`) }, 'at "ids[0]"'],
  ])('cuts %s to a short quote, on both paths', async (_name, query, variables, says) => {
    for (const answer of await twice(query, variables)) {
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(600);
      const [error] = answer.body.errors;
      expect(error.extensions.code).toBe('BAD_USER_INPUT');
      expect(error.message).toContain(says);
      expect(error.message).toContain('…');
      quotesAreShort(error.message);
    }
  });

  it.each([
    ['a string literal for an Int', `{ campaigns(first: "${MILLION}") { totalCount } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['a list literal for an Int', `{ campaigns(first: [${'1, '.repeat(2000)}1]) { totalCount } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['a block string literal with quotes', `{ campaigns(first: """${'a"b '.repeat(100_000)}""") { totalCount } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['an unknown field with a long name', `{ ${'f'.repeat(100_000)} }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['an unexpected string token', `{ campaigns(first: 1 "${'s\\" '.repeat(100_000)}") { totalCount } }`, 'GRAPHQL_PARSE_FAILED'],
    ['an unexpected name token', `{ categories { id } } ${'n'.repeat(100_000)}`, 'GRAPHQL_PARSE_FAILED'],
  ])('cuts what it echoes of the document: %s', async (_name, query, code) => {
    const answer = await send(query);
    expect(answer.status).toBe(400);
    expect(answer.text.length).toBeLessThan(400);
    expect(answer.body.errors[0].extensions.code).toBe(code);
    expect(answer.body.errors[0].message).toContain('…');
    quotesAreShort(answer.body.errors[0].message);
  });

  // What each request would be told in development, and must not be in production.
  it.each([
    ['an enum variable', BY_STATUS, { s: 'STARTE' }, 'STARTED'],
    ['an unknown input field in a variable', ADD_PINS, { input: { campaignId: '1', pins: ['A'], pinz: ['B'] } }, '"pins"'],
    ['an enum inside an input variable', REPORT, { input: { ...LEAD, redeemStatus: 'APPROVE' } }, 'APPROVED'],
    ['an unknown field of a nested input variable', REPORT, { input: { ...LEAD, bonusDescription: { categori: 'x' } } }, '"category"'],
    ['an enum literal', '{ campaigns(first: 1, status: STARTE) { totalCount } }', undefined, 'STARTED'],
    ['an input field literal', 'mutation { addPins(input: { campaignId: "1", pins: [], pinz: [] }) { storedCount } }', undefined, '"pins"'],
    ['a field', '{ campaignz(first: 1) { totalCount } }', undefined, '"campaigns"'],
    ['an argument', '{ campaigns(firs: 1) { totalCount } }', undefined, '"first"'],
    ['a type', 'query($s: CampaignStatu) { campaigns(first: 1, status: $s) { totalCount } }', { s: 'STARTED' }, '"CampaignStatus"'],
  ])(`${mode === 'production' ? 'suggests nothing' : 'suggests the name'} for %s, on both paths`, async (_name, query, variables, suggestion) => {
    for (const answer of await twice(query, variables)) {
      expect(answer.status).toBe(400);
      const { message } = answer.body.errors[0];
      if (mode === 'production') {
        expect(message).not.toMatch(/Did you mean/);
        expect(message).not.toContain(suggestion);
      } else {
        expect(message).toMatch(/Did you mean/);
        expect(message).toContain(suggestion);
      }
    }
  });

  it('still answers valid variables of the same documents on the compiled path', async () => {
    await send(BY_STATUS, { s: 'STARTED' });
    const again = await send(BY_STATUS, { s: 'STARTED' });
    expect(again.status).toBe(200);
    expect(again.path).toBe('compiled');
  });
});
