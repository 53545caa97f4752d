import type { CampaignConnectionResolvers } from '../generated/resolvers-types.js';
import { connectionResolvers } from '../pagination.js';

export const CampaignConnection: CampaignConnectionResolvers = {
  totalCount: connectionResolvers.totalCount,
  nodes: connectionResolvers.nodes,
  edges: connectionResolvers.edges,
  pageInfo: connectionResolvers.pageInfo,
};
