import type { ExpiringStore, ExpiringStoreBounds } from '../bounded/index.js';
import { sha256Hex } from './documents.js';
import type { Caller } from './types.js';

/**
 * Automatic persisted queries, the protocol of Apollo Client's persisted-query link: a client
 * names a document by the SHA-256 of its text; a server that does not know the hash answers
 * `PersistedQueryNotFound`, and the client sends the text with the hash, which registers it. The
 * texts live in a namespace of the shared cache (memory, or Redis for a fleet), so a document
 * registered on one instance is known to all; each is kept for `PERSISTED_QUERY_TTL_MS` after its
 * registration, and the namespace holds a bounded number of bytes in memory. A failing store is a
 * miss, never an error: the client then sends the text once more.
 *
 * Only a caller who may run a document registers it (`registers`), and only a text the pipeline
 * judged runnable and no longer than any document worth keeping: a text over that bound, or sent
 * by a caller who may not register, is answered as any text is and kept nowhere.
 */
export interface PersistedQueries {
  /** The text registered under a hash, or undefined (not a SHA-256 in hex, unknown, or the store failing). */
  get(hash: string): Promise<string | undefined>;
  /** Whether `hash` is the SHA-256 of `text`, as the protocol requires of a registration. */
  matches(hash: string, text: string): boolean;
  /** Whether this caller's texts are registered at all. */
  registers(caller: Caller): boolean;
  /** Registers a text under its hash, in the background: a failure only means it is sent again. */
  register(hash: string, text: string): void;
  /** Counts a hash answered from a document this process kept, without asking the store (a hit all the same). */
  keptHit(): void;
}

/**
 * How long a registered text is kept: a client whose hash was forgotten is answered
 * `PersistedQueryNotFound` and sends the text again, as the protocol has it do.
 */
export const PERSISTED_QUERY_TTL_MS = 24 * 60 * 60 * 1000;

/** The namespace's bounds: texts of documents worth keeping, a few thousand of them in memory. */
export const PERSISTED_QUERY_BOUNDS: ExpiringStoreBounds<string> = {
  maxBytes: 16 * 1024 * 1024,
  maxEntryBytes: 256 * 1024,
  sizeOf: (text, key) => 2 * (text.length + key.length),
};

const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface PersistedQueriesOptions {
  /**
   * Whether a caller's texts are registered: never an anonymous caller's, who has nothing to run
   * a document with (the default). Callers this says no to are answered but register nothing.
   */
  registers?: (caller: Caller) => boolean;
  onLookup?: (result: 'hit' | 'miss') => void;
}

const notAnonymous = (caller: Caller) => caller.kind !== 'anonymous';

export function createPersistedQueries(store: ExpiringStore<string>, options: PersistedQueriesOptions = {}): PersistedQueries {
  const { onLookup } = options;
  const registers = options.registers ?? notAnonymous;
  return {
    async get(hash) {
      if (!SHA256_HEX.test(hash)) return undefined;
      let text: string | undefined;
      try {
        text = await store.get(hash);
      } catch {
        text = undefined;
      }
      // An empty text names nothing either.
      const found = typeof text === 'string' && text.length > 0 ? text : undefined;
      onLookup?.(found === undefined ? 'miss' : 'hit');
      return found;
    },
    matches: (hash, text) => SHA256_HEX.test(hash) && sha256Hex(text) === hash,
    registers: (caller) => caller.kind !== 'anonymous' && registers(caller),
    register(hash, text) {
      store.set(hash, text, PERSISTED_QUERY_TTL_MS).catch(() => {});
    },
    keptHit: () => onLookup?.('hit'),
  };
}
