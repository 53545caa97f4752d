import type { CampaignApi } from '../campaign-api/api.js';
import { OPERATION_NAMES, type OperationName, type RequestOf, type ResponseOf } from '../campaign-api/index.js';
import { missingTokenError } from './errors.js';

/** The campaign API as one request's partner sees it: token and cancellation already bound. */
export type PartnerApi = {
  [N in OperationName]: (request: RequestOf<N>) => Promise<ResponseOf<N>>;
};

/**
 * Binds the request's token and AbortSignal to every operation. Without a token every call
 * fails with UNAUTHENTICATED before anything is sent.
 */
export function bindPartnerApi(api: CampaignApi, token: string | null, signal?: AbortSignal): PartnerApi {
  const options = signal ? { signal } : undefined;
  const bound = {} as Record<OperationName, (request: never) => Promise<unknown>>;
  for (const name of OPERATION_NAMES) {
    const call = api[name] as (token: string, request: unknown, options?: { signal?: AbortSignal }) => Promise<unknown>;
    bound[name] = token === null ? () => Promise.reject(missingTokenError()) : (request) => call.call(api, token, request, options);
  }
  return bound as unknown as PartnerApi;
}
