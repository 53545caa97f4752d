import { randomBytes } from 'node:crypto';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { CampaignApi } from '../campaign-api/api.js';
import { BusinessError, UnauthenticatedError } from '../campaign-api/index.js';
import type { CategoryDirectory } from '../cache/category-directory.js';
import type { PartnerCategories } from '../graphql/context.js';
import type { CacheStore } from '../cache/store.js';
import { ConfigError, type AppsConfig } from '../config.js';
import type { FastPathAnswer, FastPathRequest } from '../graphql/operation-cache.js';
import { failureFields } from '../observability/failures.js';
import type { Logger } from '../observability/logger.js';
import type { Gate } from '../server/http.js';
import type { ClientAddress } from '../server/client-address.js';
import { createAppKeyRegistry, hashKey, type AppKey, type AppKeyRegistry } from './app-keys.js';
import type { AppsContext } from './context.js';
import { localCoordination, redisCoordination } from './coordination.js';
import { createFeedCache, type FeedCache } from './feed-cache.js';
import { createAppGate } from './gate.js';
import { createRateLimiter } from './rate-limit.js';
import { appScopePlugin, forbiddenForApps } from './scope.js';
import { loadTrustedDocuments, type TrustedDocuments } from './trusted-documents.js';

export type { AppsContext } from './context.js';

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

/** The REST operations after which a partner's feed may show something else. */
const FEED_CHANGING = new Set(['create', 'update', 'start', 'stop', 'addPins']);

export interface Apps {
  keys: AppKeyRegistry;
  feed: FeedCache;
  gate: Gate;
  /** The manifest (`TRUSTED_DOCUMENTS`), for the subscription transports. */
  trusted: TrustedDocuments;
  plugin: ReturnType<typeof appScopePlugin>;
  /** The campaign API as resolvers use it: every write that may change a feed refreshes it. */
  api: CampaignApi;
  /**
   * Keeps app-key requests the compiled path must not run (beyond their scope) for Apollo to
   * refuse. The scope is judged on the document the compiled path found, which Apollo parsed
   * (within MAX_TOKENS) and validated before: a request's text is never parsed here.
   */
  guardFastPath<C>(
    fastPath: (request: FastPathRequest, context: () => Promise<C>, admits?: (document: DocumentNode) => boolean) => Promise<FastPathAnswer | undefined>,
  ): (request: FastPathRequest, context: () => Promise<C>, gate: unknown) => Promise<FastPathAnswer | undefined>;
  /** Keys the HMAC of offer feed cursors: `CURSOR_SECRET`, else a random key of this process. */
  cursorSecret: string;
  /** What the answers the gate remembers hold now (entries, and bytes as counted against their bound). */
  rememberedAnswers(): { entries: number; bytes: number };
  close(): Promise<void>;
}

export interface AppsOptions {
  config: AppsConfig;
  production: boolean;
  api: CampaignApi;
  cache: CacheStore;
  cacheUrl: string | undefined;
  schema: GraphQLSchema;
  logger: Logger;
  /** Concurrent record reads of one feed build. */
  buildConcurrency: number;
  /** The client of a request, also behind trusted proxies; its address is what the per-client rate limit counts. */
  clientAddress: ClientAddress;
  /** Keys configured in code (the demo key on the embedded emulator). */
  fixedKeys?: Record<string, { name: string; partnerTokens: string[] }>;
  onCacheError?: (error: unknown) => void;
  onBuild?: (outcome: 'ok' | 'error', durationMs: number) => void;
  onLookup?: (result: 'hit' | 'stale' | 'miss' | 'error') => void;
  onRefused?: (reason: 'app_key' | 'rate_limit' | 'trusted_document') => void;
  /** `CURSOR_SECRET`: the same on every instance, so that each reads the others' feed cursors. */
  cursorSecret?: string | undefined;
}

export async function createApps(options: AppsOptions): Promise<Apps> {
  const { config, logger } = options;
  const fixed = new Map<string, AppKey>(
    Object.entries(options.fixedKeys ?? {}).map(([key, app]) => [key, { name: app.name, partnerTokens: app.partnerTokens, keyHash: hashKey(key) }]),
  );
  const keys = await createAppKeyRegistry({ file: config.keysFile, fixed, reloadMs: config.keysReloadMs, logger });
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
    store: options.cache.keyv('feed'),
    coordination,
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
  const gate = createAppGate({
    cursorSecret,
    keys,
    trusted,
    feed,
    limiter: createRateLimiter(coordination, config.rateLimitWindowMs),
    appsTrustedOnly: options.production,
    partnersTrustedOnly: config.trustedDocumentsOnly,
    appKeyRateLimit: config.appKeyRateLimit,
    clientRateLimit: config.clientRateLimit,
    clientAddress: options.clientAddress,
    httpMaxAgeS: config.httpMaxAgeS,
    httpStaleWhileRevalidateS: config.httpStaleWhileRevalidateS,
    memoMs: config.feedTtlMs,
    onRefused: options.onRefused,
  });

  const api = new Proxy(options.api, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || !FEED_CHANGING.has(name) || typeof value !== 'function') return value;
      return (token: string, ...rest: unknown[]) => {
        const call = (value as (...args: unknown[]) => Promise<unknown>).call(target, token, ...rest);
        // Also after a failure, unless the backend refused it: a write whose answer was lost
        // may still have happened.
        call.then(
          () => feed.invalidate(token),
          (error: unknown) => {
            if (!(error instanceof BusinessError)) feed.invalidate(token);
          },
        );
        return call;
      };
    },
  }) as CampaignApi;

  // Per accepted document, which the compiled path holds: nothing here outlives it.
  const verdicts = new WeakMap<DocumentNode, boolean>();
  const withinScope = (document: DocumentNode): boolean => {
    let allowed = verdicts.get(document);
    if (allowed === undefined) {
      allowed = forbiddenForApps(options.schema, document).length === 0;
      verdicts.set(document, allowed);
    }
    return allowed;
  };
  return {
    keys,
    feed,
    gate,
    trusted,
    plugin: appScopePlugin(),
    api,
    guardFastPath(fastPath) {
      return (request, context, state) => fastPath(request, context, (state as AppsContext | undefined)?.app ? withinScope : undefined);
    },
    cursorSecret,
    rememberedAnswers: () => gate.remembered(),
    async close() {
      keys.close();
      await feed.settled();
      await coordination.close();
    },
  };
}
