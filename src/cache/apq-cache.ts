import { ErrorsAreMissesCache, type KeyValueCache } from '@apollo/utils.keyvaluecache';
import { KeyvAdapter } from '@apollo/utils.keyvadapter';
import type { Keyv } from 'keyv';

/**
 * Apollo's automatic persisted queries on the shared keyv store. A cache failure is a miss (the
 * client then sends the full query once), never an error, and every lookup is reported.
 */
export function createApqCache(keyv: Keyv, onLookup: (result: 'hit' | 'miss') => void): KeyValueCache<string> {
  // keyv ships separate CJS and ESM typings; the adapter's is the same class at run time.
  const store = new ErrorsAreMissesCache(new KeyvAdapter<string>(keyv as unknown as ConstructorParameters<typeof KeyvAdapter<string>>[0]));
  return {
    async get(key) {
      const value = await store.get(key);
      onLookup(value === undefined ? 'miss' : 'hit');
      return value;
    },
    set: (key, value, options) => store.set(key, value, options),
    delete: (key) => store.delete(key),
  };
}
