import { PLATFORMS } from '../../campaign-api/index.js';
import { fromRecord, known, raw, recordOf } from '../backend-values.js';
import { UNKNOWN_VALUE } from '../../schema/enum-values.js';
import { cardOf } from './campaign-card.js';
import { pinSettingsOf } from './campaign-pin-settings.js';
import { cashbackOf } from './campaign-cashback.js';
import type { CampaignResolvers } from '../../schema/generated/resolvers-types.js';
import type { PinModel, PinPage } from '../../schema/models.js';
import { pageSize, type CursorScope } from '../../graphql/pagination.js';
import { pinCodeHash, pinPosition } from '../positions.js';

const DEFAULT_PINS_PAGE = 100;
const MAX_PINS_PAGE = 1000;

const platforms = (value: string | undefined) =>
  value === undefined
    ? null
    : value
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => ((PLATFORMS as readonly string[]).includes(p) ? (p as (typeof PLATFORMS)[number]) : UNKNOWN_VALUE));

// The groups (merchant, appearance, ...) resolve to the record itself; their own resolvers pick fields.
const record = fromRecord((d) => d);

export const Campaign: CampaignResolvers = {
  // id, ymCampaignId, status and rawStatus are the ref's own properties (see campaignRef).
  partnerCampaignId: fromRecord((d) => d.partnerCampaignId ?? null),
  type: fromRecord((d) => known(d.campaignType)),
  rawType: fromRecord((d) => raw(d.campaignType)),
  description: fromRecord((d) => d.description),
  conditions: fromRecord((d) => d.conditions),
  startsAt: fromRecord((d) => d.campaignStart ?? null),
  endsAt: fromRecord((d) => d.campaignEnd ?? null),
  offerDurationHours: fromRecord((d) => d.offerDuration ?? null),
  offerEndsAt: fromRecord((d) => d.offerEnd ?? null),
  acceptUrl: fromRecord((d) => d.acceptUrl ?? null),
  supportedPlatforms: fromRecord((d) => platforms(d.supportedPlatforms)),
  merchant: record,
  appearance: record,
  discount: record,
  fee: record,
  card: fromRecord((d) => cardOf(d)),
  pinSettings: fromRecord(pinSettingsOf),
  cashback: fromRecord(cashbackOf),
  categoryId: fromRecord((d) => (d.categoryId === undefined ? null : String(d.categoryId))),
  category: async (ref, _args, ctx) => {
    const { categoryId } = await recordOf(ref, ctx);
    if (categoryId === undefined) return null;
    return (await ctx.categories.get(categoryId)) ?? null;
  },
  stats: (ref, _args, ctx) => ctx.loaders.stats.load(ref.ymCampaignId),
  pins: (ref, { status, first, after }, ctx) => {
    const size = pageSize(first, DEFAULT_PINS_PAGE, MAX_PINS_PAGE);
    const scope: CursorScope = { connection: 'pins', filter: `campaign=${ref.ymCampaignId};status=${status}`, boundTo: 'the campaign and the `status` argument' };
    const from = after == null ? null : pinPosition.decode(ctx.cursors.decode(scope, after));
    return ctx.loaders.pins.load({ id: ref.ymCampaignId, status }).then((codes): PinPage | null => {
      if (codes === null) return null;
      const start = from === null ? 0 : resumeAt(codes, from);
      const items = codes.slice(start, start + size).map((code): PinModel => ({ code, status }));
      return {
        items,
        totalCount: codes.length,
        hasNextPage: start + items.length < codes.length,
        hasPreviousPage: start > 0,
        cursor: (i) => ctx.cursors.encode(scope, pinPosition.encode({ index: start + i, code: items[i]!.code })),
      };
    });
  },
};

/**
 * Where the next page of pins starts: after the last code seen, found where it was or, when codes
 * before it left this status, where it moved to. When that code itself left the status, the code
 * that took its place comes next.
 */
function resumeAt(codes: readonly string[], from: { index: number; hash: string }): number {
  if (from.index < codes.length && pinCodeHash(codes[from.index]!) === from.hash) return from.index + 1;
  const moved = codes.findIndex((code) => pinCodeHash(code) === from.hash);
  return moved === -1 ? Math.min(from.index, codes.length) : moved + 1;
}
