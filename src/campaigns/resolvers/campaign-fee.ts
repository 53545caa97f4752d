import { currency, knownOrNull } from '../backend-values.js';
import type { CampaignFeeResolvers } from '../../schema/generated/resolvers-types.js';

export const CampaignFee: CampaignFeeResolvers = {
  type: (d) => knownOrNull(d.feeType),
  amount: (d) => d.campaignFee ?? null,
  min: (d) => d.campaignFeeMin ?? null,
  max: (d) => d.campaignFeeMax ?? null,
  currency: (d) => currency(d.feeCurrency),
};
