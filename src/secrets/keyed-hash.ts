import { createHmac, randomBytes } from 'node:crypto';
import { BoundedMemory } from '../bounded/index.js';

/**
 * The one way anything is derived from a partner token or an app key: an HMAC-SHA256, under a key
 * of its own for each use (so that a value made for one use says nothing of another), derived from
 * the fleet's secret (`CURSOR_SECRET`) or, without one, from a secret made for this process.
 *
 * An unkeyed hash of a token is as good as the token to whoever can guess it: anyone who reads
 * Redis, a log or a cursor could test guesses offline. Under a key only the fleet has, nothing
 * derived from a token lets anyone check a guess. `npm run layers` (scripts/layer-rules.ts)
 * refuses `createHash` and `createHmac` outside this folder, but for the few digests of what is
 * not secret (a document's text, an answer's ETag), each listed there with its reason.
 */
export type KeyedUse =
  /** What the campaign API said of a token, in this process and on Redis. */
  | 'token-verdicts'
  /** A partner's offer feed: its Redis key, build lock and invalidation messages. */
  | 'feed-partner'
  /** A set of partners read together (an app's feed), from their feed keys: what feed cursors are bound to. */
  | 'feed-partners'
  /** A partner's live status: its reader's lease, its record and its events on Redis. */
  | 'live-partner'
  /** The partner a pagination cursor is bound to. */
  | 'cursor-partner'
  /** An app key, for its rate-limit bucket and what is remembered per app. */
  | 'app-key';

export interface KeyedHashes {
  /** Whether the key is the fleet's: every instance with the same secret makes the same hashes. */
  readonly shared: boolean;
  /** The keyed hash of `value` for `use`, in base64url (43 characters). */
  of(use: KeyedUse, value: string): string;
}

/** How many values' hashes each use keeps, and the longest value kept (tokens are far shorter). */
const KEPT = 1000;
const KEPT_LENGTH = 256;

/**
 * Keyed hashes under `fleetSecret` (every instance with it makes the same ones), or, without it,
 * under a random secret of this process (made here: nothing made by them leaves the process in a
 * form another could check). The hashes of values seen lately are kept: an HMAC per request would
 * be a large share of what a remembered answer costs.
 */
export function keyedHashes(fleetSecret?: string): KeyedHashes {
  const secret = fleetSecret ?? randomBytes(32);
  // One entry per use, of the few the type names.
  const uses: Partial<Record<KeyedUse, { key: Buffer; kept: BoundedMemory<string, string> }>> = {};
  const useOf = (use: KeyedUse) =>
    // The key of a use is the HMAC of its name: the verdicts' is the one they always had, so a
    // fleet's instances of another version find each other's verdicts.
    (uses[use] ??= { key: createHmac('sha256', secret).update(use).digest(), kept: new BoundedMemory({ maxEntries: KEPT }) });
  return {
    shared: fleetSecret !== undefined,
    of(use, value) {
      const { key, kept } = useOf(use);
      return kept.remember(value, () => createHmac('sha256', key).update(value).digest('base64url'), value.length <= KEPT_LENGTH);
    },
  };
}
