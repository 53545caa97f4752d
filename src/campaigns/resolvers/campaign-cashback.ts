import { knownOrNull } from '../backend-values.js';
import type { CampaignCashbackResolvers } from '../../schema/generated/resolvers-types.js';

export const CampaignCashback: CampaignCashbackResolvers = {
  type: (d) => knownOrNull(d.cashbackType),
  confirmDays: (d) => d.cashbackConfirmTime ?? null,
};
