import { randomUUID } from 'node:crypto';
import { UnderWay } from '../bounded/index.js';
import type { Coordination } from '../cache/coordination.js';
import type { WriteEvents, WriteOperation } from '../campaign-api/writes.js';
import type { FeedBuilder } from './builder.js';
import { adopt, type FeedStore, type LocalFeeds } from './store.js';

/**
 * Refreshing a feed after a write: the partner's feed is rebuilt at once and every instance is
 * told (pub/sub), so a stopped campaign leaves every feed within a build's time; a notice of
 * another instance's rebuild makes this one read the store before serving.
 */

export interface FeedRefreshOptions {
  store: FeedStore;
  locals: LocalFeeds;
  builder: FeedBuilder;
  coordination: Coordination;
  /** A partner's name in keys and messages: its token's keyed hash. */
  partnerHash: (token: string) => string;
  /** Keeps the promise of work under way until it settles (for `settled`). */
  track: <T>(promise: Promise<T>) => Promise<T>;
  onError: ((error: unknown, context: string) => void) | undefined;
}

export interface FeedRefresh {
  /** A write may have changed this partner's feed: rebuild it now, everywhere. */
  invalidate(token: string): void;
}

/** Partners rebuilt after writes at once, at most; past it a write's rebuild may run beside another's. */
const MAX_REBUILDING = 10_000;

export function createFeedRefresh(options: FeedRefreshOptions): FeedRefresh {
  const { store, locals, builder, coordination } = options;

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
  const rebuilding = new UnderWay<string, true>(MAX_REBUILDING);

  async function invalidated(p: string, token: string): Promise<void> {
    const local = locals.of(p);
    local.epoch++;
    local.recheck = true;
    if (rebuilding.has(p)) {
      // A burst of writes costs at most the running rebuild and one more.
      local.again = true;
      return;
    }
    rebuilding.enter(p, true);
    try {
      // Only feeds someone reads are rebuilt: a partner no app reads costs nothing per write.
      if (!local.entry) adopt(local, await store.get(p));
      if (!local.entry) {
        local.recheck = false;
        return;
      }
      // The notice goes out inside the loop: a write that comes while it is being sent must
      // still get its own rebuild (`again`), or its change would wait for the next window.
      do {
        local.again = false;
        try {
          await builder.flight(p, token, 'force');
        } catch (error) {
          options.onError?.(error, 'feed rebuild after a write');
        }
        await coordination.publish(`${origin} ${p}`);
      } while (local.again);
    } finally {
      rebuilding.leave(p, true);
    }
  }

  return {
    invalidate(token) {
      options.track(invalidated(options.partnerHash(token), token)).catch((error: unknown) => options.onError?.(error, 'feed invalidation'));
    },
  };
}

/** The writes after which a partner's feed may show something else. */
const FEED_CHANGING: ReadonlySet<WriteOperation> = new Set(['create', 'update', 'start', 'stop', 'addPins']);

/**
 * Rebuilds a partner's feed after each write through the client that may change it, whoever made
 * the write. Also after a write whose outcome is unknown (its answer was lost, and it may have
 * happened); not after one the backend refused. Returns what stops it.
 */
export function refreshOnWrites(feed: FeedRefresh, writes: WriteEvents): () => void {
  return writes.onWrite((write) => {
    if (write.outcome !== 'refused' && FEED_CHANGING.has(write.operation)) feed.invalidate(write.token);
  });
}
