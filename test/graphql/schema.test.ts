import { describe, expect, it } from 'vitest';
import type { GraphQLInputObjectType, GraphQLObjectType, GraphQLScalarType } from 'graphql';
import { createSchema } from '../../src/server/schema.js';

/**
 * The schema is the public contract: every part is described for frontend developers, and the
 * names design section 5 fixes are there as written. (Walked with the schema's own methods rather
 * than graphql's type predicates, which may come from another copy of graphql under the test runner.)
 */
const schema = createSchema();
const ownTypes = Object.values(schema.getTypeMap()).filter(
  (t) => !t.name.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(t.name),
);

type Described = { name: string; description?: string | null };
const missing = (what: string, items: readonly Described[]) => items.filter((i) => !i.description?.trim()).map((i) => `${what}${i.name}`);

describe('schema', () => {
  it('describes every type, field, argument, input field and enum value', () => {
    const undocumented: string[] = [];
    for (const type of ownTypes) {
      undocumented.push(...missing('', [type]));
      const t = type as unknown as {
        getFields?: () => Record<string, Described & { args?: readonly Described[] }>;
        getValues?: () => readonly Described[];
      };
      for (const field of Object.values(t.getFields?.() ?? {})) {
        undocumented.push(...missing(`${type.name}.`, [field]));
        undocumented.push(...missing(`${type.name}.${field.name}(`, field.args ?? []));
      }
      undocumented.push(...missing(`${type.name}.`, t.getValues?.() ?? []));
    }
    expect(undocumented).toEqual([]);
  });

  it('names the specification of every custom scalar (@specifiedBy)', () => {
    const scalars = ownTypes.filter((t) => !('getFields' in t) && !('getValues' in t) && !('getTypes' in t)) as unknown as { name: string; specifiedByURL?: string | null }[];
    expect(scalars.map((s) => s.name).sort()).toEqual(['DateTime', 'Decimal', 'HexColorCode', 'SafeInt', 'URL']);
    for (const scalar of scalars) expect(scalar.specifiedByURL, scalar.name).toMatch(/^https:\/\//);
  });

  it('keeps root reads nullable, so one failing field does not take the others with it', () => {
    const query = (schema.getQueryType() as unknown as { getFields(): Record<string, { type: { toString(): string } }> }).getFields();
    for (const name of ['campaign', 'campaigns', 'campaignsByIds', 'categories', 'category', 'offerFeed']) {
      expect(query[name]!.type.toString(), name).not.toMatch(/!$/);
    }
  });

  it('has the names other code relies on (design section 5)', () => {
    const fields = (name: string) => Object.keys((schema.getType(name) as unknown as { getFields(): object }).getFields());
    const values = (name: string) => (schema.getType(name) as unknown as { getValues(): { name: string }[] }).getValues().map((v) => v.name);
    const args = (type: string, field: string) =>
      ((schema.getType(type) as unknown as { getFields(): Record<string, { args: { name: string; type: { toString(): string } }[] }> }).getFields()[field]!.args).map(
        (a) => `${a.name}: ${a.type.toString()}`,
      );

    expect(fields('Query')).toEqual(expect.arrayContaining(['campaign', 'campaigns', 'campaignsByIds', 'categories', 'category']));
    expect(fields('Mutation')).toEqual(['createCampaign', 'updateCampaign', 'startCampaign', 'stopCampaign', 'addPins', 'reportLead']);
    expect(args('Query', 'campaign')).toEqual(['id: ID!']);
    expect(args('Query', 'campaigns')).toEqual(['first: Int', 'after: String', 'withStatus: CampaignStatusInput', 'status: CampaignStatus']);
    expect(args('Query', 'campaignsByIds')).toEqual(['ids: [ID!]!']);
    expect(args('Mutation', 'startCampaign')).toEqual(['id: ID!']);
    expect(args('Mutation', 'stopCampaign')).toEqual(['id: ID!']);
    expect(args('Mutation', 'createCampaign')).toEqual(['input: CreateCampaignInput!']);
    expect(args('Mutation', 'updateCampaign')).toEqual(['input: UpdateCampaignInput!']);
    expect(args('Mutation', 'addPins')).toEqual(['input: AddPinsInput!']);
    expect(args('Mutation', 'reportLead')).toEqual(['input: ReportLeadInput!']);
    expect(args('Campaign', 'pins')).toEqual(['status: PinStatus!', 'first: Int', 'after: String']);

    expect(fields('Campaign')).toEqual(
      expect.arrayContaining(['id', 'status', 'type', 'merchant', 'appearance', 'discount', 'fee', 'pinSettings', 'category', 'stats', 'pins', 'card']),
    );
    expect(fields('Category')).toEqual(['id', 'name']);
    expect(fields('Pin')).toEqual(['code', 'status']);
    expect(fields('UserError')).toEqual(['field', 'message', 'code']);
    expect(fields('CampaignStats')).toEqual(expect.arrayContaining(['shows', 'accepts', 'redeems']));
    expect(fields('CampaignCard')).toEqual(expect.arrayContaining(['discountLabel']));
    expect(fields('PageInfo')).toEqual(expect.arrayContaining(['hasNextPage', 'endCursor']));
    for (const connection of ['CampaignConnection', 'PinConnection']) expect(fields(connection)).toEqual(expect.arrayContaining(['totalCount', 'nodes', 'pageInfo']));
    for (const payload of ['CreateCampaignPayload', 'UpdateCampaignPayload', 'StartCampaignPayload', 'StopCampaignPayload', 'AddPinsPayload']) {
      expect(fields(payload)).toEqual(expect.arrayContaining(['campaign', 'userErrors']));
    }
    expect(fields('ReportLeadPayload')).toEqual(['lead', 'userErrors']);
    // From 1.0 the inputs carry the output's names and groups (a form filled from a query is sent back as it is).
    expect(fields('CreateCampaignInput')).toEqual(
      expect.arrayContaining(['partnerCampaignId', 'categoryId', 'type', 'merchant', 'appearance', 'discount', 'fee', 'pinSettings', 'cashback', 'startsAt', 'endsAt']),
    );
    expect(fields('CampaignMerchantInput')).toEqual(fields('CampaignMerchant'));
    expect(fields('CampaignFeeInput')).toEqual(['type', 'amount', 'min', 'max', 'currency']);
    // updateCampaign is keyed by id like every other mutation (design section 7).
    expect(fields('UpdateCampaignInput')[0]).toBe('id');
    expect(fields('UpdateCampaignInput')).not.toContain('partnerCampaignId');
    expect(fields('AddPinsInput')).toEqual(['campaignId', 'pins']);
    expect(fields('ReportLeadInput')).toEqual(expect.arrayContaining(['campaignId', 'transactionId', 'pinContent', 'clickId', 'campaignFee', 'redeemStatus']));

    expect(values('CampaignStatus')).toEqual(expect.arrayContaining(['MODERATION', 'DECLINED', 'PIN_REQUIRED', 'STARTED', 'PAUSED', 'FINISHED']));
    expect(values('CampaignType')).toEqual(expect.arrayContaining(['CODE_ONLINE', 'CODE_OFFLINE', 'PROMO', 'BANNER']));
    expect(values('PinType')).toEqual(expect.arrayContaining(['ONE_OFF', 'REUSABLE']));
    expect(values('PinDisplayType')).toEqual(expect.arrayContaining(['TEXT', 'EAN_13']));
    expect(values('DiscountType')).toEqual(expect.arrayContaining(['TEXT', 'FIX', 'PERCENT']));
    expect(values('CurrencyCode')).toEqual(expect.arrayContaining(['RUB', 'USD']));
    expect(values('RedeemStatus')).toEqual(['USED', 'APPROVED', 'DECLINED']);
    expect(values('PinStatus')).toEqual(['NEW_UNUSED', 'ACCEPTED_BY_USER', 'REDEEM_RECEIVED']);
    expect(values('UserErrorCode')).toEqual(
      expect.arrayContaining(['INCORRECT_DATA', 'REPEAT_CAMPAIGN_DATA', 'CAMPAIGN_NOT_FOUND', 'FAIL_PIN', 'FAIL_FINISHED', 'FAIL_MODERATOR', 'FAIL_MERCHANT']),
    );
    // The kinds of problem this API's own checks find, to branch on without reading messages.
    expect(values('UserErrorCode')).toEqual(expect.arrayContaining(['REQUIRED', 'TOO_LONG', 'FORMAT', 'OUT_OF_RANGE', 'NOT_ALLOWED', 'NOT_ALLOWED_NOW', 'NOT_FOUND']));
  });

  it('maps enum values to what the backend writes', () => {
    const internal = (name: string) =>
      Object.fromEntries((schema.getType(name) as unknown as { getValues(): { name: string; value: unknown }[] }).getValues().map((v) => [v.name, v.value]));
    expect(internal('CampaignStatus')).toMatchObject({ PIN_REQUIRED: 'pin-required', STARTED: 'started' });
    expect(internal('CampaignType')).toMatchObject({ CODE_ONLINE: 'codeOnline', BANNER: 'banner' });
    expect(internal('PinType')).toMatchObject({ ONE_OFF: 'one-off' });
    expect(internal('PinDisplayType')).toMatchObject({ EAN_13: 'ean_13' });
    expect(internal('CurrencyCode')).toMatchObject({ RUB: 643, USD: 840 });
    expect(internal('AppearanceType')).toMatchObject({ IMAGE_BANNER: 'ImageBanner' });
    expect(internal('UserErrorCode')).toMatchObject({ FAIL_MERCHANT: 'failMerchant' });
  });

  it('keeps the descriptions of schema/scalars.graphql on the custom scalars', () => {
    expect(schema.getType('DateTime')!.description).toContain('this API always');
    expect(schema.getType('Decimal')!.description).toContain('precision');
  });

  it('integers the campaign API takes beyond 32 bits, and every count, are SafeInt, specified as ECMAScript safe integers', () => {
    const safeInt = schema.getType('SafeInt') as GraphQLScalarType;
    expect(safeInt.specifiedByURL).toBe('https://tc39.es/ecma262/#sec-number.issafeinteger');
    const typeOf = (type: string, field: string) => String((schema.getType(type) as GraphQLObjectType | GraphQLInputObjectType).getFields()[field]!.type);
    expect(typeOf('CreateCampaignInput', 'partnerCampaignId')).toBe('SafeInt!');
    expect(typeOf('Campaign', 'partnerCampaignId')).toBe('SafeInt');
    for (const [type, field] of [['CampaignStats', 'shows'], ['CampaignStats', 'accepts'], ['CampaignStats', 'redeems'], ['PinCounts', 'total'], ['PinCounts', 'unused'], ['LeadCounts', 'used'], ['LeadCounts', 'approved'], ['LeadCounts', 'declined'], ['CampaignConnection', 'totalCount'], ['PinConnection', 'totalCount'], ['OfferConnection', 'totalCount'], ['OfferFeedCategory', 'offerCount'], ['AddPinsPayload', 'addedCount'], ['AddPinsPayload', 'duplicateCount'], ['AddPinsPayload', 'alreadyPresentCount'], ['AddPinsPayload', 'storedCount']]) {
      expect(typeOf(type!, field!), `${type}.${field}`).toBe('SafeInt!');
    }
  });
  it('reads what a list row already knows as properties, with no resolver per item', () => {
    // graphql-jit calls a field's resolver with its own arguments, resolve info and path for
    // every item of a list; a field without one is read as a property of the item.
    const resolved = (typeName: string, fields: readonly string[]) =>
      fields.filter((name) => (schema.getType(typeName) as GraphQLObjectType).getFields()[name]!.resolve !== undefined);
    expect(resolved('Campaign', ['id', 'ymCampaignId', 'status', 'rawStatus'])).toEqual([]);
    expect(resolved('CampaignCard', ['title', 'description', 'conditions', 'logoSvgUrl', 'logoPngUrl', 'backgroundColor', 'fontColor', 'backgroundImageUrl', 'actionUrl'])).toEqual([]);
    // The control: a field that loads the record keeps its resolver.
    expect(resolved('Campaign', ['card', 'stats'])).toEqual(['card', 'stats']);
  });
});
