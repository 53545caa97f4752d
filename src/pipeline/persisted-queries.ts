import { sha256Hex } from './documents.js';

/**
 * Automatic persisted queries, the protocol of Apollo Client's persisted-query link: a client
 * names a document by the SHA-256 of its text; a server that does not know the hash answers
 * `PersistedQueryNotFound`, and the client sends the text with the hash, which registers it. The
 * texts live in a shared store (memory, or Redis for a fleet), so a document registered on one
 * instance is known to all. A failing store is a miss, never an error: the client then sends the
 * text once more.
 */
export interface PersistedQueries {
  /** The text registered under a hash, or undefined (not a SHA-256 in hex, unknown, or the store failing). */
  get(hash: string): Promise<string | undefined>;
  /** Whether `hash` is the SHA-256 of `text`, as the protocol requires of a registration. */
  matches(hash: string, text: string): boolean;
  /** Registers a text under its hash, in the background: a failure only means it is sent again. */
  register(hash: string, text: string): void;
  /** Counts a hash answered from a document this process kept, without asking the store (a hit all the same). */
  keptHit(): void;
}

/** What the store behind persisted queries needs to do: keyv's `get` and `set`. */
export interface TextStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<unknown>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
/**
 * The store's keys: this module's own prefix (Apollo's persisted queries are off). It is the one
 * Apollo Server used when it kept them, so texts registered then, still in a fleet's Redis, are found.
 */
const KEY_PREFIX = 'apq:';

export function createPersistedQueries(store: TextStore, onLookup?: (result: 'hit' | 'miss') => void): PersistedQueries {
  return {
    async get(hash) {
      if (!SHA256_HEX.test(hash)) return undefined;
      let text: string | undefined;
      try {
        text = await store.get(KEY_PREFIX + hash);
      } catch {
        text = undefined;
      }
      // An empty text names nothing either.
      const found = typeof text === 'string' && text.length > 0 ? text : undefined;
      onLookup?.(found === undefined ? 'miss' : 'hit');
      return found;
    },
    matches: (hash, text) => SHA256_HEX.test(hash) && sha256Hex(text) === hash,
    register(hash, text) {
      store.set(KEY_PREFIX + hash, text).catch(() => {});
    },
    keptHit: () => onLookup?.('hit'),
  };
}
