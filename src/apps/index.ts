import { randomBytes } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import type { CampaignApi } from '../campaign-api/api.js';
import { UnauthenticatedError } from '../campaign-api/index.js';
import type { WriteEvents } from '../campaign-api/writes.js';
import type { CategoryDirectory } from '../categories/directory.js';
import type { PartnerCategories } from '../schema/context.js';
import type { CacheStore } from '../cache/store.js';
import { ConfigError, type AppsConfig } from '../config.js';
import { failureFields } from '../observability/failures.js';
import type { Logger } from '../observability/logger.js';
import { loadTrustedDocuments, type TrustedDocuments } from '../pipeline/trusted-documents.js';
import type { AppCaller, Policy } from '../pipeline/types.js';
import type { KeyedHashes } from '../secrets/index.js';
import { createAppKeyRegistry, hashKey, type AppKey, type AppKeyRegistry } from './app-keys.js';
import { localCoordination, redisCoordination } from '../cache/coordination.js';
import { createFeedCache, type FeedCache } from '../feed/cache.js';
import { refreshOnWrites } from '../feed/refresh.js';
import { feedStoreBounds } from '../feed/store.js';
import { createRateLimiter, rateLimitPolicy } from './rate-limit.js';
import { appScopePolicy } from './scope.js';


/**
 * The shared category directory as an app reads it: with its first partner token the campaign API
 * accepts (the directory asks the backend only when it is cold or has not seen that token accepted
 * lately), so one bad token in APP_KEYS_FILE does not take the app's tabs down, and an app whose
 * tokens are all refused is refused, whatever is cached.
 */
export function appCategories(directory: CategoryDirectory, tokens: readonly string[]): PartnerCategories {
  const readers = tokens.map((token) => directory.forToken(token));
  const withAnyToken = async <T>(read: (reader: PartnerCategories) => Promise<T>): Promise<T> => {
    let refusal: unknown;
    for (const reader of readers) {
      try {
        return await read(reader);
      } catch (error) {
        if (!(error instanceof UnauthenticatedError)) throw error;
        refusal = error;
      }
    }
    throw refusal;
  };
  return { list: () => withAnyToken((r) => r.list()), get: (id) => withAnyToken((r) => r.get(id)) };
}

export interface Apps {
  keys: AppKeyRegistry;
  feed: FeedCache;
  /** The app a key (`X-App-Key`) belongs to, as the pipeline knows callers; undefined when unknown or revoked. */
  appOf(key: string): AppCaller | undefined;
  /** The rules of apps, for the pipeline's list: rate limits and what an app key reaches. */
  policies: readonly Policy[];
  /** The manifest (`TRUSTED_DOCUMENTS`). */
  trusted: TrustedDocuments;
  /** Keys the HMAC of offer feed cursors: `CURSOR_SECRET`, else a random key of this process. */
  cursorSecret: string;
  /** Whether the feed's Redis connections (build lock, invalidations, rate limits) are ready; undefined without Redis. */
  redisConnected: (() => boolean) | undefined;
  close(): Promise<void>;
}

export interface AppsOptions {
  config: AppsConfig;
  production: boolean;
  /** The campaign API client: the feed reads with it, and is rebuilt after the writes it announces. */
  api: CampaignApi & WriteEvents;
  cache: CacheStore;
  cacheUrl: string | undefined;
  schema: GraphQLSchema;
  logger: Logger;
  /** Concurrent record reads of one feed build. */
  buildConcurrency: number;
  /** Keys configured in code (the demo key on the embedded emulator). */
  fixedKeys?: Record<string, { name: string; partnerTokens: string[] }>;
  onCacheError?: (error: unknown) => void;
  onBuild?: (outcome: 'ok' | 'error', durationMs: number) => void;
  onLookup?: (result: 'hit' | 'stale' | 'miss' | 'error') => void;
  onRefused?: (reason: 'rate_limit') => void;
  /** `CURSOR_SECRET`: the same on every instance, so that each reads the others' feed cursors. */
  cursorSecret?: string | undefined;
  /** What partners and app keys are named by: the fleet's keyed hashes (else this process's). */
  hashes: KeyedHashes;
}

export async function createApps(options: AppsOptions): Promise<Apps> {
  const { config, logger } = options;
  const fixed: ReadonlyMap<string, AppKey> = new Map<string, AppKey>(
    Object.entries(options.fixedKeys ?? {}).map(([key, app]) => [key, { name: app.name, partnerTokens: app.partnerTokens, keyHash: hashKey(options.hashes, key) }]),
  );
  const keys = await createAppKeyRegistry({ file: config.keysFile, fixed, reloadMs: config.keysReloadMs, logger, hashes: options.hashes });
  let trusted;
  try {
    trusted = loadTrustedDocuments(config.trustedDocumentsFile, (hash) =>
      logger.warn({ hash }, 'trusted document: the hash is not the sha256 of its text; served by that hash anyway'),
    );
  } catch (error) {
    // A manifest the server cannot use stops start-up, like any other bad setting.
    throw new ConfigError([(error as Error).message]);
  }
  const onError = options.onCacheError ?? (() => {});
  const coordination = options.cacheUrl ? await redisCoordination(options.cacheUrl, onError) : localCoordination();
  const feed = createFeedCache({
    api: options.api,
    store: options.cache.namespace('feed', feedStoreBounds(config.feedMaxCampaigns)),
    coordination,
    hashes: options.hashes,
    ttlMs: config.feedTtlMs,
    maxStaleMs: config.feedMaxStaleMs,
    lockMs: config.feedLockMs,
    lockWaitMs: config.feedLockWaitMs,
    maxCampaigns: config.feedMaxCampaigns,
    concurrency: options.buildConcurrency,
    onBuild: options.onBuild,
    onLookup: options.onLookup,
    onError(error, context) {
      logger.warn({ ...failureFields(error), context }, 'offer feed: serving the last good feed');
    },
  });
  // Without CURSOR_SECRET a feed cursor is signed with a key only this process knows: whoever
  // holds a cursor can then test nothing about the partner tokens behind it, and only this
  // instance reads it back (a fleet sets CURSOR_SECRET).
  const cursorSecret = options.cursorSecret ?? randomBytes(32).toString('base64url');
  const policies: Policy[] = [
    rateLimitPolicy({
      limiter: createRateLimiter(coordination, config.rateLimitWindowMs),
      appKeyRateLimit: config.appKeyRateLimit,
      clientRateLimit: config.clientRateLimit,
      onRefused: () => options.onRefused?.('rate_limit'),
    }),
    appScopePolicy(options.schema),
  ];

  const stopRefreshing = refreshOnWrites(feed, options.api);

  return {
    keys,
    feed,
    appOf: (key) => keys.lookup(key),
    policies,
    trusted,
    cursorSecret,
    redisConnected: coordination.kind === 'redis' ? () => coordination.connected() : undefined,
    async close() {
      stopRefreshing();
      keys.close();
      await feed.settled();
      await coordination.close();
    },
  };
}
