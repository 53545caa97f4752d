import type { CampaignApi } from '../campaign-api/api.js';
import type { CategoryDirectory } from '../categories/directory.js';
import { noTokenError, type TokenProblem } from '../graphql/errors.js';
import { createCursors } from '../graphql/pagination.js';
import type { KeyedQueue } from '../partner/keyed-queue.js';
import { createLoaders } from '../partner/loaders.js';
import { bindPartnerApi } from '../partner/partner-api.js';
import type { TokenGate } from '../partner/token-gate.js';
import type { ResponseFacts } from '../pipeline/response-cache.js';
import type { GraphQLContext, PartnerCategories, RequestLimits } from '../schema/context.js';
import type { KeyedHashes } from '../secrets/index.js';

/**
 * How the composition root makes a request's context (src/schema/context.ts), for every
 * transport: the partner's bound API, fresh loaders, the directory as the partner reads it,
 * cursors bound to the partner.
 */

/** What every request's context is made from: built once, shared by every request. */
export interface BffDependencies {
  api: CampaignApi;
  categories: CategoryDirectory;
  /**
   * Uploads of pins, one campaign at a time across all requests of this process: the campaign API
   * answers add-pins with totals only, so a chunk's added pins are its total minus the one before,
   * which holds only while no other upload to that campaign runs in between.
   */
  pinUploads: KeyedQueue;
  limits: RequestLimits;
  /** Keys the HMAC of pagination cursors (`CURSOR_SECRET`); unset, a fixed key (see graphql/pagination.ts). */
  cursorSecret?: string;
  /** What a cursor's partner is bound to: the token's keyed hash (the fleet's with `CURSOR_SECRET`). */
  hashes: KeyedHashes;
  /** How a request's calls with a token the campaign API has not judged lately go: the first tells the others. */
  tokenGate?: TokenGate;
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
