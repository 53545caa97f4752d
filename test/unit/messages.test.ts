import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { PARSE_OPTIONS } from '../../src/campaign-api/index.js';
import { quote } from '../../src/text/received-value.js';
import { inGraphQLTerms } from '../../src/campaigns/vocabulary.js';
import { INPUT_NAMES } from '../../src/campaigns/mutations/input-fields.js';

describe('quote', () => {
  it('quotes at most 40 characters, ends a cut value with an ellipsis and never splits a character', () => {
    expect(quote('short')).toBe('"short"');
    expect(quote('x'.repeat(40))).toBe(`"${'x'.repeat(40)}"`);
    expect(quote('x'.repeat(41))).toBe(`"${'x'.repeat(40)}…"`);
    expect(quote('😀'.repeat(41))).toBe(`"${'😀'.repeat(40)}…"`);
  });

  it('writes what the text rule refuses as escapes, so a message is always plain text', () => {
    expect(quote('a\u0000b\u202Ec\uD800d\u0085')).toBe('"a\\u0000b\\u202ec\\ud800d\\u0085"');
    expect(quote('\u{10FFFF}')).toBe('"\\udbff\\udfff"');
  });
});

describe('inGraphQLTerms', () => {
  it('puts operation paths, enum values after their field, REST-only values and fields into GraphQL words', () => {
    expect(inGraphQLTerms('takes pins only for campaignType codeOnline or codeOffline with pinType one-off; upload with campaigns/add-pins')).toBe(
      'takes pins only for campaignType CODE_ONLINE or CODE_OFFLINE with pinType ONE_OFF; upload with addPins',
    );
    expect(inGraphQLTerms('only discountType fix allows discountCurrency 840, got discountType percent')).toBe(
      'only discountType FIX allows discountCurrency USD, got discountType PERCENT',
    );
    expect(inGraphQLTerms('no campaign with ymCampaignId 5 (status new_unused); see categories/get')).toBe('no campaign with id 5 (status NEW_UNUSED); see the categories query');
  });

  it('names the REST fields of a campaign as the inputs do, with the enum value after them', () => {
    expect(inGraphQLTerms('only discountType fix allows discountCurrency 840, got discountType percent', INPUT_NAMES)).toBe(
      'only discount.type FIX allows discount.currency USD, got discount.type PERCENT',
    );
    expect(inGraphQLTerms('either campaignFee or both campaignFeeMin and campaignFeeMax are required', INPUT_NAMES)).toBe(
      'either fee.amount or both fee.min and fee.max are required',
    );
    expect(inGraphQLTerms('is required for campaignType codeOnline; campaignStart "campaignEnd"', INPUT_NAMES)).toBe('is required for type CODE_ONLINE; startsAt "campaignEnd"');
  });

  it('leaves plain words and quoted values alone', () => {
    expect(inGraphQLTerms('a text pin is used, got "discountType fix codeOnline campaigns/get"')).toBe('a text pin is used, got "discountType fix codeOnline campaigns/get"');
    expect(inGraphQLTerms('pinType is required')).toBe('pinType is required');
  });
});

describe('the contract\'s issue messages', () => {
  const schema = z.object({
    at: z.iso.datetime({ offset: true }),
    n: z.number().int().positive().max(10),
    s: z.string().min(1).max(3),
    currency: z.union([z.literal(643), z.literal(840)]),
    kind: z.enum(['a', 'b']),
    missing: z.string(),
  });

  it('state the contract and what came, never in zod\'s words', () => {
    const parsed = schema.safeParse({ at: '2026-03-01T09:00:00', n: 1.5, s: 'abcd', currency: 978, kind: 'c' }, PARSE_OPTIONS);
    const messages = Object.fromEntries(parsed.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(messages).toEqual({
      at: '"2026-03-01T09:00:00" lacks a time-zone offset: a timestamp here needs one, such as 2026-03-01T09:00:00+03:00, or Z for UTC',
      n: 'must be a whole number, got 1.5',
      s: 'must be at most 3 characters, got 4',
      currency: 'must be one of 643, 840, got 978',
      kind: 'must be one of a, b, got "c"',
      missing: 'is required',
    });
    const bounds = schema.shape.n.safeParse(0, PARSE_OPTIONS);
    expect(bounds.error!.issues[0]!.message).toBe('must be greater than 0, got 0');
  });
});
