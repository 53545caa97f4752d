import type { CampaignDetails } from '../campaign-api/index.js';
import type { CursorScope, Cursors } from '../graphql/pagination.js';

/**
 * The offer feed's models (codegen `mappers` of `Offer`, `OfferConnection`, `OfferFeedCategory`)
 * and what a request reads of the feed; the feed itself (src/feed/) keeps and builds them.
 */

/**
 * What an offer shows of its campaign: the card, the merchant, the discount, cashback and pin
 * settings, when it ends, where it is shown. The feed is kept for other requests and other
 * instances, so it keeps only these public fields of a running campaign; never a fee, nor the
 * partner's own number for the campaign.
 */
const OFFER_FIELDS = [
  'ymCampaignId',
  'campaignStatus',
  'campaignType',
  'campaignEnd',
  'offerEnd',
  'offerDuration',
  'categoryId',
  'supportedPlatforms',
  'merchantName',
  'merchantDomain',
  'merchantLogoSvg',
  'merchantLogoPng',
  'backgroundColor',
  'fontColor',
  'backgroundImage',
  'appearanceType',
  'description',
  'conditions',
  'acceptUrl',
  'discountType',
  'discountAmount',
  'discountCurrency',
  'cashbackType',
  'cashbackConfirmTime',
  'pinType',
  'pinDisplayType',
  'pinEnd',
  'couponCode',
] as const satisfies readonly (keyof CampaignDetails)[];

/** A campaign's record as an offer reads it (and as every reader of a record may: it is one). */
export type OfferRecord = Pick<CampaignDetails, (typeof OFFER_FIELDS)[number]>;

/** The fields of a record an offer shows, and no other. */
export function offerRecord(record: CampaignDetails): OfferRecord {
  const offer: Partial<Record<keyof OfferRecord, unknown>> = {};
  for (const field of OFFER_FIELDS) if (record[field] !== undefined) offer[field] = record[field];
  return offer as OfferRecord;
}

/** An offer of the feed: a running campaign as the feed keeps it. */
export interface FeedItem {
  /** ymCampaignId. */
  id: number;
  categoryId: number | null;
  /** What the offer shows of the campaign's record (its card is made from it, `cardOf`). */
  record: OfferRecord;
}

/** The feed a request reads: one partner's, or the merged feed of an app's partners. */
export interface FeedView {
  /** The merged feed of every partner asked for, newest campaign first. */
  items: readonly FeedItem[];
  /** When the oldest part was built. */
  builtAt: number;
  /** Past its freshness because rebuilds fail (or have not landed for a further window). */
  stale: boolean;
  /** Some partner's feed could not be built at all and is missing from `items`. */
  incomplete: boolean;
  /** Changes whenever the content may have changed (for response caches and ETags). */
  version: string;
  /** Until when every part counts as fresh (past it, a read may rebuild). */
  freshUntil: number;
  /** The keyed hash of the partner set, for cursors bound to it. */
  setKey: string;
}

/** What a request reads of the offer feed (src/feed/cache.ts keeps it). */
export interface OfferFeed {
  /** The feed of these partners (one or several tokens), built or from the cache. */
  read(tokens: readonly string[]): Promise<FeedView>;
  /**
   * The version `read` would report, when every part is fresh in this process and nothing needs
   * a look at the store; undefined otherwise. Synchronous: for answers remembered per version.
   */
  peekVersion(tokens: readonly string[]): string | undefined;
}

/** `OfferConnection`'s model: a page cut from the cached feed. */
export interface OfferPage {
  items: readonly FeedItem[];
  start: number;
  totalCount: number;
  /** The feed with the platform filter only, for the category tabs. */
  tabs: readonly FeedItem[];
  /** Signs and opens cursors bound to the partner set and the filters they came from. */
  cursors: Cursors;
  scope: CursorScope;
  locale: string | null;
}

/** `Offer`'s model: an item of the feed and the feed's locale. */
export interface OfferModel {
  item: FeedItem;
  locale: string | null;
}

export interface OfferFeedCategoryModel {
  categoryId: number;
  categoryName: string;
  offerCount: number;
}

