import type { NodeResolvers } from '../../schema/generated/resolvers-types.js';

/** Campaigns are the only nodes so far: whatever `node`/`nodes` found is a campaign. */
export const Node: NodeResolvers = {
  __resolveType: () => 'Campaign',
};
