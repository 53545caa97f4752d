import { BoundedMemory, InFlight, type ExpiringStore } from '../bounded/index.js';
import type { CampaignApi } from '../campaign-api/api.js';
import type { Coordination } from '../cache/coordination.js';
import type { KeyedHashes } from '../secrets/index.js';
import { createFeedBuilder } from './builder.js';
import { createFeedRefresh } from './refresh.js';
import type { FeedItem, FeedView, OfferFeed } from '../schema/offers.js';
import { adopt, FeedStore, LocalFeeds, type PartnerFeed } from './store.js';

/**
 * The shared response cache of the offer feed.
 *
 * Without it every app open costs the campaign API a full fan-out: the whole list of a partner's
 * campaigns (one `get-all-campaigns` per 100) and one `campaigns/get` per running campaign. Here
 * a partner's feed is built once per freshness window and served to every app open from the
 * shared cache (memory, or Redis shared by a fleet):
 *
 * - one build per partner and window: concurrent misses in a process share one build, and
 *   instances sharing Redis take a short lock (`SET NX PX`); the others wait for its value;
 * - stale-while-revalidate: past its freshness a feed is served at once while one rebuild runs;
 *   when rebuilds fail the last good feed keeps being served (for `maxStaleMs`), marked stale;
 * - a write through this BFF that can change what a feed shows rebuilds that partner's feed at
 *   once and tells every instance (pub/sub), so a stopped campaign leaves every feed within a
 *   build's time;
 * - cached per partner, whatever the filter, page or locale asked: those are applied to the
 *   cached feed per request, so a flood of distinct variables cannot grow the cache.
 *
 * Keys hold the partner token's keyed hash, never the token.
 *
 * This module is the read path; builds are builder.ts's, refreshes after writes refresh.ts's,
 * and where feeds are kept store.ts's.
 */

export interface FeedCacheOptions {
  api: CampaignApi;
  /** The feed's namespace of the shared cache (`feedStoreBounds`). */
  store: ExpiringStore<PartnerFeed>;
  coordination: Coordination;
  /** What a partner is named by in keys and messages: its token's keyed hash. */
  hashes: KeyedHashes;
  ttlMs: number;
  maxStaleMs: number;
  lockMs: number;
  lockWaitMs: number;
  /** Campaigns a build reads at most per partner. */
  maxCampaigns: number;
  /** Concurrent `campaigns/get` calls of one build. */
  concurrency: number;
  now?: () => number;
  onBuild?: (outcome: 'ok' | 'error', durationMs: number) => void;
  onLookup?: (result: 'hit' | 'stale' | 'miss' | 'error') => void;
  onError?: (error: unknown, context: string) => void;
}

export interface FeedCache extends OfferFeed {
  /** A write through this BFF may have changed this partner's feed: rebuild it now, everywhere. */
  invalidate(token: string): void;
  /** Resolves when no build or invalidation of this process is running (tests, shutdown). */
  settled(): Promise<void>;
  stats(): { builds: number; failures: number };
}

const STORE_RECHECK_MS = 100;
const MAX_MERGED = 1000;

export function createFeedCache(options: FeedCacheOptions): FeedCache {
  const { ttlMs, maxStaleMs } = options;
  const now = options.now ?? Date.now;
  const retryAfterFailureMs = Math.min(ttlMs, 5000);
  const locals = new LocalFeeds();
  const store = new FeedStore(options.store, ttlMs + maxStaleMs, options.onError);
  const partnerHash = (token: string) => options.hashes.of('feed-partner', token);
  const merged = new BoundedMemory<string, { parts: PartnerFeed[]; items: FeedItem[] }>({ maxEntries: MAX_MERGED });
  /** Work under way (builds, and rebuilds after writes), which closing waits for. */
  const pending = new InFlight<Promise<unknown>>();

  const fresh = (entry: PartnerFeed) => now() - entry.builtAt <= ttlMs;
  const servable = (entry: PartnerFeed) => now() - entry.builtAt <= ttlMs + maxStaleMs;

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.addUntilSettled(promise);
    return promise;
  }

  const builder = createFeedBuilder({
    api: options.api,
    store,
    locals,
    coordination: options.coordination,
    lockMs: options.lockMs,
    lockWaitMs: options.lockWaitMs,
    maxCampaigns: options.maxCampaigns,
    concurrency: options.concurrency,
    now,
    fresh,
    track,
    onBuild: options.onBuild,
  });
  const refresh = createFeedRefresh({ store, locals, builder, coordination: options.coordination, partnerHash, track, onError: options.onError });

  async function partnerFeed(token: string): Promise<{ entry: PartnerFeed; stale: boolean }> {
    const p = partnerHash(token);
    const local = locals.of(p);
    // The hot path: a fresh copy in this process costs no store round trip.
    if (local.entry && !local.recheck && fresh(local.entry)) {
      options.onLookup?.('hit');
      return { entry: local.entry, stale: false };
    }
    // A rebuild after a write is running here: its answer is the one to serve.
    const forced = local.recheck ? builder.running(p) : undefined;
    if (forced) await forced.catch(() => undefined);
    if (local.recheck || now() >= local.nextStoreCheckAt) {
      local.nextStoreCheckAt = now() + STORE_RECHECK_MS;
      const stored = await store.get(p);
      local.recheck = false;
      adopt(local, stored);
    }
    const entry = local.entry;
    if (entry && fresh(entry)) {
      options.onLookup?.('hit');
      return { entry, stale: false };
    }
    if (entry && servable(entry)) {
      options.onLookup?.('stale');
      if (!builder.running(p) && now() >= local.nextRefreshAt && now() - local.lastFailureAt >= retryAfterFailureMs) {
        local.nextRefreshAt = now() + STORE_RECHECK_MS;
        builder.flight(p, token, 'background').catch((error: unknown) => options.onError?.(error, 'feed refresh'));
      }
      // Served while its refresh runs, it is as good as fresh; it is stale (and says so) once a
      // refresh failed, or when no refresh has landed for a whole further window.
      const stale = local.lastFailureAt > entry.builtAt || now() - entry.builtAt > 2 * ttlMs;
      return { entry, stale };
    }
    // A feed that could not be built a moment ago: the same answer, without another call (a
    // refused token or a down backend must not cost a call per app open).
    if (!builder.running(p) && local.lastError !== undefined && now() - local.lastFailureAt < retryAfterFailureMs) {
      options.onLookup?.('error');
      throw local.lastError;
    }
    try {
      const built = await builder.flight(p, token, 'wait');
      options.onLookup?.('miss');
      if (built) return { entry: built, stale: false };
    } catch (error) {
      options.onLookup?.('error');
      throw error;
    }
    throw new Error('feed build returned nothing');
  }

  function mergedItems(setKey: string, parts: PartnerFeed[]): FeedItem[] {
    if (parts.length === 1) return parts[0]!.items;
    const memo = merged.get(setKey);
    if (memo && memo.parts.length === parts.length && memo.parts.every((part, i) => part === parts[i])) return memo.items;
    const seen = new Set<number>();
    const items = parts
      .flatMap((part) => part.items)
      .sort((a, b) => b.id - a.id)
      .filter((item) => (seen.has(item.id) ? false : (seen.add(item.id), true)));
    merged.set(setKey, { parts, items });
    return items;
  }

  return {
    async read(tokens) {
      const parts = await Promise.allSettled(tokens.map((token) => partnerFeed(token)));
      const ok = parts.filter((r): r is PromiseFulfilledResult<{ entry: PartnerFeed; stale: boolean }> => r.status === 'fulfilled');
      if (ok.length === 0) throw (parts[0] as PromiseRejectedResult).reason;
      const setKey = tokens.length === 1 ? partnerHash(tokens[0]!) : options.hashes.of('feed-partners', tokens.map(partnerHash).sort().join(','));
      const entries = ok.map((r) => r.value.entry);
      return {
        items: mergedItems(setKey, entries),
        builtAt: Math.min(...entries.map((e) => e.builtAt)),
        freshUntil: Math.min(...entries.map((e) => e.builtAt)) + options.ttlMs,
        stale: ok.some((r) => r.value.stale),
        incomplete: ok.length < parts.length,
        version: `${entries.map((e) => e.builtAt).join('.')}${ok.length < parts.length ? '-' : ''}`,
        setKey,
      };
    },
    peekVersion(tokens) {
      let version = '';
      for (let i = 0; i < tokens.length; i++) {
        const local = locals.get(partnerHash(tokens[i]!));
        if (!local?.entry || local.recheck || !fresh(local.entry)) return undefined;
        version += i === 0 ? `${local.entry.builtAt}` : `.${local.entry.builtAt}`;
      }
      return version;
    },
    invalidate: (token) => refresh.invalidate(token),
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    stats: () => builder.stats(),
  };
}
