import { BoundedMemory, type ExpiringStore, type ExpiringStoreBounds } from '../bounded/index.js';
import type { FeedItem } from '../schema/offers.js';

/**
 * Where built feeds are kept: the namespace of the shared cache every instance shares (memory,
 * or Redis for a fleet), and this process's own copy of each partner's feed, which the hot path
 * reads. Keys hold the partner token's keyed hash (src/secrets/), never the token.
 */

/** One partner's built feed, as stored. */
export interface PartnerFeed {
  /** Newest campaign first. */
  items: FeedItem[];
  /** When the build started (so a build that raced a later change never overwrites it). */
  builtAt: number;
}

/** What this process knows of one partner's feed. */
export interface Local {
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

const MAX_LOCAL = 10_000;

/** This process's copies, by partner hash; bounded, the partner used least recently leaving first. */
export class LocalFeeds {
  readonly #locals = new BoundedMemory<string, Local>({ maxEntries: MAX_LOCAL });

  /** The partner's, made empty when it has none. */
  of(p: string): Local {
    return this.#locals.remember(p, () => ({
      entry: undefined,
      recheck: false,
      nextStoreCheckAt: 0,
      lastFailureAt: -Infinity,
      epoch: 0,
      again: false,
      nextRefreshAt: 0,
      lastError: undefined,
    }));
  }

  /** The partner's, when this process has one. */
  get(p: string): Local | undefined {
    return this.#locals.get(p);
  }
}

/** Keeps the newer of what this process has and what the store has. */
export function adopt(local: Local, entry: PartnerFeed | undefined): void {
  if (entry && (!local.entry || entry.builtAt > local.entry.builtAt)) local.entry = entry;
}

/** About the bytes one campaign of a feed holds, as JSON; a feed is kept whole up to its campaigns' share. */
const FEED_ITEM_BYTES = 4096;

/** The bounds of the feed's namespace, for feeds of at most `maxCampaigns` campaigns. */
export function feedStoreBounds(maxCampaigns: number): ExpiringStoreBounds<PartnerFeed> {
  const maxBytes = 64 * 1024 * 1024;
  return {
    maxBytes,
    maxEntryBytes: Math.min(maxBytes, (maxCampaigns + 1) * FEED_ITEM_BYTES),
    sizeOf: (feed, key) => 2 * ((JSON.stringify(feed)?.length ?? 0) + key.length),
  };
}

/** The shared store: a failure to reach it is reported and reads as nothing stored. */
export class FeedStore {
  constructor(
    private readonly store: ExpiringStore<PartnerFeed>,
    /** How long a stored feed is kept: its freshness and the time it may be served stale. */
    private readonly keepMs: number,
    private readonly onError: ((error: unknown, context: string) => void) | undefined,
  ) {}

  async get(p: string): Promise<PartnerFeed | undefined> {
    try {
      const value = await this.store.get(storeKey(p));
      return value && Array.isArray(value.items) && typeof value.builtAt === 'number' ? value : undefined;
    } catch (error) {
      this.onError?.(error, 'feed store read');
      return undefined;
    }
  }

  async save(p: string, entry: PartnerFeed): Promise<void> {
    try {
      // A slower build that started earlier (here or on another instance) must not replace it.
      const current = await this.get(p);
      if (current && current.builtAt > entry.builtAt) return;
      await this.store.set(storeKey(p), entry, this.keepMs);
    } catch (error) {
      this.onError?.(error, 'feed store write');
    }
  }
}

/** A feed's key in its namespace; the version is that of what an item holds (an offer's fields only). */
const storeKey = (p: string) => `v2:${p}`;
