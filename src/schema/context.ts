import type { TokenProblem } from '../graphql/errors.js';
import type { Cursors } from '../graphql/pagination.js';
import type { KeyedQueue } from '../partner/keyed-queue.js';
import type { Loaders } from '../partner/loaders.js';
import type { PartnerApi } from '../partner/partner-api.js';
import type { AppCaller } from '../pipeline/types.js';
import type { ResponseFacts } from '../pipeline/response-cache.js';
import type { CategoryModel, StatusEvent, WatchItem } from './models.js';
import type { OfferFeed } from './offers.js';

/**
 * The request context every resolver receives: types only, below every domain, so that each
 * domain's resolvers can read it and none is imported back. The composition root makes it
 * (src/server/request-context.ts).
 */

/** The bounds a request's resolvers apply, from the configuration. */
export interface RequestLimits {
  /** Pins per add-pins call (the backend takes at most 10,000). */
  pinChunkSize: number;
  /** Backend calls one request's loaders may have in flight at once. */
  loaderConcurrency: number;
  /** Pins one addPins mutation may carry. */
  maxPinsPerMutation: number;
  /** Campaigns the `status` filter of `campaigns` may read (list calls of 100 each). */
  maxStatusScan: number;
}

/** What a subscription's context carries besides the request context: live campaign status. */
export interface LiveSource {
  watch(token: string, ids: ReadonlySet<number> | null): AsyncIterableIterator<WatchItem>;
  /** The loaders every subscriber of the event's partner on this instance reads it with. */
  loadersFor(event: StatusEvent, token: string): Loaders;
  maxIds: number;
}

/** The category directory as one request's partner reads it. */
export interface PartnerCategories {
  list(): Promise<CategoryModel[]>;
  get(categoryId: number): Promise<CategoryModel | undefined>;
}

/** What one request knows of the offer feed: the app it came from, if any, and the feed it reads. */
export interface AppsContext {
  /** The app whose key the request carried; null for a partner token. */
  app: AppCaller | null;
  feed: OfferFeed;
  /** Keys the HMAC of feed cursors: `CURSOR_SECRET`, else a random key of this process. */
  cursorSecret: string;
}

/** Per request: the partner's token, its bound API, fresh loaders. Nothing here outlives the request. */
export interface GraphQLContext {
  token: string | null;
  /** Why `token` is null, for the error that says so. */
  tokenProblem: TokenProblem;
  partner: PartnerApi;
  loaders: Loaders;
  categories: PartnerCategories;
  pinUploads: KeyedQueue;
  limits: RequestLimits;
  /** Pagination cursors, bound to this partner. */
  cursors: Cursors;
  /** Live campaign status; set only for operations of the WebSocket and SSE transports. */
  live?: LiveSource;
  /** App keys and the shared offer feed; set by the server for every request. */
  apps?: AppsContext;
  /**
   * What the request's execution tells the response stage: how long what it read holds, and
   * what its answer adds to `extensions`. Set for requests over HTTP.
   */
  response?: ResponseFacts;
}
