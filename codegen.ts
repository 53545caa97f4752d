import type { CodegenConfig } from '@graphql-codegen/cli';
import { ENUM_VALUES } from './src/schema/enum-values.js';

const models = '../models.js';
const offers = '../offers.js';
const contract = '../../campaign-api/index.js';
const enumNames = Object.keys(ENUM_VALUES);

const config: CodegenConfig = {
  schema: 'schema/*.graphql',
  generates: {
    'src/schema/generated/resolvers-types.ts': {
      plugins: [
        // Each GraphQL enum becomes the union of the backend's values (src/schema/enum-values.ts),
        // so arguments and resolver results are typed with what the backend sends and accepts.
        { typescript: { enumValues: ENUM_VALUES, enumsAsTypes: true } },
        // Resolvers refer to those unions by name. (Inline value maps here would type every
        // enum as `null`: a codegen quirk.) The schema's enum resolvers use the same objects.
        { 'typescript-resolvers': { enumValues: Object.fromEntries(enumNames.map((name) => [name, name])) } },
      ],
      config: {
        useTypeImports: true,
        strictScalars: true,
        contextType: '../context.js#GraphQLContext',
        // Inputs take plain strings (checked by the contract so every problem is a userError);
        // outputs accept what the backend stores.
        scalars: {
          DateTime: { input: 'string', output: 'string | Date' },
          HexColorCode: 'string',
          URL: { input: 'string', output: 'string | URL' },
          Decimal: 'string',
          SafeInt: 'number',
        },
        mappers: {
          Campaign: `${models}#CampaignRef`,
          CampaignConnection: `${models}#CampaignPage`,
          PinConnection: `${models}#PinPage`,
          Pin: `${models}#PinModel`,
          Category: `${models}#CategoryModel`,
          CampaignStats: `${models}#CampaignStatsModel`,
          PinCounts: `${models}#PinCountsModel`,
          LeadCounts: `${models}#LeadCountsModel`,
          Lead: `${models}#LeadModel`,
          UserError: `${models}#UserErrorModel`,
          CampaignStatusEvent: `${models}#StatusEvent`,
          CampaignMerchant: `${contract}#CampaignDetails`,
          CampaignAppearance: `${contract}#CampaignDetails`,
          CampaignDiscount: `${contract}#CampaignDetails`,
          CampaignFee: `${contract}#CampaignDetails`,
          CampaignPinSettings: `${contract}#CampaignDetails`,
          CampaignCashback: `${contract}#CampaignDetails`,
          CampaignCard: `${models}#CardModel`,
          OfferConnection: `${offers}#OfferPage`,
          Offer: `${offers}#OfferModel`,
          OfferFeedCategory: `${offers}#OfferFeedCategoryModel`,
        },
      },
    },
  },
};

export default config;
