import { ErrorsAreMissesCache, type KeyValueCache } from '@apollo/utils.keyvaluecache';
import { KeyvAdapter } from '@apollo/utils.keyvadapter';
import type { Keyv } from 'keyv';

/**
 * The key Apollo Server gives a persisted query in the store it is handed (its APQ_CACHE_PREFIX,
 * which it does not export). `test/cache/store-conformance.test.ts` checks, on every store, that
 * a query Apollo registered is found here: were the prefix to change, that test fails.
 */
const APOLLO_KEY_PREFIX = 'apq:';

/** A SHA-256 in lowercase hex, as Apollo Client's persisted-query link sends it. */
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Documents found in the store are kept here too, a few hundred of at most 8 KB each (4 MB at
 * worst): a hash names one text for ever, so a copy never goes stale, and reading the store
 * (a batched keyv read, or a Redis round trip) was a third of such a request's cost.
 */
const KEPT_DOCUMENTS = 500;
const KEPT_DOCUMENT_LENGTH = 8 * 1024;

export interface ApqStore {
  /** Apollo's `persistedQueries.cache`: Apollo owns registration and the protocol's errors. */
  cache: KeyValueCache<string>;
  /**
   * The document registered under a hash, read from the store Apollo reads it from, so that a
   * request naming it can skip Apollo's pipeline. A hit is counted here; a miss is not, because
   * the request then goes to Apollo, which looks again, answers PERSISTED_QUERY_NOT_FOUND and
   * counts the miss. Anything but a SHA-256 in hex is a miss without a lookup. A document found
   * once is kept in this process (see KEPT_DOCUMENTS) and counted as a hit each time.
   */
  registered(hash: string): Promise<string | undefined>;
}

/**
 * Apollo's automatic persisted queries on the shared keyv store. A cache failure is a miss (the
 * client then sends the full query once), never an error, and every lookup is reported.
 */
export function createApqStore(keyv: Keyv, onLookup: (result: 'hit' | 'miss') => void): ApqStore {
  // keyv ships separate CJS and ESM typings; the adapter's is the same class at run time.
  const kept = new Map<string, string>();
  const store = new ErrorsAreMissesCache(new KeyvAdapter<string>(keyv as unknown as ConstructorParameters<typeof KeyvAdapter<string>>[0]));
  return {
    cache: {
      async get(key) {
        const value = await store.get(key);
        onLookup(value === undefined ? 'miss' : 'hit');
        return value;
      },
      set: (key, value, options) => store.set(key, value, options),
      delete: (key) => store.delete(key),
    },
    async registered(hash) {
      let value = kept.get(hash);
      if (value === undefined) {
        if (!SHA256_HEX.test(hash)) return undefined;
        value = await store.get(APOLLO_KEY_PREFIX + hash);
        // Apollo takes an empty document for none as well.
        if (!value) return undefined;
        if (value.length <= KEPT_DOCUMENT_LENGTH) {
          if (kept.size >= KEPT_DOCUMENTS) kept.delete(kept.keys().next().value!);
          kept.set(hash, value);
        }
      }
      onLookup('hit');
      return value;
    },
  };
}
