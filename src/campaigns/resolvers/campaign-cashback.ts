import type { CampaignDetails } from '../../campaign-api/index.js';
import { knownOrNull } from '../backend-values.js';
import type { CampaignCashbackResolvers } from '../../schema/generated/resolvers-types.js';

/** The record as `cashback` when it holds cashback terms; null for offers that are not cashback offers. */
export const cashbackOf = (d: CampaignDetails): CampaignDetails | null => (d.cashbackType !== undefined || d.cashbackConfirmTime !== undefined ? d : null);

export const CampaignCashback: CampaignCashbackResolvers = {
  type: (d) => knownOrNull(d.cashbackType),
  confirmDays: (d) => d.cashbackConfirmTime ?? null,
};
