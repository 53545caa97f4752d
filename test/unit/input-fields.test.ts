import { describe, expect, it } from 'vitest';
import { INPUT_PATHS, flattenInput, inputPath } from '../../src/campaigns/mutations/input-fields.js';
import { campaignFieldShape } from '../../src/campaign-api/index.js';

/** The one map between the campaign inputs (the output's names and groups) and the REST fields. */
describe('campaign input fields', () => {
  it('places every writable REST field once, under a distinct input path', () => {
    expect(Object.keys(INPUT_PATHS).sort()).toEqual(Object.keys(campaignFieldShape).sort());
    const paths = Object.values(INPUT_PATHS).map((p) => p.join('.'));
    expect(new Set(paths).size).toBe(paths.length);
    expect(inputPath(['merchantLogoPng'])).toEqual(['merchant', 'logoPngUrl']);
    expect(inputPath(['pinList', '3'])).toEqual(['pinList', '3']);
  });

  it('flattens groups; a field left out stays out at every level; null is kept, a null group clears or is refused', () => {
    expect(flattenInput({ type: 'PROMO', merchant: { name: 'X' }, fee: { amount: '5', min: null }, startsAt: undefined })).toEqual({
      fields: { campaignType: 'PROMO', merchantName: 'X', campaignFee: '5', campaignFeeMin: null },
      unclearable: [],
    });
    expect(flattenInput({ pinSettings: null, cashback: null, merchant: null, discount: null, description: null })).toEqual({
      fields: { description: null, pinType: null, pinDisplayType: null, couponCode: null, cashbackType: null, cashbackConfirmTime: null },
      unclearable: [['merchant'], ['discount']],
    });
    // Keys no input type has are never read, whatever an object carries.
    expect(flattenInput(JSON.parse('{"__proto__": {"merchantName": "x"}, "merchantName": "y", "merchant": {"logoPng": "z"}}'))).toEqual({ fields: {}, unclearable: [] });
  });
});
