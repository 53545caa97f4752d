import type { PinCountsResolvers } from '../generated/resolvers-types.js';

export const PinCounts: PinCountsResolvers = {
  unused: (c) => c.unused,
  total: (c) => c.total,
};
