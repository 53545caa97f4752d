import type DataLoader from 'dataloader';
import {
  BusinessError,
  type CampaignDetails,
  type CampaignInfo,
  type PinStatus,
  type ResponseOf,
} from '../campaign-api/index.js';
import { Bulkhead } from '../campaign-api/resilience.js';
import { LoaderContexts } from '../tracing/graphql.js';
import { BatchLoader } from './batch-loader.js';
import { activeTracer } from '../tracing/state.js';
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
  /** campaigns/get; `readAll` reads many at once. */
  details: BatchLoader<number, CampaignDetails | null>;
  /** campaigns/info */
  stats: DataLoader<number, CampaignInfo | null>;
  /** campaigns/get-pins-by-status: all pins of one campaign in one status. */
  pins: DataLoader<PinsKey, string[] | null, string>;
  /** campaigns/get-all-campaigns: one page of the list, shared by aliases and the status filter. */
  listPage: DataLoader<ListPageKey, ResponseOf<'getAllCampaigns'>, string>;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** A record that does not exist loads as null; any other failure is that key's error. */
const notFoundAsNull = (error: unknown): null | Error => (error instanceof BusinessError && error.code === 'campaignNotFound' ? null : asError(error));

/**
 * The loaders of one request, each made on first use: most requests need one loader or none, and
 * this object is made for every request, so it holds no closures until a loader is asked for.
 */
class RequestLoaders implements Loaders {
  #details?: Loaders['details'];
  #stats?: Loaders['stats'];
  #pins?: Loaders['pins'];
  #listPage?: Loaders['listPage'];
  #limiter?: Bulkhead;

  constructor(
    private readonly partner: PartnerApi,
    private readonly concurrency: number,
  ) {}

  /**
   * Calls start in the batch's tick (no await before them), so a page of 100 campaigns is one
   * batch. A request still waiting for its place to start backend work (server/admission.ts)
   * waits once for the whole batch: while it waits it holds its keys, not a chain of promises per
   * call, and what waiting requests hold is what the young generation copies and then promotes
   * under load. `fetch` settles a failure as its key's value (an Error, or null) in the same step
   * that takes its answer, so no key needs a catch of its own.
   */
  private fanOut<K, V>(fetch: (key: K) => Promise<V | Error>) {
    return (keys: readonly K[]): Promise<(V | Error)[]> => {
      const limiter = (this.#limiter ??= new Bulkhead(this.concurrency, Number.POSITIVE_INFINITY));
      const calls = () => Promise.all(keys.map((key) => limiter.run(fetch, key)));
      const waiting = this.partner.admission();
      // A request that left the queue still makes its calls: each is refused as its own, unsent.
      return waiting ? waiting.then(calls, calls) : calls();
    };
  }

  /** A loader over `fetch`; with tracing on, each key's call runs under the resolver that asked first. */
  private loader<K, V, C = K>(fetch: (key: K) => Promise<V | Error>, cacheKeyFn?: (key: K) => C): BatchLoader<K, V, C> {
    if (!activeTracer()) return new BatchLoader<K, V, C>(this.fanOut(fetch), cacheKeyFn);
    const keyOf = cacheKeyFn ?? ((key: K) => key as unknown as C);
    const contexts = new LoaderContexts<C>();
    return new BatchLoader<K, V, C>(
      this.fanOut((key: K) => contexts.run(keyOf(key), () => fetch(key))),
      cacheKeyFn,
      (key) => contexts.remember(key),
    );
  }

  get details() {
    return (this.#details ??= this.loader((id: number) => this.partner.get({ ymCampaignId: id }).then(undefined, notFoundAsNull)));
  }

  get stats() {
    return (this.#stats ??= this.loader((id: number) => this.partner.info({ ymCampaignId: id }).then(undefined, notFoundAsNull)));
  }

  get pins() {
    return (this.#pins ??= this.loader(
      ({ id, status }: PinsKey) => this.partner.getPinsByStatus({ ymCampaignId: id, pinStatus: status }).then((r) => r.pins, notFoundAsNull),
      ({ id, status }) => `${id}:${status}`,
    ));
  }

  get listPage() {
    return (this.#listPage ??= this.loader(
      (key: ListPageKey) => this.partner.getAllCampaigns(key).then(undefined, asError),
      ({ limit, offset }) => `${limit}:${offset}`,
    ));
  }
}

export function createLoaders(partner: PartnerApi, concurrency: number): Loaders {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`createLoaders: concurrency must be a positive integer, got ${concurrency}`);
  }
  return new RequestLoaders(partner, concurrency);
}
