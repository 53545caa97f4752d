import { UnderWay } from '../bounded/index.js';
import type { CampaignApi } from '../campaign-api/api.js';
import { BusinessError, MAX_PAGE_LIMIT, type CampaignDetails } from '../campaign-api/index.js';
import type { Coordination } from '../cache/coordination.js';
import { adopt, type FeedStore, type LocalFeeds, type PartnerFeed } from './store.js';
import { offerRecord } from '../schema/offers.js';

/**
 * Building a partner's feed: the campaign API's fan-out, one build per partner at a time in this
 * process, and one per window for a fleet (a short lock in Redis; the other instances wait for
 * its value).
 */

export interface FeedBuilderOptions {
  api: CampaignApi;
  store: FeedStore;
  locals: LocalFeeds;
  coordination: Coordination;
  lockMs: number;
  lockWaitMs: number;
  /** Campaigns a build reads at most per partner. */
  maxCampaigns: number;
  /** Concurrent `campaigns/get` calls of one build. */
  concurrency: number;
  now: () => number;
  /** Whether a feed is within its freshness. */
  fresh: (entry: PartnerFeed) => boolean;
  /** Keeps the promise of work under way until it settles (for `settled`). */
  track: <T>(promise: Promise<T>) => Promise<T>;
  onBuild: ((outcome: 'ok' | 'error', durationMs: number) => void) | undefined;
}

/**
 * How a build is asked for: `wait`, the caller has no feed to serve, so it waits for another
 * instance's build rather than give up when that one holds the lock; `background`, a refresh
 * that gives up then; `force`, a rebuild after a write, which runs even beside a build under way.
 */
export type FlightMode = 'wait' | 'background' | 'force';

const POLL_MS = 25;
/** Builds under way at most (one per partner); past it a build is not joined by later requests. */
const MAX_FLIGHTS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface FeedBuilder {
  /** One build of this partner's feed for this process, and for the fleet through the lock. */
  flight(p: string, token: string, mode: FlightMode): Promise<PartnerFeed | undefined>;
  /** The build of the partner under way in this process, if any. */
  running(p: string): Promise<PartnerFeed | undefined> | undefined;
  stats(): { builds: number; failures: number };
}

export function createFeedBuilder(options: FeedBuilderOptions): FeedBuilder {
  const { api, store, locals, coordination, now, fresh } = options;
  const flights = new UnderWay<string, Promise<PartnerFeed | undefined>>(MAX_FLIGHTS);
  let builds = 0;
  let failures = 0;

  const lockKey = (p: string) => `campaign-bff:feed-lock:${p}`;

  /** The partner's running campaigns, newest first: the list, then each running campaign's record. */
  async function build(token: string): Promise<PartnerFeed> {
    const builtAt = now();
    const started = performance.now();
    builds++;
    try {
      const first = await api.getAllCampaigns(token, { limit: MAX_PAGE_LIMIT, offset: 0 });
      const total = Math.min(first.total, options.maxCampaigns);
      const offsets: number[] = [];
      for (let offset = MAX_PAGE_LIMIT; offset < total; offset += MAX_PAGE_LIMIT) offsets.push(offset);
      const rest = await Promise.all(offsets.map((offset) => api.getAllCampaigns(token, { limit: MAX_PAGE_LIMIT, offset })));
      const running = [first, ...rest]
        .flatMap((page) => page.campaigns)
        .slice(0, total)
        .filter((row) => row.campaignStatus === 'started')
        .map((row) => row.ymCampaignId);
      const records: (CampaignDetails | null)[] = new Array(running.length).fill(null);
      let next = 0;
      const worker = async () => {
        while (next < running.length) {
          const index = next++;
          try {
            records[index] = await api.get(token, { ymCampaignId: running[index]! });
          } catch (error) {
            // Gone between the list and the read: not in the feed.
            if (!(error instanceof BusinessError && error.code === 'campaignNotFound')) throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.concurrency, running.length) }, worker));
      const items = records
        .filter((r): r is CampaignDetails => r !== null && r.campaignStatus === 'started')
        .map((record) => ({ id: record.ymCampaignId, categoryId: record.categoryId ?? null, record: offerRecord(record) }))
        .sort((a, b) => b.id - a.id);
      options.onBuild?.('ok', performance.now() - started);
      return { items, builtAt };
    } catch (error) {
      failures++;
      options.onBuild?.('error', performance.now() - started);
      throw error;
    }
  }

  function flight(p: string, token: string, mode: FlightMode): Promise<PartnerFeed | undefined> {
    const existing = flights.get(p);
    if (existing && mode !== 'force') return existing;
    const local = locals.of(p);
    const promise = (async (): Promise<PartnerFeed | undefined> => {
      const epoch = local.epoch;
      const seen = local.entry?.builtAt ?? -Infinity;
      let locked = await coordination.tryLock(lockKey(p), options.lockMs);
      if (!locked && mode === 'background') return undefined;
      if (!locked && mode === 'wait') {
        // Another instance builds: wait for its value. Its lock ends when it saved the value (or
        // when it died and the lock expired), so whoever takes the lock next builds only if no
        // value came; a slow build on a busy machine never makes a second one.
        const deadline = now() + options.lockWaitMs;
        while (now() < deadline) {
          await sleep(POLL_MS);
          const stored = await store.get(p);
          if (stored && stored.builtAt > seen && fresh(stored)) {
            adopt(local, stored);
            return stored;
          }
          locked = await coordination.tryLock(lockKey(p), options.lockMs);
          if (locked) break;
        }
      }
      try {
        if (locked && mode !== 'force') {
          // Another instance may have finished a build between our look and our lock.
          const stored = await store.get(p);
          if (stored && stored.builtAt > seen && fresh(stored)) {
            adopt(local, stored);
            return stored;
          }
        }
        const entry = await build(token);
        if (local.epoch !== epoch) return entry; // a write came in meanwhile: its own rebuild follows
        adopt(local, entry);
        local.recheck = false;
        await store.save(p, entry);
        return entry;
      } catch (error) {
        local.lastFailureAt = now();
        local.lastError = error;
        throw error;
      } finally {
        if (locked) await coordination.unlock(lockKey(p));
      }
    })();
    flights.enterUntilSettled(p, promise);
    return options.track(promise);
  }

  return { flight, running: (p) => flights.get(p), stats: () => ({ builds, failures }) };
}
