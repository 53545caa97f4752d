import { BoundedMemory, type ExpiringStore, type ExpiringStoreBounds } from '../bounded/index.js';
import type { CampaignApi } from '../campaign-api/api.js';
import { UnauthenticatedError, isRefusal } from '../campaign-api/index.js';
import { withinMs } from '../cache/bounded.js';
import { TOKEN_ACCEPTED_FOR_MS, TOKEN_REFUSED_FOR_MS, TOKEN_VERDICTS_MAX, TokenVerdicts, type TokenVerdict } from '../cache/token-verdicts.js';

export interface Category {
  categoryId: number;
  categoryName: string;
}

/**
 * The category directory, shared by every request and partner (the reference: "the category
 * directory" is one for all). Kept in a namespace of the shared cache: in memory, or Redis when
 * several BFF instances run.
 *
 * The copy is served only to a token the campaign API accepted lately (as the process's token
 * verdicts know it, shared by a fleet when it shares them): a token it refuses gets the same
 * refusal whatever is cached. A token not seen lately is checked by reading the directory with
 * it, as a cold cache would, and what that read brings becomes the copy.
 */
export interface CategoryDirectory {
  /**
   * The whole directory, ordered by id. Reads the backend with `token` when the cache is cold or
   * the token has not been accepted lately; refuses (UnauthenticatedError) a token refused lately.
   */
  list(token: string): Promise<Category[]>;
  /** One category, or undefined when the directory has no such id. */
  get(token: string, categoryId: number): Promise<Category | undefined>;
  /** `list` and `get` for one token, as a request reads them many times (its key is made once). */
  forToken(token: string): { list(): Promise<Category[]>; get(categoryId: number): Promise<Category | undefined> };
  /** Loads the directory with the configured token unless a fresh copy is cached (start-up, readiness). */
  warm(): Promise<void>;
  /**
   * The copy `list` and `get` would answer from right now without a store round trip, while it is
   * fresh; undefined otherwise. A new object whenever the directory is read anew, so an answer made
   * from one copy can tell when it no longer holds (the response cache, pipeline/response-cache.ts).
   */
  freshCopy(): object | undefined;
  /** Whether `list` and `get` would answer this token from the copy without asking the backend. */
  accepts(token: string): boolean;
}

export interface CategoryDirectoryOptions {
  api: CampaignApi;
  store: ExpiringStore<unknown>;
  /** How long a copy counts as fresh; after it, the copy is served while one refresh runs. */
  ttlMs: number;
  /** The token `warm()` reads with; requests read with the calling partner's own token. */
  token?: string;
  /** How long a stale copy may still be served when refreshes keep failing; default 24 h. */
  maxStaleMs?: number;
  /** Longest wait for the shared store (a read, a write) before going on without it; default 200 ms. */
  storeTimeoutMs?: number;
  /** After a failed refresh, how long to serve the stale copy before trying again; default min(ttlMs, 5 s). */
  retryAfterFailureMs?: number;
  now?: () => number;
  /** Told about a refresh that failed while a stale copy was served (the caller logs it). */
  onRefreshError?: (error: unknown) => void;
  /** Every lookup's outcome, for metrics: fresh copy, stale copy served, cold load, cold load failed. */
  onLookup?: (result: 'hit' | 'stale' | 'miss' | 'error') => void;
  /**
   * What the campaign API said of tokens lately: the process's one memory of it, which live
   * status shares. Without it the directory keeps its own, with the three options below.
   */
  verdicts?: TokenVerdicts;
  /** How long a token the campaign API accepted is served without asking it again; default 60 s. */
  acceptedForMs?: number;
  /** How long a token it refused is refused without asking it again; default 5 s. */
  refusedForMs?: number;
  /** Tokens remembered at most, of each verdict; default 10,000. */
  maxTokens?: number;
}

interface Entry {
  categories: Category[];
  fetchedAt: number;
}

/** One key for everyone: the directory is not partner data, and a key must never hold a token. */
export const CATEGORY_CACHE_KEY = 'categories:v1';

/** The directory's namespace holds its one copy: a few hundred names, far below these bounds. */
export const CATEGORY_STORE_BOUNDS: ExpiringStoreBounds<unknown> = {
  maxBytes: 4 * 1024 * 1024,
  maxEntryBytes: 1024 * 1024,
  sizeOf: (value) => 2 * (JSON.stringify(value)?.length ?? 0),
};

/** Reads of the backend under way at most; past it a read with another token is not joined by later ones. */
const MAX_READING = 10_000;

/**
 * TTL with stale-while-revalidate: a fresh copy is served as is; a stale copy is served at once
 * while one background refresh runs, so no request waits once the cache is warm; a failed refresh
 * keeps the last good copy. Concurrent reads with the same token share one backend call.
 *
 * Only to tokens the campaign API accepted within `acceptedForMs`: any other token waits for a
 * read of the directory with it (the one call a cold cache would make), and a refusal is
 * remembered for `refusedForMs`, so a client repeating a refused token costs no call per request.
 * When that read fails otherwise (the API is down), the copy is served all the same: what is
 * cached keeps answering during an outage, and a token the API refused is never served.
 */
export function createCategoryDirectory(options: CategoryDirectoryOptions): CategoryDirectory {
  const { api, store, ttlMs } = options;
  const now = options.now ?? Date.now;
  const maxStaleMs = options.maxStaleMs ?? 86_400_000;
  const retryAfterFailureMs = options.retryAfterFailureMs ?? Math.min(ttlMs, 5000);
  const storeTimeoutMs = options.storeTimeoutMs ?? 200;
  if (!(ttlMs > 0)) throw new RangeError(`createCategoryDirectory: ttlMs must be a positive number of milliseconds, got ${ttlMs}`);
  const verdicts =
    options.verdicts ??
    new TokenVerdicts({
      acceptedForMs: options.acceptedForMs ?? TOKEN_ACCEPTED_FOR_MS,
      refusedForMs: options.refusedForMs ?? TOKEN_REFUSED_FOR_MS,
      maxEntries: options.maxTokens ?? TOKEN_VERDICTS_MAX,
      now,
    });

  /** Reads of the backend under way, by token key: those of the same token share one call. */
  const reading = new BoundedMemory<string, Promise<Entry>>({ maxEntries: MAX_READING });
  let lastFailureAt = -Infinity;
  // The last copy this process saw: served if the shared store itself is unreachable.
  let local: Entry | undefined;

  // Not tied to any request's AbortSignal: other requests may be waiting on the same call.
  const readWith = (token: string, key: string): Promise<Entry> => {
    let call = reading.get(key);
    if (call) return call;
    call = (async () => {
      try {
        const { categories } = await api.getCategories(token, {});
        verdicts.set(key, 'accepted');
        const entry: Entry = { categories: [...categories].sort((a, b) => a.categoryId - b.categoryId), fetchedAt: now() };
        local = entry;
        try {
          await withinMs(store.set(CATEGORY_CACHE_KEY, entry, ttlMs + maxStaleMs), storeTimeoutMs, 'the category cache');
        } catch {
          // A cache outage (or a store that hangs) must not fail nor hold the read: the local copy
          // serves this process meanwhile.
        }
        return entry;
      } catch (error) {
        // A refused token or request says nothing of the backend's health: only other failures pause refreshes.
        if (error instanceof UnauthenticatedError) verdicts.set(key, 'refused');
        else if (!isRefusal(error)) lastFailureAt = now();
        throw error;
      } finally {
        if (reading.peek(key) === call) reading.delete(key);
      }
    })();
    reading.set(key, call);
    return call;
  };

  const read = async (): Promise<Entry | undefined> => {
    // A fresh copy in this process is as good as the shared one, and costs no store round trip
    // (or deserialisation) on the hot path.
    if (local && now() - local.fetchedAt <= ttlMs) return local;
    try {
      const cached = (await withinMs(store.get(CATEGORY_CACHE_KEY), storeTimeoutMs, 'the category cache')) as Entry | undefined;
      if (cached && (!local || cached.fetchedAt >= local.fetchedAt)) local = cached;
    } catch {
      // Falls back to the local copy below.
    }
    return local && now() - local.fetchedAt <= ttlMs + maxStaleMs ? local : undefined;
  };

  const refusedLately = () => new UnauthenticatedError('getCategories', undefined, 'the backend refused this partner token lately');

  const current = async (token: string, key = verdicts.key(token)): Promise<Entry> => {
    let verdict = verdicts.get(key);
    /** What this request's own check read, and the API's refusal it got. */
    let loaded: Entry | undefined;
    let refusal: UnauthenticatedError | undefined;
    /** The check could not be made (the API is down): the copy still serves, if there is one. */
    let unchecked: unknown;
    if (verdict === undefined) {
      try {
        // A read with this very token under way is the check: its answer serves this request too.
        const underway = reading.get(key);
        if (underway) {
          loaded = await underway;
          verdict = 'accepted';
        } else {
          // Known to the fleet, or being checked by live status: no read of our own.
          verdict = await verdicts.check(key, async (): Promise<TokenVerdict> => {
            try {
              loaded = await readWith(token, key);
              return 'accepted';
            } catch (error) {
              if (!(error instanceof UnauthenticatedError)) throw error;
              refusal = error;
              return 'refused';
            }
          });
        }
      } catch (error) {
        // Refused (the token, or this request without a code): no copy for a request the API said no to.
        if (isRefusal(error)) {
          options.onLookup?.('error');
          throw error;
        }
        unchecked = error;
      }
    }
    if (verdict === 'refused') {
      options.onLookup?.('error');
      throw refusal ?? refusedLately();
    }
    if (loaded) {
      options.onLookup?.('miss');
      return loaded;
    }
    const entry = await read();
    if (!entry) {
      if (unchecked !== undefined) {
        options.onLookup?.('error');
        throw unchecked;
      }
      // Accepted (here, by live status or by another instance), but nothing is cached: a cold read.
      try {
        const cold = await readWith(token, key);
        options.onLookup?.('miss');
        return cold;
      } catch (error) {
        options.onLookup?.('error');
        throw error;
      }
    }
    if (unchecked !== undefined) options.onRefreshError?.(unchecked);
    const stale = now() - entry.fetchedAt > ttlMs;
    options.onLookup?.(stale ? 'stale' : 'hit');
    if (stale && reading.size === 0 && now() - lastFailureAt >= retryAfterFailureMs) {
      readWith(token, key).catch((error: unknown) => options.onRefreshError?.(error));
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
    forToken(token) {
      // A list of cards asks for a category per card: one keyed hash per request, not per card.
      let key: string | undefined;
      const entry = () => current(token, (key ??= verdicts.key(token)));
      return {
        list: async () => (await entry()).categories,
        get: async (categoryId) => (await entry()).categories.find((c) => c.categoryId === categoryId),
      };
    },
    freshCopy() {
      return local && now() - local.fetchedAt <= ttlMs ? local : undefined;
    },
    accepts(token) {
      return verdicts.get(verdicts.key(token)) === 'accepted';
    },
    async warm() {
      if (!options.token) throw new Error('createCategoryDirectory: warm() needs the token option');
      const entry = await read();
      if (!entry || now() - entry.fetchedAt > ttlMs) await readWith(options.token, verdicts.key(options.token));
    },
  };
}
