import type { PinConnectionResolvers } from '../../schema/generated/resolvers-types.js';
import { connectionResolvers } from '../../graphql/pagination.js';

export const PinConnection: PinConnectionResolvers = {
  totalCount: connectionResolvers.totalCount,
  nodes: connectionResolvers.nodes,
  edges: connectionResolvers.edges,
  pageInfo: connectionResolvers.pageInfo,
};
