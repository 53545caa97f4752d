import type { LeadCountsResolvers } from '../generated/resolvers-types.js';

export const LeadCounts: LeadCountsResolvers = {
  used: (c) => c.usedCount,
  approved: (c) => c.approvedCount,
  declined: (c) => c.declinedCount,
};
