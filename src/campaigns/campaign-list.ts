import { MAX_PAGE_LIMIT, type CampaignStatus, type UnknownEnumValue } from '../campaign-api/index.js';
import { known } from './backend-values.js';
import type { GraphQLContext } from '../schema/context.js';
import type { UNKNOWN_VALUE } from '../schema/enum-values.js';
import type { CampaignPage, CampaignRef } from '../schema/models.js';
import { LIMIT_ERROR_CODE } from '../graphql/limits/index.js';
import { type CursorScope } from '../graphql/pagination.js';
import { campaignPosition, type CampaignPosition } from './positions.js';
import { campaignRef } from './campaign-ref.js';
import { clientError } from '../graphql/errors.js';

type Row = { ymCampaignId: number; campaignStatus: CampaignStatus | UnknownEnumValue };
const ref = (row: Row): CampaignRef => campaignRef(row.ymCampaignId, row.campaignStatus);

/**
 * A page of `rows`, the items from `start` on. Cursors carry each item's id (and its index as a
 * hint), so the next page resumes after that id whatever changed in between.
 */
function pageOf(ctx: GraphQLContext, scope: CursorScope, rows: readonly Row[], start: number, total: number, hasPrevious: boolean): CampaignPage {
  return {
    items: rows.map(ref),
    totalCount: total,
    hasNextPage: start + rows.length < total,
    hasPreviousPage: hasPrevious,
    cursor: (i) => ctx.cursors.encode(scope, campaignPosition.encode({ lastId: rows[i]!.ymCampaignId, index: start + i })),
  };
}

/** Index of the first row after `lastId` in rows ordered by id. */
const firstAfter = (rows: readonly Row[], lastId: number) => {
  const i = rows.findIndex((row) => row.ymCampaignId > lastId);
  return i === -1 ? rows.length : i;
};

/**
 * One page of the partner's whole list. get-all-campaigns pages by offset over campaigns ordered
 * by id; campaigns are never deleted and new ones get higher ids, so the campaign after the last
 * one seen is at the next offset: one backend call, as for the first page. Should the list ever
 * have shifted (the page starts at or before the last id seen, or ends before it), the page is
 * found by id in the whole list instead, within the status filter's scan limit.
 */
export async function campaignPage(ctx: GraphQLContext, scope: CursorScope, after: CampaignPosition | null, size: number): Promise<CampaignPage> {
  const offset = after ? after.index + 1 : 0;
  // The backend's limit is 1..100; a page of 0 still needs the total.
  const { total, campaigns } = await ctx.loaders.listPage.load({ limit: Math.max(size, 1), offset });
  const rows = campaigns.slice(0, size);
  const shifted = after !== null && (offset > total || (rows.length > 0 && rows[0]!.ymCampaignId <= after.lastId));
  if (!shifted) return pageOf(ctx, scope, rows, offset, total, offset > 0);
  const all = await wholeList(ctx, 'after');
  const start = firstAfter(all, after.lastId);
  return pageOf(ctx, scope, all.slice(start, start + size), start, all.length, start > 0);
}

/**
 * A page of the campaigns in one status. The list already carries each status, so this reads the
 * whole list and no campaign record. Resuming after the last id seen (not at a count of matching
 * campaigns) means a campaign changing status between pages moves no other campaign in or out
 * of the next page: nothing is skipped or repeated.
 */
export async function campaignPageInStatus(
  ctx: GraphQLContext,
  scope: CursorScope,
  status: CampaignStatus | typeof UNKNOWN_VALUE,
  after: CampaignPosition | null,
  size: number,
): Promise<CampaignPage> {
  const matching = (await wholeList(ctx, 'status')).filter((row) => known(row.campaignStatus) === status);
  const start = after ? firstAfter(matching, after.lastId) : 0;
  return pageOf(ctx, scope, matching.slice(start, start + size), start, matching.length, start > 0);
}

/** Every row of the partner's list: pages of 100, fetched concurrently once the total is known. */
async function wholeList(ctx: GraphQLContext, argument: 'status' | 'after'): Promise<Row[]> {
  const first = await ctx.loaders.listPage.load({ limit: MAX_PAGE_LIMIT, offset: 0 });
  // The cost limit cannot see this fan-out before the total is known: bound it here.
  const max = ctx.limits.maxStatusScan;
  if (first.total > max) {
    throw clientError(
      argument === 'status'
        ? `Argument "status" filters at most ${max} campaigns (${Math.ceil(max / MAX_PAGE_LIMIT)} list calls); this partner has ${first.total}. Page without the filter instead.`
        : `Argument "after" points into a list that changed; finding its place reads at most ${max} campaigns and this partner has ${first.total}. Start again without "after".`,
      { extensions: { code: LIMIT_ERROR_CODE, limit: 'status_scan', argument } },
    );
  }
  const offsets: number[] = [];
  for (let offset = MAX_PAGE_LIMIT; offset < first.total; offset += MAX_PAGE_LIMIT) offsets.push(offset);
  const rest = await Promise.all(offsets.map((offset) => ctx.loaders.listPage.load({ limit: MAX_PAGE_LIMIT, offset })));
  return [first, ...rest].flatMap((page) => page.campaigns);
}
