import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { CREATE, promoInput } from './support.js';

/**
 * A value the resolvers quote back in a message (user errors, argument errors) is cut to 40
 * characters, and a cut value ends with "…" so the reader knows there was more (SECURITY.md).
 */
const LONG = `${'9'.repeat(40)}x${'y'.repeat(10_000)}`;
const SHOWN = `"${'9'.repeat(40)}…"`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

describe('values quoted in messages', () => {
  it.each([
    ['startCampaign', 'mutation($id: ID!) { startCampaign(id: $id) { userErrors { message } } }', { id: LONG }, (d: any) => d.startCampaign.userErrors[0].message],
    ['stopCampaign', 'mutation($id: ID!) { stopCampaign(id: $id) { userErrors { message } } }', { id: LONG }, (d: any) => d.stopCampaign.userErrors[0].message],
    ['addPins', 'mutation($input: AddPinsInput!) { addPins(input: $input) { userErrors { message } } }', { input: { campaignId: LONG, pins: ['A'] } }, (d: any) => d.addPins.userErrors[0].message],
    [
      'addPins on an ean_13 campaign',
      'mutation($input: AddPinsInput!) { addPins(input: $input) { userErrors { message } } }',
      // Campaign 6 of the store fixtures takes ean_13 pins.
      { input: { campaignId: '6', pins: [LONG] } },
      (d: any) => d.addPins.userErrors[0].message,
    ],
    [
      'reportLead',
      'mutation($input: ReportLeadInput!) { reportLead(input: $input) { userErrors { message } } }',
      { input: { campaignId: LONG, transactionId: 't-1', campaignFee: '1' } },
      (d: any) => d.reportLead.userErrors[0].message,
    ],
    ['createCampaign', CREATE, { input: promoInput(1, { categoryId: LONG }) }, (d: any) => d.createCampaign.userErrors[0].message],
  ])('%s quotes at most 40 characters of the value, then "…"', async (_name, query, variables, message) => {
    const { body } = await stack.gql(query, variables);
    expect(body.errors).toBeUndefined();
    expect(message(body.data)).toContain(SHOWN);
  });

  it('discountLabel(locale) quotes at most 40 characters of the locale, then "…"', async () => {
    const { body } = await stack.gql('query($l: String) { campaign(id: "1") { card { discountLabel(locale: $l) } } }', { l: LONG });
    expect(body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors![0].message).toContain(SHOWN);
  });
});
