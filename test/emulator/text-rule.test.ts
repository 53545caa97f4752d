import { describe, expect, it } from 'vitest';
import { TEXT_RULE_MESSAGE, badTextFor } from '../fixtures/bad-text.js';
import { STORE, campaignBody, create, reusableBody, startedCampaign, useEmulator, type EmulatorClient } from './support.js';

/**
 * The emulator refuses text no client can be trusted to decode or show (control
 * characters, lone surrogates, bidirectional and other invisible controls, blank values) in every
 * free-text field of every operation, as incorrectData naming the REST field, and stores nothing.
 */
const env = useEmulator();

/** A valid create body in which `field` holds `valid`, so only the value under test can be wrong. */
interface Case {
  field: string;
  valid: string;
  body: () => Record<string, unknown>;
  multiline?: boolean;
  /** Where campaigns/get answers with the value, when not under its own name. */
  readBack?: string;
}

const CAMPAIGN_FIELDS: Case[] = [
  { field: 'merchantName', valid: 'Магазин у дома', body: () => campaignBody('promo') },
  { field: 'description', valid: 'Скидка на всё', body: () => campaignBody('promo') },
  { field: 'conditions', valid: 'При заказе от 1000 рублей', body: () => campaignBody('promo'), multiline: true },
  { field: 'discountAmount', valid: 'Подарок к заказу', body: () => campaignBody('promo', { discountType: 'text' }) },
  { field: 'merchantDomain', valid: 'shop.example.ru', body: () => campaignBody('promo') },
  { field: 'merchantLogoSvg', valid: 'https://shop.example.ru/logo.svg', body: () => campaignBody('promo') },
  { field: 'merchantLogoPng', valid: 'https://shop.example.ru/logo.png', body: () => campaignBody('promo') },
  { field: 'acceptUrl', valid: 'https://shop.example.ru/go', body: () => campaignBody('promo') },
  { field: 'backgroundImage', valid: 'https://shop.example.ru/banner.png', body: () => campaignBody('banner') },
  { field: 'backgroundColor', valid: '#222222', body: () => campaignBody('promo') },
  { field: 'fontColor', valid: '#FFFFFF', body: () => campaignBody('promo') },
  { field: 'couponCode', valid: 'SAVE-2024', body: () => reusableBody('codeOffline') },
  { field: 'campaignFee', valid: '15', body: () => campaignBody('promo') },
  { field: 'campaignFeeMin', valid: '10', body: () => campaignBody('promo', { campaignFee: undefined, campaignFeeMax: '90' }) },
  { field: 'campaignFeeMax', valid: '90', body: () => campaignBody('promo', { campaignFee: undefined, campaignFeeMin: '10' }) },
  { field: 'supportedPlatforms', valid: 'mobile,desktop', body: () => campaignBody('promo') },
  { field: 'campaignStart', valid: '2099-01-01T09:00:00+03:00', body: () => campaignBody('promo') },
  { field: 'campaignEnd', valid: '2099-02-01T09:00:00+03:00', body: () => campaignBody('promo') },
  { field: 'offerEnd', valid: '2099-03-01T09:00:00+03:00', body: () => campaignBody('promo'), readBack: 'pinEnd' },
];

/** Calls `name` with each bad text in `field`; returns what did not come back as the text rule's incorrectData. */
async function refusals(client: EmulatorClient, name: 'create' | 'update' | 'redeem' | 'addPins', field: string, multiline: boolean, bodyWith: (bad: string) => Record<string, unknown>, valid: string) {
  const misses: string[] = [];
  for (const bad of badTextFor(multiline)) {
    const answer = await client.call(name, bodyWith(bad.make(valid)));
    const issue = answer.body?.errors?.fields?.find((f: { field: string }) => f.field === field);
    if (answer.status !== 400 || answer.body?.errors?.code !== 'incorrectData' || !issue || !TEXT_RULE_MESSAGE.test(issue.message)) {
      misses.push(`${bad.kind}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
    }
  }
  return misses;
}

describe('the text rule in the emulator', () => {
  for (const c of CAMPAIGN_FIELDS) {
    it(`create and update refuse bad text in ${c.field}, and store nothing`, async () => {
      const before = (await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 })).total;
      // Sanity: the valid value passes, so each refusal below is the bad text's.
      const good = c.body();
      await env.client.ok('create', { ...good, [c.field]: c.valid });
      const created = await refusals(env.client, 'create', c.field, !!c.multiline, (bad) => ({ ...c.body(), [c.field]: bad }), c.valid);
      expect(created).toEqual([]);
      expect((await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 })).total).toBe(before + 1);

      const key = { partnerCampaignId: good.partnerCampaignId };
      const updated = await refusals(env.client, 'update', c.field, !!c.multiline, (bad) => ({ ...key, [c.field]: bad }), c.valid);
      expect(updated).toEqual([]);
      const stored = await env.client.ok('getAllCampaigns', { limit: 100, offset: 0 });
      const id = stored.campaigns.at(-1).ymCampaignId;
      expect((await env.client.ok('get', { ymCampaignId: id }))[c.readBack ?? c.field]).toBe(c.valid);
    });
  }

  const LEAD_FIELDS: { field: string; valid: string; path?: string }[] = [
    { field: 'transactionId', valid: 'order-1001' },
    { field: 'clickId', valid: 'click-1' },
    { field: 'pinContent', valid: 'PIN-1' },
    { field: 'sceneRedeem', valid: 'mobile_app' },
    { field: 'redeemTime', valid: '2026-03-01T12:30:00+03:00' },
    { field: 'campaignFee', valid: '150.00' },
    { field: 'orderAmount', valid: '3000.00' },
    { field: 'cashbackAmount', valid: '150.00' },
    { field: 'viewId', valid: 'view-1-1' },
    { field: 'category', valid: 'ноутбуки', path: 'bonusDescription.category' },
  ];
  for (const l of LEAD_FIELDS) {
    it(`redeem refuses bad text in ${l.path ?? l.field}`, async () => {
      const { id } = await startedCampaign(env.client, 'promo');
      const lead = { ymCampaignId: id, transactionId: 'order-1', clickId: 'click-1', campaignFee: '1.00' };
      const misses = await refusals(
        env.client,
        'redeem',
        l.path ?? l.field,
        false,
        (bad) => (l.path ? { ...lead, bonusDescription: { [l.field]: bad } } : { ...lead, [l.field]: bad }),
        l.valid,
      );
      expect(misses).toEqual([]);
      expect((await env.client.info(id)).campaignRedeems).toBe(0);
    });
  }

  it('add-pins refuses bad text in a pin, and adds no pin', async () => {
    const id = await create(env.client, campaignBody('codeOffline'));
    const misses = await refusals(env.client, 'addPins', 'pinList[1]', false, (bad) => ({ ymCampaignId: id, pinList: ['GOOD-1', bad] }), 'PIN-0001');
    expect(misses).toEqual([]);
    expect((await env.client.info(id)).campaignPinsStats.total).toBe(0);
  });

  it('the admin API refuses bad text as a moderator\'s reason', async () => {
    const id = await create(env.client, campaignBody('promo'), STORE);
    for (const bad of badTextFor(true)) {
      const answer = await env.client.admin('moderate', { ymCampaignId: id, decision: 'decline', reason: bad.make('Нет логотипа') });
      expect(answer.status, bad.kind).toBe(400);
      expect(answer.body.error, bad.kind).toMatch(/^reason: must/);
    }
  });

  it('multi-line conditions keep their line breaks; one-line fields and other text stay as sent', async () => {
    const texts = {
      merchantName: 'Кафе «Ёлка» 😀 👨‍👩‍👧‍👦 <b>&amp;</b>',
      description: 'Скидка 10% — שלום مرحبا',
      conditions: 'Условия:\n— заказ от 1000 ₽\n— один раз',
    };
    const id = await create(env.client, campaignBody('promo', texts));
    const answer = await env.client.call('get', { ymCampaignId: id });
    expect(answer.body.result).toMatchObject(texts);
    expect(Buffer.from(answer.text).includes(Buffer.from(texts.merchantName))).toBe(true);
  });
});
