import {
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid } from '../helpers/ids.js';
import { createCampaign, newPartner, promoInput } from './support.js';

/**
 * Inputs speak the output's language: a form filled from a query of a campaign is sent back as
 * it is. The query's answer is mapped into the input by the input type's own field names, with
 * no renaming and no conversion: a field the input has is taken, any other (read-only) is left.
 */
const schema = createSchema();

/** The fields of `value` that `type` has, recursively: nothing renamed, nothing converted. */
function asInput(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return (value as unknown[]).map((item) => asInput(item, inner.ofType));
  if (!isInputObjectType(inner)) return value;
  const fields = (inner as GraphQLInputObjectType).getFields();
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([name]) => Object.hasOwn(fields, name))
      .map(([name, field]) => [name, asInput(field, fields[name]!.type)]),
  );
}

const FORM = `query Form($id: ID!) {
  campaign(id: $id) {
    __typename id ymCampaignId partnerCampaignId status rawType categoryId type description conditions
    startsAt endsAt offerDurationHours offerEndsAt acceptUrl supportedPlatforms
    merchant { __typename name domain logoSvgUrl logoPngUrl }
    appearance { __typename backgroundColor fontColor backgroundImageUrl appearanceType }
    discount { __typename type amount value currency label }
    fee { __typename type amount min max currency }
    pinSettings { __typename pinType displayType couponCode expiresAt }
    cashback { __typename type confirmDays }
  }
}`;
const UPDATE = `mutation Save($input: UpdateCampaignInput!) {
  updateCampaign(input: $input) { campaign { id status } userErrors { field message code } }
}`;
const CREATE = `mutation Copy($input: CreateCampaignInput!) {
  createCampaign(input: $input) { campaign { id } userErrors { field message code } }
}`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
  await stack.gql('{ categories { id } }'); // warm: the category check then costs no call
});
afterAll(() => stack?.close());
beforeEach(() => stack.resetCalls());

const form = async (id: string, token?: string) => {
  const { body } = await stack.gql(FORM, { id }, token);
  expect(body.errors).toBeUndefined();
  return body.data.campaign as Record<string, unknown>;
};

/** A store with campaigns of every group filled: fee range, reusable codes, cashback, offer period, platforms. */
async function richCampaigns(): Promise<{ token: string; ids: string[] }> {
  const token = await newPartner(stack, 'store');
  const inputs = [
    promoInput(8801, {
      startsAt: '2031-03-01T09:00:00+03:00',
      endsAt: '2031-04-01T09:00:00+03:00',
      offerDurationHours: 72,
      offerEndsAt: '2031-04-15T00:00:00Z',
      supportedPlatforms: ['MOBILE'],
      discount: { type: 'FIX', amount: '9.99', currency: 'USD' },
      fee: { type: 'FIX', amount: null, min: '10', max: '20.50', currency: 'USD' },
      cashback: { type: 'MONEY', confirmDays: 30 },
    }),
    promoInput(8802, {
      type: 'CODE_ONLINE',
      pinSettings: { pinType: 'REUSABLE', displayType: 'EAN_13', couponCode: '4601234567893' },
      appearance: { backgroundImageUrl: 'https://shop.example.ru/bg.png' },
      discount: { type: 'TEXT', amount: 'Подарок к заказу' },
    }),
    promoInput(8803, { type: 'BANNER', appearance: { appearanceType: 'IMAGE_BANNER', backgroundImageUrl: 'https://shop.example.ru/banner.png' } }),
  ];
  const ids: string[] = [];
  for (const input of inputs) ids.push(await createCampaign(stack, input, token));
  return { token, ids };
}

describe('a form filled from a query is sent back as it is', () => {
  it('updateCampaign: succeeds with the campaign unchanged, one read and no write', async () => {
    const { token, ids } = await richCampaigns();
    const cases: [string, string | undefined][] = [...[1, 2, 3, 4, 5, 6, 7, 8].map((n): [string, undefined] => [cid(n), undefined]), ...ids.map((id): [string, string] => [id, token])];
    const inputType = schema.getType('UpdateCampaignInput') as GraphQLInputObjectType;
    for (const [id, as] of cases) {
      const before = await form(id, as);
      const input = asInput(before, inputType) as Record<string, unknown>;
      // Every field of the input came from the query, under the same name.
      expect(Object.keys(input).sort(), String(before.ymCampaignId)).toEqual(Object.keys(inputType.getFields()).sort());
      await stack.resetCalls();
      const { body } = await stack.gql(UPDATE, { input }, as);
      expect(body, String(before.ymCampaignId)).toEqual({ data: { updateCampaign: { campaign: { id, status: before.status }, userErrors: [] } } });
      expect(await stack.calls(), String(before.ymCampaignId)).toEqual({ 'campaigns/get': 1 });
      expect(await form(id, as)).toEqual(before);
    }
  });

  it('createCampaign: a copy made from a query reads back as the original', async () => {
    const { token, ids } = await richCampaigns();
    const inputType = schema.getType('CreateCampaignInput') as GraphQLInputObjectType;
    for (const [i, id] of ids.entries()) {
      const original = await form(id, token);
      const input = { ...(asInput(original, inputType) as Record<string, unknown>), partnerCampaignId: 8900 + i };
      const { body } = await stack.gql(CREATE, { input }, token);
      expect(body.data.createCampaign.userErrors, String(original.ymCampaignId)).toEqual([]);
      const copy = await form(body.data.createCampaign.campaign.id, token);
      const own = ['id', 'ymCampaignId', 'partnerCampaignId'];
      const without = (c: Record<string, unknown>) => Object.fromEntries(Object.entries(c).filter(([k]) => !own.includes(k)));
      expect(without(copy)).toEqual(without(original));
    }
  });

  it('input fields carry the output scalars and names: every leaf of an input is a field of Campaign of the same named type', () => {
    const output = schema.getType('Campaign') as unknown as { getFields(): Record<string, { type: GraphQLInputType }> };
    const mismatches: string[] = [];
    const walk = (input: GraphQLInputObjectType, outputFields: Record<string, { type: unknown }>, at: string) => {
      for (const field of Object.values(input.getFields())) {
        const out = outputFields[field.name];
        if (!out) {
          mismatches.push(`${at}${field.name}: no output field`);
          continue;
        }
        const inNamed = getNamedType(field.type);
        const outNamed = getNamedType(out.type as GraphQLInputType) as { name: string; getFields?: () => Record<string, { type: unknown }> };
        if (isInputObjectType(inNamed)) walk(inNamed, outNamed.getFields!(), `${at}${field.name}.`);
        else if (inNamed.name !== outNamed.name && inNamed.name !== `${outNamed.name}Input`) mismatches.push(`${at}${field.name}: ${inNamed.name} in, ${outNamed.name} out`);
      }
    };
    for (const name of ['CreateCampaignInput', 'UpdateCampaignInput']) walk(schema.getType(name) as GraphQLInputObjectType, output.getFields(), `${name}.`);
    expect(mismatches).toEqual([]);
  });
});
