import { flag, int, section, text } from './setting.js';

export const apps = section({
  title: 'Apps',
  about:
    "Mobile apps and their keys: the shared offer feed an app key reads, the trusted documents (persisted queries) apps may run, the feed's HTTP caching and the rate limits of app traffic.",
  shape: {
    APP_KEYS_FILE: text({
      allowed: 'a file path',
      description:
        'A JSON file of app keys: `{ "<key>": { "name": "…", "partnerTokens": ["…"] } }` (or `"partnerToken"`); re-read when it changes, a bad file keeps the last good keys; at start-up a file that cannot be read or used stops the process (see [For app developers](../README.md#for-app-developers)). `npm start` on the embedded emulator adds `demo-app-key`.',
      example: '/etc/campaign-bff/app-keys.json',
    }),
    APP_KEYS_RELOAD_MS: int(100, 3_600_000, 1000, { description: 'How often the app keys file is checked for changes.' }),
    FEED_TTL_MS: int(1000, 86_400_000, 30_000, { description: 'The freshness of a built offer feed; then it is served while one rebuild runs (stale-while-revalidate).' }),
    FEED_MAX_STALE_MS: int(0, 604_800_000, 86_400_000, { description: 'How long the last good feed is still served while rebuilds fail (marked `extensions.feed.stale`).' }),
    FEED_LOCK_MS: int(100, 120_000, 10_000, {
      description: "The lifetime of the fleet's build lock on Redis (`SET NX PX`; it ends when the build is saved, or expires if its instance died): longer than a build takes.",
    }),
    FEED_LOCK_WAIT_MS: int(0, 120_000, 10_000, { description: "How long a request for a cold feed waits for another instance's build while it holds the lock, before building itself." }),
    FEED_MAX_CAMPAIGNS: int(1, 100_000, 1000, { description: "Campaigns one partner's feed build reads at most (100 per list call)." }),
    FEED_HTTP_MAX_AGE_S: int(0, 86_400, 10, { description: "`max-age` of `Cache-Control: public, max-age, stale-while-revalidate` on an app's feed GET." }),
    FEED_HTTP_SWR_S: int(0, 86_400, 30, { description: "`stale-while-revalidate` of the same `Cache-Control`." }),
    TRUSTED_DOCUMENTS: text({
      allowed: 'a file path',
      description: "A JSON manifest `{ \"<sha256>\": \"<document>\" }` (GraphQL Codegen's `persisted-documents.json`); in production app keys run only these.",
      example: '/etc/campaign-bff/persisted-documents.json',
    }),
    TRUSTED_DOCUMENTS_ONLY: flag(false, { description: 'Partner tokens too run only trusted documents.' }),
    RATE_LIMIT_WINDOW_MS: int(100, 3_600_000, 60_000, { description: 'The window of the app rate limits (shared on Redis when `CACHE_URL` is set).' }),
    APP_KEY_RATE_LIMIT: int(0, 1_000_000_000, 1_200_000, { description: 'Requests per window per app key (every phone of an app shares it); `0` turns it off.' }),
    CLIENT_RATE_LIMIT: int(0, 1_000_000_000, 1200, { description: 'Requests per window per client address for app-key requests; `0` turns it off.' }),
  },
  build: (e) => ({
    /** JSON file: app key → app name and the partner tokens it reads for; re-read on change. */
    keysFile: e.APP_KEYS_FILE,
    keysReloadMs: e.APP_KEYS_RELOAD_MS,
    /** How long a built feed counts as fresh; then it is served stale while one rebuild runs. */
    feedTtlMs: e.FEED_TTL_MS,
    /** How long the last good feed may still be served while rebuilds fail. */
    feedMaxStaleMs: e.FEED_MAX_STALE_MS,
    /** The cross-instance build lock's lifetime (longer than a build takes). */
    feedLockMs: e.FEED_LOCK_MS,
    /** How long a request for a cold feed waits on another instance's build (while it holds the lock) before building itself. */
    feedLockWaitMs: e.FEED_LOCK_WAIT_MS,
    /** Campaigns one partner's feed build reads at most (list calls of 100). */
    feedMaxCampaigns: e.FEED_MAX_CAMPAIGNS,
    /** `Cache-Control` of feed answers to GET: max-age and stale-while-revalidate, in seconds. */
    httpMaxAgeS: e.FEED_HTTP_MAX_AGE_S,
    httpStaleWhileRevalidateS: e.FEED_HTTP_SWR_S,
    /** JSON manifest sha256 → document (GraphQL Codegen's persisted documents). */
    trustedDocumentsFile: e.TRUSTED_DOCUMENTS,
    /** Partner tokens too may run only trusted documents. */
    trustedDocumentsOnly: e.TRUSTED_DOCUMENTS_ONLY,
    rateLimitWindowMs: e.RATE_LIMIT_WINDOW_MS,
    /** Requests per window per app key, and per client address; 0 turns the limit off. */
    appKeyRateLimit: e.APP_KEY_RATE_LIMIT,
    clientRateLimit: e.CLIENT_RATE_LIMIT,
  }),
});
