import type { PinConnectionResolvers } from '../generated/resolvers-types.js';
import { connectionResolvers } from '../pagination.js';

export const PinConnection: PinConnectionResolvers = {
  totalCount: connectionResolvers.totalCount,
  nodes: connectionResolvers.nodes,
  edges: connectionResolvers.edges,
  pageInfo: connectionResolvers.pageInfo,
};
