import type { Stack } from '../helpers/stack.js';

type Input = Record<string, unknown>;
const isGroup = (value: unknown): value is Input => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `base` with `overrides` laid over it a group at a time: `{ merchant: { name: 'X' } }` changes
 * the merchant's name and keeps its other fields; `null` replaces whatever was there.
 */
export function withOverrides(base: Input, overrides: Input): Input {
  const out: Input = { ...base };
  for (const [key, value] of Object.entries(overrides)) out[key] = isGroup(value) && isGroup(base[key]) ? { ...base[key], ...value } : value;
  return out;
}

/** A valid CreateCampaignInput for a promo campaign; override what a test is about (group by group). */
export function promoInput(partnerCampaignId: number, overrides: Input = {}): Input {
  return withOverrides(
    {
      partnerCampaignId,
      categoryId: '2',
      type: 'PROMO',
      description: 'Скидка на всё',
      conditions: 'При заказе от 1000 рублей',
      acceptUrl: 'https://shop.example.ru/promo',
      merchant: {
        name: 'Магазин',
        domain: 'shop.example.ru',
        logoSvgUrl: 'https://shop.example.ru/logo.svg',
        logoPngUrl: 'https://shop.example.ru/logo.png',
      },
      appearance: { backgroundColor: '#1A237E', fontColor: '#FFFFFF' },
      discount: { type: 'PERCENT', amount: '15' },
      fee: { type: 'PERCENT', amount: '5' },
    },
    overrides,
  );
}

/** A valid one-off code campaign input (pins uploaded with addPins). */
export function oneOffInput(partnerCampaignId: number, overrides: Input = {}): Input {
  return promoInput(partnerCampaignId, withOverrides({ type: 'CODE_OFFLINE', acceptUrl: null, pinSettings: { pinType: 'ONE_OFF', displayType: 'TEXT' } }, overrides));
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
