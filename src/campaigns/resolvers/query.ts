import { campaignPage, campaignPageInStatus } from '../campaign-list.js';
import { badArgument } from '../../graphql/errors.js';
import type { QueryResolvers } from '../../schema/generated/resolvers-types.js';
import type { CampaignRef } from '../models.js';
import { pageSize, parsePositiveId, type CursorScope } from '../../graphql/pagination.js';
import { campaignPosition } from '../positions.js';
import type { GraphQLContext } from '../../schema/context.js';

export const MAX_IDS = 100;
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

function loadCampaign(ctx: GraphQLContext, id: string): Promise<CampaignRef | null> | null {
  const ymCampaignId = parsePositiveId(id);
  if (ymCampaignId === null) return null;
  return ctx.loaders.details
    .load(ymCampaignId)
    .then((details) => (details ? { id: ymCampaignId, status: details.campaignStatus, details } : null));
}

const asItemError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

export const Query: Pick<QueryResolvers, 'campaign' | 'campaigns' | 'campaignsByIds'> = {
  campaign: (_root, { id }, ctx) => loadCampaign(ctx, id),

  campaigns: (_root, { first, after, status }, ctx) => {
    const size = pageSize(first, DEFAULT_PAGE, MAX_PAGE);
    const scope: CursorScope = { connection: 'campaigns', filter: status ? `status=${status}` : 'all', boundTo: 'the `status` argument' };
    const from = after == null ? null : campaignPosition.decode(ctx.cursors.decode(scope, after));
    return status ? campaignPageInStatus(ctx, scope, status, from, size) : campaignPage(ctx, scope, from, size);
  },

  campaignsByIds: (_root, { ids }, ctx) => {
    if (ids.length > MAX_IDS) throw badArgument('ids', `takes at most ${MAX_IDS} ids, got ${ids.length}; ask in several requests`);
    // A list of promises, not a promise of a list: graphql-js completes each item on its own, so
    // one failed read nulls its place and the others still answer. (The generated type cannot
    // say "item promises that may resolve to null".) A failed read resolves to its error rather
    // than rejecting: both executors answer either as that item's error, but graphql-jit puts the
    // null of an item that rejects at the end of the list instead of in its place.
    return ids.map((id) => loadCampaign(ctx, id)?.catch(asItemError)) as unknown as (CampaignRef | null)[];
  },
};
