import type { CampaignApi } from '../campaign-api/api.js';
import type { AppsContext } from '../feed/context.js';
import type { Category, CategoryDirectory } from '../categories/directory.js';
import { noTokenError, type TokenProblem } from '../graphql/errors.js';
import type { KeyedQueue } from '../campaigns/keyed-queue.js';
import { createLoaders, type Loaders } from '../campaigns/loaders.js';
import type { KeyedHashes } from '../secrets/index.js';
import { createCursors, type Cursors } from '../graphql/pagination.js';
import { bindPartnerApi, type PartnerApi } from '../campaigns/partner-api.js';
import type { TokenGate } from '../campaigns/token-check.js';
import type { StatusEvent } from '../subscriptions/events.js';
import type { WatchItem } from '../subscriptions/hub.js';
import type { ResponseFacts } from '../pipeline/response-cache.js';

/** What the GraphQL layer needs from the process: built once, shared by every request. */
export interface BffDependencies {
  api: CampaignApi;
  categories: CategoryDirectory;
  /**
   * Uploads of pins, one campaign at a time across all requests of this process: the campaign API
   * answers add-pins with totals only, so a chunk's added pins are its total minus the one before,
   * which holds only while no other upload to that campaign runs in between.
   */
  pinUploads: KeyedQueue;
  limits: {
    /** Pins per add-pins call (the backend takes at most 10,000). */
    pinChunkSize: number;
    /** Backend calls one request's loaders may have in flight at once. */
    loaderConcurrency: number;
    /** Pins one addPins mutation may carry. */
    maxPinsPerMutation: number;
    /** Campaigns the `status` filter of `campaigns` may read (list calls of 100 each). */
    maxStatusScan: number;
  };
  /** Keys the HMAC of pagination cursors (`CURSOR_SECRET`); unset, a fixed key (see graphql/pagination.ts). */
  cursorSecret?: string;
  /** What a cursor's partner is bound to: the token's keyed hash (the fleet's with `CURSOR_SECRET`). */
  hashes: KeyedHashes;
  /** How a request's calls with a token the campaign API has not judged lately go: the first tells the others. */
  tokenGate?: TokenGate;
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
  list(): Promise<Category[]>;
  get(categoryId: number): Promise<Category | undefined>;
}

/**
 * A request's reads of the directory, each telling the response stage which copy the answer was
 * made from: an answer that holds directory data holds while that copy is the one served.
 */
export function recordingFreshness(reader: PartnerCategories, directory: Pick<CategoryDirectory, 'freshCopy'>, response: ResponseFacts | undefined): PartnerCategories {
  if (!response) return reader;
  const depend = () => {
    const copy = directory.freshCopy();
    response.depends(copy ? { fresh: () => directory.freshCopy() === copy } : undefined);
  };
  return {
    list: async () => {
      const list = await reader.list();
      depend();
      return list;
    },
    get: async (categoryId) => {
      const category = await reader.get(categoryId);
      depend();
      return category;
    },
  };
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
  limits: BffDependencies['limits'];
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

export interface RequestScope {
  token: string | null;
  /** Why `token` is null; 'missing' when not given. */
  tokenProblem?: TokenProblem;
  /** The request's AbortSignal, made on first use (most requests never need one). */
  signal?: () => AbortSignal;
  /** Told about every backend call the request makes (for its log line). */
  onBackendCall?: () => void;
  /** Asked before each backend call: undefined to call now, else a promise of the request's place. */
  admit?: () => Promise<void> | undefined;
  /** What the execution tells the response stage (HTTP requests). */
  response?: ResponseFacts;
}

export function createContext(deps: BffDependencies, request: RequestScope): GraphQLContext {
  const token = request.token && request.token.length > 0 ? request.token : null;
  const tokenProblem = request.tokenProblem ?? 'missing';
  const partner = bindPartnerApi(deps.api, token, request.signal, request.onBackendCall, tokenProblem, request.admit, deps.tokenGate);
  const directory = deps.categories;
  return {
    token,
    tokenProblem,
    partner,
    loaders: createLoaders(partner, deps.limits.loaderConcurrency),
    categories:
      token === null
        ? { list: () => Promise.reject(noTokenError(tokenProblem)), get: () => Promise.reject(noTokenError(tokenProblem)) }
        : recordingFreshness(directory.forToken(token), directory, request.response),
    pinUploads: deps.pinUploads,
    limits: deps.limits,
    cursors: createCursors(token === null ? null : () => deps.hashes.of('cursor-partner', token), deps.cursorSecret),
    ...(request.response ? { response: request.response } : {}),
  };
}
