import type { LeadCountsResolvers } from '../../schema/generated/resolvers-types.js';

export const LeadCounts: LeadCountsResolvers = {
  used: (c) => c.usedCount,
  approved: (c) => c.approvedCount,
  declined: (c) => c.declinedCount,
};
