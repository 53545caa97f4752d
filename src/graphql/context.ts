import type { CampaignApi } from '../campaign-api/api.js';
import type { AppsContext } from '../apps/context.js';
import type { Category, CategoryDirectory } from '../cache/category-directory.js';
import { missingTokenError } from './errors.js';
import { createLoaders, type Loaders } from './loaders.js';
import { bindPartnerApi, type PartnerApi } from './partner-api.js';

/** What the GraphQL layer needs from the process: built once, shared by every request. */
export interface BffDependencies {
  api: CampaignApi;
  categories: CategoryDirectory;
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
}

/** The category directory as one request's partner reads it. */
export interface PartnerCategories {
  list(): Promise<Category[]>;
  get(categoryId: number): Promise<Category | undefined>;
}

/** Per request: the partner's token, its bound API, fresh loaders. Nothing here outlives the request. */
export interface GraphQLContext {
  token: string | null;
  partner: PartnerApi;
  loaders: Loaders;
  categories: PartnerCategories;
  limits: BffDependencies['limits'];
  /** App keys and the shared offer feed; set by the server for every request. */
  apps?: AppsContext;
}

export interface RequestScope {
  token: string | null;
  /** The request's AbortSignal, made on first use (most requests never need one). */
  signal?: () => AbortSignal;
  /** Told about every backend call the request makes (for its log line). */
  onBackendCall?: () => void;
}

export function createContext(deps: BffDependencies, request: RequestScope): GraphQLContext {
  const token = request.token && request.token.length > 0 ? request.token : null;
  const partner = bindPartnerApi(deps.api, token, request.signal, request.onBackendCall);
  const directory = deps.categories;
  return {
    token,
    partner,
    loaders: createLoaders(partner, deps.limits.loaderConcurrency),
    categories:
      token === null
        ? { list: () => Promise.reject(missingTokenError()), get: () => Promise.reject(missingTokenError()) }
        : { list: () => directory.list(token), get: (id) => directory.get(token, id) },
    limits: deps.limits,
  };
}
