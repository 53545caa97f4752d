import { campaignPage, campaignPageInStatus } from '../campaign-list.js';
import { UnauthenticatedError } from '../../campaign-api/index.js';
import { badArgument, noTokenError } from '../../graphql/errors.js';
import type { QueryResolvers } from '../../schema/generated/resolvers-types.js';
import type { CampaignRef } from '../../schema/models.js';
import { pageSize, type CursorScope } from '../../graphql/pagination.js';
import { campaignPosition } from '../positions.js';
import { campaignNumberOf, parseCampaignId } from '../campaign-id.js';
import { campaignRef } from '../campaign-ref.js';
import type { GraphQLContext } from '../../schema/context.js';

export const MAX_IDS = 100;
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

function loadCampaign(ctx: GraphQLContext, id: string): Promise<CampaignRef | null> | null {
  const ymCampaignId = parseCampaignId(id);
  if (ymCampaignId === null) return null;
  return ctx.loaders.details
    .load(ymCampaignId)
    .then((details) => (details ? campaignRef(ymCampaignId, details.campaignStatus, details) : null));
}

/** What `node(id:)` finds: a campaign, by its global id only (a bare number names no type). */
function loadNode(ctx: GraphQLContext, id: string): Promise<CampaignRef | null> | null {
  const ymCampaignId = campaignNumberOf(id);
  return ymCampaignId === null ? null : loadCampaign(ctx, String(ymCampaignId));
}

/** A list argument of ids: at most MAX_IDS, refused as a whole beyond. */
function checkedIds(ids: readonly string[]): readonly string[] {
  if (ids.length > MAX_IDS) throw badArgument('ids', `takes at most ${MAX_IDS} ids, got ${ids.length}; ask in several requests`);
  return ids;
}

/**
 * Items read one call each, as their list: each item its value, null, or its own error (one failed
 * read nulls its place and the others still answer). The campaigns are read once each through the
 * request's loader in one batch (`readAll`, which gives each read's error in its place rather than
 * rejecting), and the list is made from them in one go: no promise per item, which for a list of a
 * hundred ids was most of what the request allocated. An item is its error rather than a rejected promise:
 * both executors answer it as that item's error, but graphql-jit puts the null of an item that
 * rejects at the end of the list instead of in its place. Without a token, or with one the
 * campaign API refuses, every item would fail alike: the field fails as a whole, with one error,
 * instead of one per item.
 */
async function byIds(ctx: GraphQLContext, ids: readonly string[], numberOf: (id: string) => number | null): Promise<(CampaignRef | null | Error)[]> {
  checkedIds(ids);
  if (ctx.token === null) throw noTokenError(ctx.tokenProblem);
  const numbers = ids.map(numberOf);
  const unique = [...new Set(numbers.filter((n): n is number => n !== null))];
  const read = await ctx.loaders.details.readAll(unique);
  const refused = read.find((item) => item instanceof UnauthenticatedError);
  if (refused) throw refused;
  const found = new Map<number, CampaignRef | null | Error>();
  unique.forEach((n, i) => {
    const details = read[i];
    found.set(n, details instanceof Error ? details : details ? campaignRef(n, details.campaignStatus, details) : null);
  });
  return numbers.map((n) => (n === null ? null : found.get(n)!));
}

export const Query: Pick<QueryResolvers, 'campaign' | 'campaigns' | 'campaignsByIds' | 'node' | 'nodes'> = {
  campaign: (_root, { id }, ctx) => loadCampaign(ctx, id),

  campaigns: (_root, { first, after, withStatus, status: deprecatedStatus }, ctx) => {
    if (withStatus != null && deprecatedStatus != null) throw badArgument('status', 'cannot be given with `withStatus`, which replaces it; give `withStatus` alone');
    const status = withStatus ?? deprecatedStatus;
    const size = pageSize(first, DEFAULT_PAGE, MAX_PAGE);
    // One scope for both arguments: a cursor of either filter pages on with the other.
    const scope: CursorScope = { connection: 'campaigns', filter: status ? `status=${status}` : 'all', boundTo: 'the status filter' };
    const from = after == null ? null : campaignPosition.decode(ctx.cursors.decode(scope, after));
    return status ? campaignPageInStatus(ctx, scope, status, from, size) : campaignPage(ctx, scope, from, size);
  },

  // (The generated type cannot say "items that may be their own error".)
  campaignsByIds: (_root, { ids }, ctx) => byIds(ctx, ids, parseCampaignId) as Promise<(CampaignRef | null)[]>,

  node: (_root, { id }, ctx) => loadNode(ctx, id),

  nodes: (_root, { ids }, ctx) => byIds(ctx, ids, campaignNumberOf) as Promise<(CampaignRef | null)[]>,
};
