import type { Stack } from '../helpers/stack.js';

/** A valid CreateCampaignInput for a promo campaign; override what a test is about. */
export function promoInput(partnerCampaignId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
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
    ...overrides,
  };
}

/** A valid one-off code campaign input (pins uploaded with addPins). */
export function oneOffInput(partnerCampaignId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return promoInput(partnerCampaignId, {
    campaignType: 'CODE_OFFLINE',
    acceptUrl: null,
    pinType: 'ONE_OFF',
    pinDisplayType: 'TEXT',
    ...overrides,
  });
}

export const CREATE = `mutation ($input: CreateCampaignInput!) {
  createCampaign(input: $input) { campaign { id status } userErrors { field message code } }
}`;

/** Creates a campaign through the GraphQL API and returns its id; fails the test on any error. */
export async function createCampaign(stack: Stack, input: Record<string, unknown>, token?: string): Promise<string> {
  const { body } = await stack.gql(CREATE, { input }, token);
  if (body.errors || body.data.createCampaign.userErrors.length) {
    throw new Error(`createCampaign failed: ${JSON.stringify(body)}`);
  }
  return body.data.createCampaign.campaign.id;
}

let partners = 0;
/** Registers a fresh partner in the emulator, so a test owns every campaign it sees. */
export async function newPartner(stack: Stack, kind: 'store' | 'aggregator'): Promise<string> {
  const token = `test-${kind}-${process.pid}-${++partners}-${Date.now()}`;
  await stack.admin('partners', { token, kind });
  return token;
}
