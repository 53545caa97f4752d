import type { CampaignConnectionResolvers } from '../../schema/generated/resolvers-types.js';
import { connectionResolvers } from '../../graphql/pagination.js';

export const CampaignConnection: CampaignConnectionResolvers = {
  totalCount: connectionResolvers.totalCount,
  nodes: connectionResolvers.nodes,
  edges: connectionResolvers.edges,
  pageInfo: connectionResolvers.pageInfo,
};
