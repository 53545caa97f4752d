/**
 * Secrets stay secret when hashed: every value derived from a partner token or an app key is a
 * keyed hash made here. Imports nothing of ours but the bounded stores.
 */
export { keyedHashes, type KeyedHashes, type KeyedUse } from './keyed-hash.js';
