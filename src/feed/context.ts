import type { CursorScope, Cursors } from '../graphql/pagination.js';
import type { AppCaller } from '../pipeline/types.js';
import type { FeedCache, FeedItem } from './cache.js';

/** What one request knows of the offer feed: the app it came from, if any, and the feed it reads. */
export interface AppsContext {
  /** The app whose key the request carried; null for a partner token. */
  app: AppCaller | null;
  feed: FeedCache;
  /** Keys the HMAC of feed cursors: `CURSOR_SECRET`, else a random key of this process. */
  cursorSecret: string;
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

