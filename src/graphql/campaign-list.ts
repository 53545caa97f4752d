import { GraphQLError } from 'graphql';
import { MAX_PAGE_LIMIT, type CampaignStatus, type UnknownEnumValue } from '../campaign-api/index.js';
import { known } from './backend-values.js';
import type { GraphQLContext } from './context.js';
import type { UNKNOWN_VALUE } from './enum-values.js';
import type { CampaignPage, CampaignRef } from './models.js';
import { LIMIT_ERROR_CODE } from './limits/index.js';

type Row = { ymCampaignId: number; campaignStatus: CampaignStatus | UnknownEnumValue };
const ref = (row: Row): CampaignRef => ({ id: row.ymCampaignId, status: row.campaignStatus });

/** One page straight from get-all-campaigns: one backend call. */
export async function campaignPage(ctx: GraphQLContext, start: number, size: number): Promise<CampaignPage> {
  // The backend's limit is 1..100; a page of 0 still needs the total.
  const { total, campaigns } = await ctx.loaders.listPage.load({ limit: Math.max(size, 1), offset: start });
  return { items: campaigns.slice(0, size).map(ref), start, totalCount: total };
}

/**
 * A page of the campaigns in one status. The list already carries each status, so this reads the
 * whole list (pages of 100, fetched concurrently once the total is known) and no campaign record.
 */
export async function campaignPageInStatus(
  ctx: GraphQLContext,
  status: CampaignStatus | typeof UNKNOWN_VALUE,
  start: number,
  size: number,
): Promise<CampaignPage> {
  const first = await ctx.loaders.listPage.load({ limit: MAX_PAGE_LIMIT, offset: 0 });
  // The cost limit cannot see this fan-out before the total is known: bound it here.
  const max = ctx.limits.maxStatusScan;
  if (first.total > max) {
    throw new GraphQLError(
      `Argument "status" filters at most ${max} campaigns (${Math.ceil(max / MAX_PAGE_LIMIT)} list calls); this partner has ${first.total}. Page without the filter instead.`,
      { extensions: { code: LIMIT_ERROR_CODE, limit: 'status_scan', argument: 'status' } },
    );
  }
  const offsets: number[] = [];
  for (let offset = MAX_PAGE_LIMIT; offset < first.total; offset += MAX_PAGE_LIMIT) offsets.push(offset);
  const rest = await Promise.all(offsets.map((offset) => ctx.loaders.listPage.load({ limit: MAX_PAGE_LIMIT, offset })));
  const matching = [first, ...rest].flatMap((page) => page.campaigns).filter((row) => known(row.campaignStatus) === status);
  return { items: matching.slice(start, start + size).map(ref), start, totalCount: matching.length };
}
