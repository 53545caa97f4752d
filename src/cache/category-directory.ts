import type { Keyv } from 'keyv';
import type { CampaignApi } from '../campaign-api/api.js';

export interface Category {
  categoryId: number;
  categoryName: string;
}

/**
 * The category directory, shared by every request and partner (the reference: "the category
 * directory" is one for all). Backed by keyv: in memory, or Redis when several BFF instances run.
 */
export interface CategoryDirectory {
  /** The whole directory, ordered by id. Reads the backend with `token` only when the cache is cold. */
  list(token: string): Promise<Category[]>;
  /** One category, or undefined when the directory has no such id. */
  get(token: string, categoryId: number): Promise<Category | undefined>;
  /** Loads the directory with the configured token unless a fresh copy is cached (start-up, readiness). */
  warm(): Promise<void>;
  /**
   * The copy `list` and `get` would answer from right now without a store round trip, while it is
   * fresh; undefined otherwise. A new object whenever the directory is read anew, so an answer made
   * from one copy can tell when it no longer holds (see graphql/shared-answers.ts).
   */
  freshCopy(): object | undefined;
}

export interface CategoryDirectoryOptions {
  api: CampaignApi;
  store: Keyv;
  /** How long a copy counts as fresh; after it, the copy is served while one refresh runs. */
  ttlMs: number;
  /** The token `warm()` reads with; requests read with the calling partner's own token. */
  token?: string;
  /** How long a stale copy may still be served when refreshes keep failing; default 24 h. */
  maxStaleMs?: number;
  /** After a failed refresh, how long to serve the stale copy before trying again; default min(ttlMs, 5 s). */
  retryAfterFailureMs?: number;
  now?: () => number;
  /** Told about a refresh that failed while a stale copy was served (the caller logs it). */
  onRefreshError?: (error: unknown) => void;
  /** Every lookup's outcome, for metrics: fresh copy, stale copy served, cold load, cold load failed. */
  onLookup?: (result: 'hit' | 'stale' | 'miss' | 'error') => void;
}

interface Entry {
  categories: Category[];
  fetchedAt: number;
}

/** One key for everyone: the directory is not partner data, and a key must never hold a token. */
export const CATEGORY_CACHE_KEY = 'categories:v1';

/**
 * TTL with stale-while-revalidate: a fresh copy is served as is; a stale copy is served at once
 * while one background refresh runs, so no request waits once the cache is warm; a failed refresh
 * keeps the last good copy. Concurrent misses in this process share one backend call.
 */
export function createCategoryDirectory(options: CategoryDirectoryOptions): CategoryDirectory {
  const { api, store, ttlMs } = options;
  const now = options.now ?? Date.now;
  const maxStaleMs = options.maxStaleMs ?? 86_400_000;
  const retryAfterFailureMs = options.retryAfterFailureMs ?? Math.min(ttlMs, 5000);
  if (!(ttlMs > 0)) throw new RangeError(`createCategoryDirectory: ttlMs must be a positive number of milliseconds, got ${ttlMs}`);

  let inFlight: Promise<Entry> | undefined;
  let lastFailureAt = -Infinity;
  // The last copy this process saw: served if the shared store itself is unreachable.
  let local: Entry | undefined;

  // Not tied to any request's AbortSignal: other requests may be waiting on the same call.
  const refresh = (token: string): Promise<Entry> => {
    inFlight ??= (async () => {
      try {
        const { categories } = await api.getCategories(token, {});
        const entry: Entry = { categories: [...categories].sort((a, b) => a.categoryId - b.categoryId), fetchedAt: now() };
        local = entry;
        try {
          await store.set(CATEGORY_CACHE_KEY, entry, ttlMs + maxStaleMs);
        } catch {
          // A cache outage must not fail the read: the local copy serves this process meanwhile.
        }
        return entry;
      } catch (error) {
        lastFailureAt = now();
        throw error;
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  const read = async (): Promise<Entry | undefined> => {
    // A fresh copy in this process is as good as the shared one, and costs no store round trip
    // (or deserialisation) on the hot path.
    if (local && now() - local.fetchedAt <= ttlMs) return local;
    try {
      const cached = (await store.get(CATEGORY_CACHE_KEY)) as Entry | undefined;
      if (cached && (!local || cached.fetchedAt >= local.fetchedAt)) local = cached;
    } catch {
      // Falls back to the local copy below.
    }
    return local && now() - local.fetchedAt <= ttlMs + maxStaleMs ? local : undefined;
  };

  const current = async (token: string): Promise<Entry> => {
    const entry = await read();
    if (!entry) {
      try {
        const loaded = await refresh(token);
        options.onLookup?.('miss');
        return loaded;
      } catch (error) {
        options.onLookup?.('error');
        throw error;
      }
    }
    const stale = now() - entry.fetchedAt > ttlMs;
    options.onLookup?.(stale ? 'stale' : 'hit');
    if (stale && !inFlight && now() - lastFailureAt >= retryAfterFailureMs) {
      refresh(token).catch((error: unknown) => options.onRefreshError?.(error));
    }
    return entry;
  };

  return {
    async list(token) {
      return (await current(token)).categories;
    },
    async get(token, categoryId) {
      return (await current(token)).categories.find((c) => c.categoryId === categoryId);
    },
    freshCopy() {
      return local && now() - local.fetchedAt <= ttlMs ? local : undefined;
    },
    async warm() {
      if (!options.token) throw new Error('createCategoryDirectory: warm() needs the token option');
      const entry = await read();
      if (!entry || now() - entry.fetchedAt > ttlMs) await refresh(options.token);
    },
  };
}
