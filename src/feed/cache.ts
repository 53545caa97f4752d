import { createHash, randomUUID } from 'node:crypto';
import type { Keyv } from 'keyv';
import type { CampaignApi } from '../campaign-api/api.js';
import { BusinessError, MAX_PAGE_LIMIT, type CampaignDetails } from '../campaign-api/index.js';
import type { Coordination } from '../cache/coordination.js';

/**
 * The shared response cache of the offer feed.
 *
 * Without it every app open costs the campaign API a full fan-out: the whole list of a partner's
 * campaigns (one `get-all-campaigns` per 100) and one `campaigns/get` per running campaign. Here
 * a partner's feed is built once per freshness window and served to every app open from the keyv
 * store (memory, or Redis shared by a fleet):
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
 * Keys hold a hash of the partner token, never the token.
 */

export interface FeedItem {
  /** ymCampaignId. */
  id: number;
  categoryId: number | null;
  /** The campaign's record, which its card is made from (`cardOf`). */
  record: CampaignDetails;
}

/** One partner's built feed, as stored. */
interface PartnerFeed {
  /** Newest campaign first. */
  items: FeedItem[];
  /** When the build started (so a build that raced a later change never overwrites it). */
  builtAt: number;
}

export interface FeedView {
  /** The merged feed of every partner asked for, newest campaign first. */
  items: readonly FeedItem[];
  /** When the oldest part was built. */
  builtAt: number;
  /** Past its freshness because rebuilds fail (or have not landed for a further window). */
  stale: boolean;
  /** Some partner's feed could not be built at all and is missing from `items`. */
  incomplete: boolean;
  /** Changes whenever the content may have changed (for response caches and ETags). */
  version: string;
  /** Until when every part counts as fresh (past it, a read may rebuild). */
  freshUntil: number;
  /** A hash of the partner set, for cursors bound to it. */
  setKey: string;
}

export interface FeedCacheOptions {
  api: CampaignApi;
  store: Keyv;
  coordination: Coordination;
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

export interface FeedCache {
  /** The feed of these partners (one or several tokens), built or from the cache. */
  read(tokens: readonly string[]): Promise<FeedView>;
  /**
   * The version `read` would report, when every part is fresh in this process and nothing needs
   * a look at the store; undefined otherwise. Synchronous: for answers remembered per version.
   */
  peekVersion(tokens: readonly string[]): string | undefined;
  /** A write through this BFF may have changed this partner's feed: rebuild it now, everywhere. */
  invalidate(token: string): void;
  /** Resolves when no build or invalidation of this process is running (tests, shutdown). */
  settled(): Promise<void>;
  stats(): { builds: number; failures: number };
}

const hashes = new Map<string, string>();
/** Tokens come from clients: only short ones are remembered, so the table's bytes are bounded too. */
const MAX_HASHES = 10_000;
const MAX_REMEMBERED_TOKEN = 256;
/** A partner's name in keys and messages: a hash of its token, never the token. */
export function partnerHash(token: string): string {
  let hash = hashes.get(token);
  if (hash === undefined) {
    hash = createHash('sha256').update(`partner:${token}`).digest('hex').slice(0, 32);
    if (token.length > MAX_REMEMBERED_TOKEN) return hash;
    if (hashes.size >= MAX_HASHES) hashes.delete(hashes.keys().next().value!);
    hashes.set(token, hash);
  }
  return hash;
}

const STORE_RECHECK_MS = 100;
const POLL_MS = 25;
const MAX_LOCAL = 10_000;
const MAX_MERGED = 1000;

interface Local {
  entry: PartnerFeed | undefined;
  /** Read the store again before trusting `entry` (another instance rebuilt it). */
  recheck: boolean;
  nextStoreCheckAt: number;
  lastFailureAt: number;
  /** Bumped by every invalidation: a build that started before it must not be kept. */
  epoch: number;
  /** A write happened while a forced rebuild ran: run one more after it. */
  again: boolean;
  /** No refresh attempt before this: while another instance holds the lock, not one per request. */
  nextRefreshAt: number;
  /** Why the last build failed: a feed that was never built answers it for a while without a call. */
  lastError: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createFeedCache(options: FeedCacheOptions): FeedCache {
  const { api, store, coordination, ttlMs, maxStaleMs } = options;
  const now = options.now ?? Date.now;
  const retryAfterFailureMs = Math.min(ttlMs, 5000);
  const locals = new Map<string, Local>();
  const flights = new Map<string, Promise<PartnerFeed | undefined>>();
  const merged = new Map<string, { parts: PartnerFeed[]; items: FeedItem[] }>();
  const pending = new Set<Promise<unknown>>();
  let builds = 0;
  let failures = 0;

  const storeKey = (p: string) => `feed:v1:${p}`;
  const lockKey = (p: string) => `campaign-bff:feed-lock:${p}`;
  const fresh = (entry: PartnerFeed) => now() - entry.builtAt <= ttlMs;
  const servable = (entry: PartnerFeed) => now() - entry.builtAt <= ttlMs + maxStaleMs;

  function localOf(p: string): Local {
    let local = locals.get(p);
    if (!local) {
      if (locals.size >= MAX_LOCAL) locals.delete(locals.keys().next().value!);
      local = { entry: undefined, recheck: false, nextStoreCheckAt: 0, lastFailureAt: -Infinity, epoch: 0, again: false, nextRefreshAt: 0, lastError: undefined };
      locals.set(p, local);
    }
    return local;
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => {});
    return promise;
  }

  async function fromStore(p: string): Promise<PartnerFeed | undefined> {
    try {
      const value = (await store.get(storeKey(p))) as PartnerFeed | undefined;
      return value && Array.isArray(value.items) && typeof value.builtAt === 'number' ? value : undefined;
    } catch (error) {
      options.onError?.(error, 'feed store read');
      return undefined;
    }
  }

  /** Keeps the newer of what this process has and what the store has. */
  function adopt(local: Local, entry: PartnerFeed | undefined): void {
    if (entry && (!local.entry || entry.builtAt > local.entry.builtAt)) local.entry = entry;
  }

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
        .map((record) => ({ id: record.ymCampaignId, categoryId: record.categoryId ?? null, record }))
        .sort((a, b) => b.id - a.id);
      options.onBuild?.('ok', performance.now() - started);
      return { items, builtAt };
    } catch (error) {
      failures++;
      options.onBuild?.('error', performance.now() - started);
      throw error;
    }
  }

  async function save(p: string, entry: PartnerFeed): Promise<void> {
    try {
      // A slower build that started earlier (here or on another instance) must not replace it.
      const current = await fromStore(p);
      if (current && current.builtAt > entry.builtAt) return;
      await store.set(storeKey(p), entry, ttlMs + maxStaleMs);
    } catch (error) {
      options.onError?.(error, 'feed store write');
    }
  }

  /**
   * One build of this partner's feed for this process, and for the fleet when `coordinate`.
   * `wait`: the caller has no feed to serve, so wait for another instance's build rather than
   * give up when it holds the lock.
   */
  function flight(p: string, token: string, mode: 'wait' | 'background' | 'force'): Promise<PartnerFeed | undefined> {
    const existing = flights.get(p);
    if (existing && mode !== 'force') return existing;
    const local = localOf(p);
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
          const stored = await fromStore(p);
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
          const stored = await fromStore(p);
          if (stored && stored.builtAt > seen && fresh(stored)) {
            adopt(local, stored);
            return stored;
          }
        }
        const entry = await build(token);
        if (local.epoch !== epoch) return entry; // a write came in meanwhile: its own rebuild follows
        adopt(local, entry);
        local.recheck = false;
        await save(p, entry);
        return entry;
      } catch (error) {
        local.lastFailureAt = now();
        local.lastError = error;
        throw error;
      } finally {
        if (locked) await coordination.unlock(lockKey(p));
      }
    })();
    flights.set(p, promise);
    const done = () => {
      if (flights.get(p) === promise) flights.delete(p);
    };
    promise.then(done, done);
    return track(promise);
  }

  async function partnerFeed(token: string): Promise<{ entry: PartnerFeed; stale: boolean }> {
    const p = partnerHash(token);
    const local = localOf(p);
    // The hot path: a fresh copy in this process costs no store round trip.
    if (local.entry && !local.recheck && fresh(local.entry)) {
      options.onLookup?.('hit');
      return { entry: local.entry, stale: false };
    }
    // A rebuild after a write is running here: its answer is the one to serve.
    const forced = local.recheck ? flights.get(p) : undefined;
    if (forced) await forced.catch(() => undefined);
    if (local.recheck || now() >= local.nextStoreCheckAt) {
      local.nextStoreCheckAt = now() + STORE_RECHECK_MS;
      const stored = await fromStore(p);
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
      if (!flights.has(p) && now() >= local.nextRefreshAt && now() - local.lastFailureAt >= retryAfterFailureMs) {
        local.nextRefreshAt = now() + STORE_RECHECK_MS;
        flight(p, token, 'background').catch((error: unknown) => options.onError?.(error, 'feed refresh'));
      }
      // Served while its refresh runs, it is as good as fresh; it is stale (and says so) once a
      // refresh failed, or when no refresh has landed for a whole further window.
      const stale = local.lastFailureAt > entry.builtAt || now() - entry.builtAt > 2 * ttlMs;
      return { entry, stale };
    }
    // A feed that could not be built a moment ago: the same answer, without another call (a
    // refused token or a down backend must not cost a call per app open).
    if (!flights.has(p) && local.lastError !== undefined && now() - local.lastFailureAt < retryAfterFailureMs) {
      options.onLookup?.('error');
      throw local.lastError;
    }
    try {
      const built = await flight(p, token, 'wait');
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
    if (merged.size >= MAX_MERGED) merged.delete(merged.keys().next().value!);
    merged.set(setKey, { parts, items });
    return items;
  }

  /** Tells this instance's rebuild notices from the other instances'. */
  const origin = randomUUID();

  coordination.subscribe((message) => {
    // Another instance rebuilt this partner's feed: read the store before serving, and let no
    // build begun before it overwrite it. This instance's own notice is ignored: its rebuild is
    // already adopted, and on Redis the notice arrives late, when it would void a rebuild that a
    // later write started (its answer then never served).
    const [from, p] = message.split(' ');
    if (from === origin || p === undefined) return;
    const local = locals.get(p);
    if (!local) return;
    local.recheck = true;
    local.epoch++;
  });

  /** Partners whose feed is being rebuilt after a write (one loop per partner). */
  const rebuilding = new Set<string>();

  async function invalidated(p: string, token: string): Promise<void> {
    const local = localOf(p);
    local.epoch++;
    local.recheck = true;
    if (rebuilding.has(p)) {
      // A burst of writes costs at most the running rebuild and one more.
      local.again = true;
      return;
    }
    rebuilding.add(p);
    try {
      // Only feeds someone reads are rebuilt: a partner no app reads costs nothing per write.
      if (!local.entry) adopt(local, await fromStore(p));
      if (!local.entry) {
        local.recheck = false;
        return;
      }
      // The notice goes out inside the loop: a write that comes while it is being sent must
      // still get its own rebuild (`again`), or its change would wait for the next window.
      do {
        local.again = false;
        try {
          await flight(p, token, 'force');
        } catch (error) {
          options.onError?.(error, 'feed rebuild after a write');
        }
        await coordination.publish(`${origin} ${p}`);
      } while (local.again);
    } finally {
      rebuilding.delete(p);
    }
  }

  return {
    async read(tokens) {
      const parts = await Promise.allSettled(tokens.map((token) => partnerFeed(token)));
      const ok = parts.filter((r): r is PromiseFulfilledResult<{ entry: PartnerFeed; stale: boolean }> => r.status === 'fulfilled');
      if (ok.length === 0) throw (parts[0] as PromiseRejectedResult).reason;
      const setKey = tokens.length === 1 ? partnerHash(tokens[0]!) : createHash('sha256').update(tokens.map(partnerHash).sort().join(',')).digest('hex').slice(0, 32);
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
    invalidate(token) {
      track(invalidated(partnerHash(token), token)).catch((error: unknown) => options.onError?.(error, 'feed invalidation'));
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    stats: () => ({ builds, failures }),
  };
}
