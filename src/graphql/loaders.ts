import { bulkhead } from 'cockatiel';
import DataLoader from 'dataloader';
import {
  BusinessError,
  type CampaignDetails,
  type CampaignInfo,
  type PinStatus,
  type ResponseOf,
} from '../campaign-api/index.js';
import type { PartnerApi } from './partner-api.js';

export interface PinsKey {
  id: number;
  status: PinStatus;
}

export interface ListPageKey {
  limit: number;
  offset: number;
}

/**
 * One request's loaders. Each de-duplicates its keys and fans a batch out as concurrent calls,
 * at most `concurrency` in flight for the whole request. A record that does not exist loads as
 * `null` (campaignNotFound), so `campaign(id)` can answer null.
 */
export interface Loaders {
  /** campaigns/get */
  details: DataLoader<number, CampaignDetails | null>;
  /** campaigns/info */
  stats: DataLoader<number, CampaignInfo | null>;
  /** campaigns/get-pins-by-status: all pins of one campaign in one status. */
  pins: DataLoader<PinsKey, string[] | null, string>;
  /** campaigns/get-all-campaigns: one page of the list, shared by aliases and the status filter. */
  listPage: DataLoader<ListPageKey, ResponseOf<'getAllCampaigns'>, string>;
}

const notFoundAsNull = (error: unknown): null => {
  if (error instanceof BusinessError && error.code === 'campaignNotFound') return null;
  throw error;
};

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

export function createLoaders(partner: PartnerApi, concurrency: number): Loaders {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`createLoaders: concurrency must be a positive integer, got ${concurrency}`);
  }
  // Made on first use: most requests need one loader or none, and this runs for every request.
  let limiter: ReturnType<typeof bulkhead> | undefined;

  // Calls start in the batch's tick (no await before them), so a page of 100 campaigns is one batch.
  const fanOut =
    <K, V>(fetch: (key: K) => Promise<V>) =>
    (keys: readonly K[]): Promise<(V | Error)[]> => {
      limiter ??= bulkhead(concurrency, Number.POSITIVE_INFINITY);
      const bound = limiter;
      return Promise.all(keys.map((key) => bound.execute(() => fetch(key)).catch(asError)));
    };

  const make: { [K in keyof Loaders]: () => Loaders[K] } = {
    details: () => new DataLoader(fanOut((id: number) => partner.get({ ymCampaignId: id }).catch(notFoundAsNull))),
    stats: () => new DataLoader(fanOut((id: number) => partner.info({ ymCampaignId: id }).catch(notFoundAsNull))),
    pins: () =>
      new DataLoader(
        fanOut(({ id, status }: PinsKey) =>
          partner
            .getPinsByStatus({ ymCampaignId: id, pinStatus: status })
            .then((r) => r.pins)
            .catch(notFoundAsNull),
        ),
        { cacheKeyFn: ({ id, status }) => `${id}:${status}` },
      ),
    listPage: () =>
      new DataLoader(
        fanOut((key: ListPageKey) => partner.getAllCampaigns(key)),
        { cacheKeyFn: ({ limit, offset }) => `${limit}:${offset}` },
      ),
  };
  const made: Partial<Loaders> = {};
  const loaders = {} as Loaders;
  for (const name of Object.keys(make) as (keyof Loaders)[]) {
    Object.defineProperty(loaders, name, {
      enumerable: true,
      get: () => (made[name] ??= make[name]() as never),
    });
  }
  return loaders;
}
