import { createCampaignApiClient, type CampaignApiClient } from '../campaign-api/http-client.js';
import { createCacheStore, type CacheStore } from '../cache/store.js';
import { createTokenVerdicts, type TokenVerdicts } from '../cache/token-verdicts.js';
import { CATEGORY_STORE_BOUNDS, createCategoryDirectory, type CategoryDirectory } from '../categories/directory.js';
import type { Config } from '../config.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { keyedHashes, type KeyedHashes } from '../secrets/index.js';
import { Dependencies } from './dependencies.js';
import { backendLog, redisLog } from './dependency-log.js';

/** What the instance depends on: the shared cache, the campaign API, and what is told of both. */
export interface Backend {
  cache: CacheStore;
  api: CampaignApiClient;
  dependencies: Dependencies;
  /** Everything derived from a partner token or an app key, keyed by `CURSOR_SECRET` (else a secret of this process). */
  hashes: KeyedHashes;
  /** One memory of what the campaign API said of tokens, for the directory, live status and caches alike. */
  verdicts: TokenVerdicts;
  categories: CategoryDirectory;
}

export async function connectBackend(config: Config, campaignApiUrl: string, logger: Logger, metrics: Metrics): Promise<Backend> {
  const storeError = () => metrics.cacheLookups.inc({ cache: 'store', result: 'error' });
  // A down Redis errors on every command: one log line per 10 s is enough to act on, and one when it is back.
  const cacheLog = redisLog(logger, { down: 'cache unavailable; serving from the backend', back: 'cache reconnected' });
  const cache = await createCacheStore(config.cacheUrl, {
    onError(error) {
      storeError();
      cacheLog.failed(error);
    },
    onReady: cacheLog.ready,
  });
  if (cache.kind === 'redis') metrics.watchRedis('cache', () => cache.connected());

  const logBackend = backendLog(logger);
  const api: CampaignApiClient = createCampaignApiClient({
    baseUrl: campaignApiUrl,
    ...config.client,
    onCall(report) {
      metrics.recordBackendCall(report);
      logBackend(report, api.breakerState());
      dependencies.observe('backend');
    },
  });
  metrics.watchBreaker(() => api.breakerState());
  // Told from real traffic (the breaker opens after consecutive failures), never by probing the
  // partner API with a made-up token.
  const dependencies = new Dependencies(
    [
      {
        name: 'backend',
        check() {
          const answered = api.lastAnsweredAt();
          const last = answered === undefined ? 'no answer yet' : `last answer ${Date.now() - answered} ms ago`;
          const breaker = api.breakerState();
          if (breaker === 'closed') return { ok: true, detail: answered === undefined ? 'no call yet' : last };
          return { ok: false, detail: `the campaign API fails: circuit breaker ${breaker}; ${last}` };
        },
      },
      ...(cache.kind === 'redis'
        ? [{ name: 'redis' as const, check: async () => ((await cache.ping()) ? { ok: true, detail: 'redis' } : { ok: false, detail: 'redis cache does not answer' }) }]
        : []),
    ],
    logger,
    metrics.registry,
  );
  dependencies.watch(5000);

  const hashes = keyedHashes(config.cursorSecret);
  const verdicts = createTokenVerdicts(cache, hashes, storeError);
  const categories = createCategoryDirectory({
    api,
    store: cache.namespace('categories', CATEGORY_STORE_BOUNDS),
    ttlMs: config.categoryTtlMs,
    verdicts,
    onLookup: (result: 'hit' | 'stale' | 'miss' | 'error') => metrics.cacheLookups.inc({ cache: 'categories', result }),
  });
  return { cache, api, dependencies, hashes, verdicts, categories };
}
