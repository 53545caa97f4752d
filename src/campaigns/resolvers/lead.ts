import { LeadStateValues } from '../../schema/enum-values.js';
import type { LeadResolvers } from '../../schema/generated/resolvers-types.js';

export const Lead: LeadResolvers = {
  campaign: (l) => l.campaign,
  transactionId: (l) => l.transactionId,
  state: (l) => (l.state === LeadStateValues.PROCESSING ? LeadStateValues.PROCESSING : LeadStateValues.UNKNOWN),
  redeemStatus: (l) => l.redeemStatus,
};
