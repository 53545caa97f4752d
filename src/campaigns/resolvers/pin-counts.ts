import type { PinCountsResolvers } from '../../schema/generated/resolvers-types.js';

export const PinCounts: PinCountsResolvers = {
  unused: (c) => c.unused,
  total: (c) => c.total,
};
