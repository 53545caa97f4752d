import type { AppKey } from './app-keys.js';
import type { FeedCache, FeedItem } from './feed-cache.js';

/** What one request knows about apps: where it came from, and what the feed served it. */
export interface AppsContext {
  /** The app whose key the request carried; null for a partner token. */
  app: AppKey | null;
  feed: FeedCache;
  /** Set by `offerFeed`: for `extensions.feed` and the answer's cache headers. */
  served?: { stale: boolean; incomplete: boolean; builtAt: number; version: string };
}

/** `OfferConnection`'s model: a page cut from the cached feed. */
export interface OfferPage {
  items: readonly FeedItem[];
  start: number;
  totalCount: number;
  /** The feed with the platform filter only, for the category tabs. */
  tabs: readonly FeedItem[];
  /** Binds cursors to the partner set and filters they came from. */
  binding: string;
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

