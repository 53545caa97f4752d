import { describe, expect, it } from 'vitest';
import { AGGREGATOR, DAY, campaignBody, create, isoIn, reusableBody, startedCampaign, useEmulator, type Kind } from './support.js';

interface Rule {
  rule: string;
  kind?: Kind;
  /** Overrides that break the rule, and the field the error must name. */
  bad: Record<string, unknown>;
  field: string;
  /** Overrides that satisfy it. */
  good: Record<string, unknown>;
}

const long = (n: number) => 'Ж'.repeat(n);

/** Every field rule of reference 2.1 and design 4.12, with a failing and a passing case. */
const rules: Rule[] = [
  { rule: 'partnerCampaignId is a positive integer', bad: { partnerCampaignId: 0 }, field: 'partnerCampaignId', good: { partnerCampaignId: 777_001 } },
  { rule: 'categoryId is a category of the directory', bad: { categoryId: 999 }, field: 'categoryId', good: { categoryId: 12 } },
  { rule: 'campaignType is one of the writable kinds', bad: { campaignType: 'code' }, field: 'campaignType', good: { campaignType: 'promo' } },
  { rule: 'merchantName at most 300', bad: { merchantName: long(301) }, field: 'merchantName', good: { merchantName: long(300) } },
  { rule: 'merchantName not empty', bad: { merchantName: '' }, field: 'merchantName', good: { merchantName: 'М' } },
  { rule: 'description at most 90', bad: { description: long(91) }, field: 'description', good: { description: long(90) } },
  { rule: 'description in Russian', bad: { description: 'Big sale' }, field: 'description', good: { description: 'Big sale — скидка' } },
  { rule: 'conditions at most 512', bad: { conditions: long(513) }, field: 'conditions', good: { conditions: long(512) } },
  { rule: 'conditions in Russian', bad: { conditions: 'Orders over 1000' }, field: 'conditions', good: { conditions: 'Заказ от 1000' } },
  { rule: 'merchantLogoSvg is an http(s) URL', bad: { merchantLogoSvg: 'logo.svg' }, field: 'merchantLogoSvg', good: { merchantLogoSvg: 'http://cdn.example.ru/l.svg' } },
  { rule: 'merchantLogoSvg at most 300', bad: { merchantLogoSvg: `https://a.ru/${'x'.repeat(290)}` }, field: 'merchantLogoSvg', good: { merchantLogoSvg: `https://a.ru/${'x'.repeat(280)}` } },
  { rule: 'merchantLogoPng is an http(s) URL', bad: { merchantLogoPng: 'ftp://a.ru/l.png' }, field: 'merchantLogoPng', good: { merchantLogoPng: 'https://a.ru/l.png' } },
  { rule: 'colours are #RGB or #RRGGBB', bad: { backgroundColor: 'navy' }, field: 'backgroundColor', good: { backgroundColor: '#000080' } },
  { rule: 'fontColor is a colour', bad: { fontColor: '#GGG' }, field: 'fontColor', good: { fontColor: '#FFF' } },
  { rule: 'backgroundColor is not light', bad: { backgroundColor: '#F0F0F0', fontColor: '#000000' }, field: 'backgroundColor', good: { backgroundColor: '#303030', fontColor: '#FFFFFF' } },
  { rule: 'fontColor contrasts (WCAG 4.5:1)', bad: { backgroundColor: '#333333', fontColor: '#555555' }, field: 'fontColor', good: { backgroundColor: '#333333', fontColor: '#EEEEEE' } },
  { rule: 'merchantDomain without scheme', bad: { merchantDomain: 'https://shop.ru' }, field: 'merchantDomain', good: { merchantDomain: 'shop.ru' } },
  { rule: 'merchantDomain without www.', bad: { merchantDomain: 'www.shop.ru' }, field: 'merchantDomain', good: { merchantDomain: 'm.shop.ru' } },
  { rule: 'merchantDomain without trailing slash', bad: { merchantDomain: 'shop.ru/' }, field: 'merchantDomain', good: { merchantDomain: 'shop.ru' } },
  { rule: 'percent discount in (0, 100]', bad: { discountType: 'percent', discountAmount: '101' }, field: 'discountAmount', good: { discountType: 'percent', discountAmount: '100' } },
  { rule: 'percent discount above 0', bad: { discountType: 'percent', discountAmount: '0' }, field: 'discountAmount', good: { discountType: 'percent', discountAmount: '0.5' } },
  { rule: 'fix discount is money', bad: { discountType: 'fix', discountAmount: '10.999' }, field: 'discountAmount', good: { discountType: 'fix', discountAmount: '10.99' } },
  { rule: 'text discount in Russian', bad: { discountType: 'text', discountAmount: 'Gift' }, field: 'discountAmount', good: { discountType: 'text', discountAmount: 'Подарок' } },
  { rule: 'discountAmount at most 30', bad: { discountType: 'text', discountAmount: long(31) }, field: 'discountAmount', good: { discountType: 'text', discountAmount: long(30) } },
  { rule: 'discountType is text, fix or percent', bad: { discountType: 'bogo' }, field: 'discountType', good: { discountType: 'fix', discountAmount: '100' } },
  { rule: 'discountCurrency 840 only with fix', bad: { discountCurrency: 840 }, field: 'discountCurrency', good: { discountCurrency: 840, discountType: 'fix', discountAmount: '5' } },
  { rule: 'discountCurrency is 643 or 840', bad: { discountCurrency: 978 }, field: 'discountCurrency', good: { discountCurrency: 643 } },
  { rule: 'campaignFee is money (two decimals)', bad: { campaignFee: '5.555' }, field: 'campaignFee', good: { campaignFee: '5.55' } },
  { rule: 'campaignFee non-negative', bad: { campaignFee: '-1' }, field: 'campaignFee', good: { campaignFee: '0' } },
  { rule: 'a fee form is required', bad: { campaignFee: undefined }, field: 'campaignFee', good: { campaignFee: undefined, campaignFeeMin: '1', campaignFeeMax: '2' } },
  { rule: 'not both fee forms', bad: { campaignFeeMin: '1', campaignFeeMax: '2' }, field: 'campaignFee', good: { campaignFee: '3' } },
  { rule: 'campaignFeeMin and campaignFeeMax go together', bad: { campaignFee: undefined, campaignFeeMin: '1' }, field: 'campaignFeeMax', good: { campaignFee: undefined, campaignFeeMin: '1', campaignFeeMax: '1' } },
  { rule: 'campaignFeeMin ≤ campaignFeeMax', bad: { campaignFee: undefined, campaignFeeMin: '9', campaignFeeMax: '2' }, field: 'campaignFeeMin', good: { campaignFee: undefined, campaignFeeMin: '2', campaignFeeMax: '9' } },
  { rule: 'feeType is percent or fix', bad: { feeType: 'cpa' }, field: 'feeType', good: { feeType: 'fix' } },
  { rule: 'feeCurrency is a currency code', bad: { feeCurrency: 'RUB' }, field: 'feeCurrency', good: { feeCurrency: 840 } },
  { rule: 'campaignEnd after campaignStart', bad: { campaignStart: '2099-02-01T00:00:00Z', campaignEnd: '2099-01-01T00:00:00Z' }, field: 'campaignEnd', good: { campaignStart: '2099-01-01T00:00:00Z', campaignEnd: '2099-02-01T00:00:00Z' } },
  { rule: 'dates are ISO 8601 with an offset', bad: { campaignStart: '01.02.2099' }, field: 'campaignStart', good: { campaignStart: '2099-02-01T10:00:00+03:00' } },
  { rule: 'campaignEnd has not passed (emulator clock)', bad: { campaignEnd: '2001-01-01T00:00:00Z' }, field: 'campaignEnd', good: { campaignEnd: '2099-01-01T00:00:00Z' } },
  { rule: 'offerDuration is whole hours', bad: { offerDuration: 1.5 }, field: 'offerDuration', good: { offerDuration: 48 } },
  { rule: 'supportedPlatforms are mobile and/or desktop', bad: { supportedPlatforms: 'tv' }, field: 'supportedPlatforms', good: { supportedPlatforms: 'mobile,desktop' } },
  { rule: 'cashbackType is bonus or money', bad: { cashbackType: 'miles' }, field: 'cashbackType', good: { cashbackType: 'money' } },
  { rule: 'cashbackConfirmTime is whole days', bad: { cashbackConfirmTime: -1 }, field: 'cashbackConfirmTime', good: { cashbackConfirmTime: 30 } },
  { rule: 'acceptUrl required for promo', bad: { acceptUrl: undefined }, field: 'acceptUrl', good: {} },
  { rule: 'acceptUrl required for banner', kind: 'banner', bad: { acceptUrl: undefined }, field: 'acceptUrl', good: {} },
  { rule: 'acceptUrl required for codeOnline', kind: 'codeOnline', bad: { acceptUrl: undefined }, field: 'acceptUrl', good: {} },
  { rule: 'acceptUrl is not required for codeOffline', kind: 'codeOffline', bad: { acceptUrl: 'nope' }, field: 'acceptUrl', good: { acceptUrl: undefined } },
  { rule: 'appearanceType required for banner', kind: 'banner', bad: { appearanceType: undefined }, field: 'appearanceType', good: {} },
  { rule: 'appearanceType is ImageBanner', kind: 'banner', bad: { appearanceType: 'Video' }, field: 'appearanceType', good: { appearanceType: 'ImageBanner' } },
  { rule: 'backgroundImage required for an ImageBanner', kind: 'banner', bad: { backgroundImage: undefined }, field: 'backgroundImage', good: {} },
  { rule: 'pinType required for code campaigns', kind: 'codeOnline', bad: { pinType: undefined }, field: 'pinType', good: {} },
  { rule: 'pinDisplayType required for code campaigns', kind: 'codeOffline', bad: { pinDisplayType: undefined }, field: 'pinDisplayType', good: {} },
  { rule: 'pinDisplayType is text or ean_13', kind: 'codeOffline', bad: { pinDisplayType: 'qr' }, field: 'pinDisplayType', good: { pinDisplayType: 'ean_13' } },
  { rule: 'couponCode required for reusable', kind: 'codeOffline', bad: { pinType: 'reusable' }, field: 'couponCode', good: { pinType: 'reusable', couponCode: 'ЛЕТО' } },
  { rule: 'couponCode only for reusable', kind: 'codeOffline', bad: { couponCode: 'X' }, field: 'couponCode', good: {} },
  { rule: 'an ean_13 couponCode is 13 digits', kind: 'codeOffline', bad: { pinType: 'reusable', pinDisplayType: 'ean_13', couponCode: '123' }, field: 'couponCode', good: { pinType: 'reusable', pinDisplayType: 'ean_13', couponCode: '4006381333931' } },
  { rule: 'a text couponCode at most 255', kind: 'codeOffline', bad: { pinType: 'reusable', couponCode: 'x'.repeat(256) }, field: 'couponCode', good: { pinType: 'reusable', couponCode: 'x'.repeat(255) } },
];

describe('field rules on create', () => {
  const env = useEmulator();

  for (const r of rules) {
    it(r.rule, async () => {
      const kind = r.kind ?? 'promo';
      const bad = await env.client.fail('create', campaignBody(kind, r.bad), 'incorrectData', 400);
      expect(bad.errors.fields?.map((f) => f.field)).toContain(r.field);
      await env.client.ok('create', campaignBody(kind, r.good));
    });
  }

  it('reports every violated field at once, each with a message stating the contract', async () => {
    const envelope = await env.client.fail(
      'create',
      campaignBody('banner', { backgroundColor: '#FFFFFF', description: 'English', merchantDomain: 'www.x.ru', appearanceType: undefined, campaignFeeMin: '1', categoryId: 'seven' }),
      'incorrectData',
      400,
    );
    const fields = envelope.errors.fields!.map((f) => f.field).sort();
    expect(fields).toEqual(['appearanceType', 'backgroundColor', 'campaignFee', 'categoryId', 'description', 'merchantDomain']);
    expect(envelope.errors.message).toBe(`6 fields are invalid: ${envelope.errors.fields!.map((f) => f.field).filter((f, i, a) => a.indexOf(f) === i).join(', ')}`);
    const bg = envelope.errors.fields!.find((f) => f.field === 'backgroundColor')!;
    expect(bg.message).toMatch(/too light: relative luminance 1\.00, at most 0\.5/);
  });

  it('a request that fails creates nothing', async () => {
    const body = campaignBody('promo', { backgroundColor: 'white' });
    await env.client.fail('create', body, 'incorrectData', 400);
    expect((await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 })).total).toBe(8);
    await env.client.fail('update', { partnerCampaignId: body.partnerCampaignId }, 'campaignNotFound', 404);
  });

  it('reusable code campaigns and promo campaigns take their own kinds of data', async () => {
    await env.client.ok('create', reusableBody('codeOnline'));
    await env.client.ok('create', reusableBody('codeOffline', { pinDisplayType: 'ean_13', couponCode: '4006381333931' }), AGGREGATOR);
  });
});

describe('field rules on update', () => {
  const env = useEmulator();

  it('checks the sent fields, and the merged campaign as a whole', async () => {
    const { body } = await startedCampaign(env.client, 'promo');
    const key = { partnerCampaignId: body.partnerCampaignId };
    const sent = await env.client.fail('update', { ...key, fontColor: 'black', description: 'English only' }, 'incorrectData', 400);
    expect(sent.errors.fields!.map((f) => f.field).sort()).toEqual(['description', 'fontColor']);
    // Valid alone, but the stored background is dark: contrast fails on the merged record.
    const merged = await env.client.fail('update', { ...key, fontColor: '#333333' }, 'incorrectData', 400);
    expect(merged.errors.fields).toEqual([{ field: 'fontColor', message: expect.stringMatching(/contrast with backgroundColor #222222/) }]);
    // Switching to a banner needs the banner's fields.
    const banner = await env.client.fail('update', { ...key, campaignType: 'banner' }, 'incorrectData', 400);
    expect(banner.errors.fields!.map((f) => f.field)).toEqual(['appearanceType']);
    const image = await env.client.fail('update', { ...key, campaignType: 'banner', appearanceType: 'ImageBanner' }, 'incorrectData', 400);
    expect(image.errors.fields!.map((f) => f.field)).toEqual(['backgroundImage']);
    await env.client.ok('update', { ...key, campaignType: 'banner', appearanceType: 'ImageBanner', backgroundImage: 'https://a.ru/b.png' });
  });

  it('null clears an optional field; a field every campaign has cannot be cleared', async () => {
    const now = await env.client.now();
    const { id, body } = await startedCampaign(env.client, 'promo', { campaignEnd: isoIn(now, 5 * DAY), offerEnd: isoIn(now, 9 * DAY), supportedPlatforms: 'mobile', cashbackType: 'bonus' });
    const key = { partnerCampaignId: body.partnerCampaignId };
    const before = await env.client.ok('get', { ymCampaignId: id });
    expect([before.campaignEnd, before.offerEnd, before.supportedPlatforms, before.cashbackType]).toEqual([body.campaignEnd, body.offerEnd, 'mobile', 'bonus']);
    const required = await env.client.fail('update', { ...key, merchantName: null, description: null, campaignEnd: null }, 'incorrectData', 400);
    expect(required.errors.fields).toEqual([
      { field: 'merchantName', message: 'is required and cannot be cleared: leave it out to keep the current value' },
      { field: 'description', message: 'is required and cannot be cleared: leave it out to keep the current value' },
    ]);
    expect((await env.client.ok('get', { ymCampaignId: id })).campaignEnd).toBe(body.campaignEnd);
    await env.client.ok('update', { ...key, campaignEnd: null, offerEnd: null, supportedPlatforms: null, cashbackType: null });
    const after = await env.client.ok('get', { ymCampaignId: id });
    expect([after.campaignEnd, after.offerEnd, after.supportedPlatforms, after.cashbackType, after.merchantName]).toEqual([undefined, undefined, undefined, undefined, body.merchantName]);
    // A conditionally required field cleared: the merged campaign misses it.
    const url = await env.client.fail('update', { ...key, acceptUrl: null }, 'incorrectData', 400);
    expect(url.errors.fields).toEqual([{ field: 'acceptUrl', message: 'is required for campaignType promo' }]);
  });

  it('a sent fee form replaces the stored one', async () => {
    const { id, body } = await startedCampaign(env.client, 'promo');
    await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, campaignFeeMin: '1', campaignFeeMax: '3' });
    let got = await env.client.ok('get', { ymCampaignId: id });
    expect([got.campaignFee, got.campaignFeeMin, got.campaignFeeMax]).toEqual([undefined, '1', '3']);
    await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, campaignFee: '2' });
    got = await env.client.ok('get', { ymCampaignId: id });
    expect([got.campaignFee, got.campaignFeeMin, got.campaignFeeMax]).toEqual(['2', undefined, undefined]);
  });

  it('the kind of pins cannot change while one-off pins are held', async () => {
    const { body } = await startedCampaign(env.client, 'codeOffline', {}, 2);
    const error = await env.client.fail('update', { partnerCampaignId: body.partnerCampaignId, pinType: 'reusable', couponCode: 'ALL' }, 'incorrectData', 400);
    expect(error.errors.fields).toEqual([{ field: 'pinType', message: 'cannot change while the campaign holds 2 one-off pins' }]);
    await env.client.fail('update', { partnerCampaignId: body.partnerCampaignId, pinDisplayType: 'ean_13' }, 'incorrectData', 400);
  });

  it('a type change away from code drops the pin settings', async () => {
    const body = reusableBody('codeOnline');
    const id = await create(env.client, body);
    await env.client.ok('update', { partnerCampaignId: body.partnerCampaignId, campaignType: 'promo' });
    const got = await env.client.ok('get', { ymCampaignId: id });
    expect([got.campaignType, got.pinType, got.couponCode]).toEqual(['promo', undefined, undefined]);
  });

  it('campaigns/get returns what was written, with the defaults and pinEnd', async () => {
    const now = await env.client.now();
    const body = campaignBody('codeOnline', { campaignStart: isoIn(now, DAY), campaignEnd: isoIn(now, 3 * DAY), offerDuration: 48, supportedPlatforms: 'mobile' });
    const id = await create(env.client, body);
    const got = await env.client.ok('get', { ymCampaignId: id });
    const { partnerCampaignId, ...rest } = body;
    expect(got).toMatchObject({ ymCampaignId: id, campaignStatus: 'moderation', partnerCampaignId, ...rest, discountCurrency: 643, feeCurrency: 643 });
    expect(got.pinEnd).toBe(new Date(Date.parse(body.campaignEnd as string) + 48 * 3_600_000).toISOString());
  });
});
