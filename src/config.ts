import { z } from 'zod';
import type { ResilienceSettings } from './campaign-api/resilience.js';
import { parseTrustProxy, type ForwardedHeader, type TrustProxy } from './http/client-address.js';
import { redactCredentials, redactUrlValue } from './observability/failures.js';
import { REDIS_URL_FORMS, redisUrlProblem, SINGLE_SERVER_URL } from './cache/redis-url.js';

/**
 * The whole configuration, read once from environment variables. A bad value stops start-up
 * with a message that names the variable, the value received and what is allowed.
 */

/**
 * A whole number in decimal digits only: `Number()` would also take `0x3e8`, `1e4`, `0b11` or
 * surrounding spaces, which a person reading the setting would not take for the value used.
 */
const int = (min: number, max: number, fallback: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d+$/, { error })
    .transform(Number)
    .pipe(z.number().min(min, { error }).max(max, { error }))
    .default(fallback);
};

/**
 * A load balancer stops sending to an instance after `fall` failed checks `inter` apart (HAProxy's
 * defaults: 2 s and 3): until then it still sends, so the port stays open that long.
 */
const DEFAULT_SHUTDOWN_DELAY_MS = 6000;

/** A port, or `off`: no listener at all. */
const portOrOff = (fallback: number) => {
  const error = 'must be a port number from 0 to 65535, or off';
  return z
    .string()
    .regex(/^(?:\d+|off)$/, { error })
    .transform((v) => (v === 'off' ? -1 : Number(v)))
    .pipe(z.number().min(-1, { error }).max(65535, { error }))
    .default(fallback);
};

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL, such as https://api.example.com' })
  .transform((u) => u.replace(/\/+$/, ''));

const trustProxy = z.string().transform((value, ctx): TrustProxy => {
  try {
    return parseTrustProxy(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const oneRedisServer = z.url({ protocol: /^rediss?$/ });
/** One server (redis://, rediss://), a Sentinel group or a Cluster: cache/redis-url.ts reads the last two. */
const redisUrl = z.string().superRefine((value, ctx) => {
  const problem = SINGLE_SERVER_URL.test(value) ? (oneRedisServer.safeParse(value).success ? undefined : REDIS_URL_FORMS) : redisUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const origins = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.url({ error: 'must be a comma-separated list of origins such as https://app.example.com' })));

/** Each variable with its default; the keys are the environment variable names. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  PORT: int(0, 65535, 4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  METRICS_PORT: portOrOff(9464),
  METRICS_HOST: z.string().min(1).optional(),
  BUILD_COMMIT: z.string().regex(/^[0-9a-f]{7,40}$/i, { error: 'must be a git commit hash (7 to 40 hex digits)' }).optional(),
  EMULATOR_PORT: int(0, 65535, 4010),
  CAMPAIGN_API_URL: httpUrl.optional(),
  CACHE_URL: redisUrl.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
  CORS_ORIGINS: origins.optional(),
  DEMO_FALLBACK: bool.optional(),

  BACKEND_CONNECTIONS: int(1, 1024, 256),
  BACKEND_ATTEMPT_TIMEOUT_MS: int(10, 60_000, 3000),
  BACKEND_BUDGET_MS: int(10, 120_000, 8000),
  BACKEND_MAX_ATTEMPTS: int(1, 10, 3),
  BACKEND_BACKOFF_INITIAL_MS: int(0, 60_000, 100),
  BACKEND_BACKOFF_MAX_MS: int(0, 600_000, 1000),
  BACKEND_BREAKER_FAILURES: int(1, 1000, 5),
  BACKEND_BREAKER_HALF_OPEN_MS: int(100, 300_000, 5000),
  BACKEND_MAX_CONCURRENT: int(1, 10_000, 256),
  BACKEND_MAX_QUEUE: int(0, 1_000_000, 10_000),

  REQUEST_TIMEOUT_MS: int(100, 300_000, 15_000),
  BODY_LIMIT_BYTES: int(1024, 64 * 1024 * 1024, 5 * 1024 * 1024),
  MAX_TOKENS: int(10, 1_000_000, 5000),
  MAX_DEPTH: int(1, 100, 10),
  MAX_ALIASES: int(0, 1000, 15),
  MAX_DIRECTIVES: int(0, 1000, 10),
  MAX_BACKEND_CALLS: int(1, 100_000, 500),
  MAX_LIST_NODES: int(1, 10_000_000, 20_000),

  CATEGORY_TTL_MS: int(1000, 86_400_000, 300_000),
  PIN_CHUNK_SIZE: int(1, 100_000, 10_000),
  MAX_PINS_PER_MUTATION: int(1, 1_000_000, 100_000),
  // As many as the largest page holds, so a full page of cards is one wave of calls after the list.
  LOADER_CONCURRENCY: int(1, 1000, 100),
  MAX_STATUS_SCAN: int(100, 1_000_000, 10_000),
  COMPILED_OPERATIONS: bool.default(true),
  GRAPHQL_JIT: bool.default(true),
  ADMISSION_CONTROL: bool.default(true),
  HEAP_GROWTH_PERCENT: int(0, 300, 100),
  SHUTDOWN_GRACE_MS: int(0, 600_000, 10_000),
  // Unset in development (no load balancer in front): 0.
  SHUTDOWN_DELAY_MS: int(0, 600_000, DEFAULT_SHUTDOWN_DELAY_MS),
  TRUST_PROXY: trustProxy.optional(),
  TRUST_PROXY_HEADER: z.enum(['x-forwarded-for', 'forwarded'], { error: 'must be x-forwarded-for or forwarded' }).default('x-forwarded-for'),
  CURSOR_SECRET: z.string().min(32, { error: 'must be at least 32 characters (the same on every instance)' }).optional(),

  SUBSCRIPTION_POLL_INTERVAL_MS: int(100, 600_000, 3000),
  SUBSCRIPTION_POLL_BACKOFF_MAX_MS: int(100, 3_600_000, 30_000),
  SUBSCRIPTIONS_PER_CONNECTION: int(1, 1000, 20),
  SUBSCRIPTION_MAX_IDS: int(1, 10_000, 100),
  SUBSCRIPTION_CONNECTIONS_PER_PARTNER: int(1, 1_000_000, 2000),
  SUBSCRIPTION_INIT_TIMEOUT_MS: int(100, 60_000, 3000),
  SUBSCRIPTION_KEEPALIVE_MS: int(0, 600_000, 12_000),

  // Apps (issue 12): app keys, the shared offer feed, trusted documents, rate limits.
  APP_KEYS_FILE: z.string().min(1).optional(),
  APP_KEYS_RELOAD_MS: int(100, 3_600_000, 1000),
  FEED_TTL_MS: int(1000, 86_400_000, 30_000),
  FEED_MAX_STALE_MS: int(0, 604_800_000, 86_400_000),
  FEED_LOCK_MS: int(100, 120_000, 10_000),
  FEED_LOCK_WAIT_MS: int(0, 120_000, 10_000),
  FEED_MAX_CAMPAIGNS: int(1, 100_000, 1000),
  FEED_HTTP_MAX_AGE_S: int(0, 86_400, 10),
  FEED_HTTP_SWR_S: int(0, 86_400, 30),
  TRUSTED_DOCUMENTS: z.string().min(1).optional(),
  TRUSTED_DOCUMENTS_ONLY: bool.default(false),
  RATE_LIMIT_WINDOW_MS: int(100, 3_600_000, 60_000),
  APP_KEY_RATE_LIMIT: int(0, 1_000_000_000, 1_200_000),
  CLIENT_RATE_LIMIT: int(0, 1_000_000_000, 1200),
});

export type Env = z.infer<typeof envSchema>;

/** Variables whose values are never echoed in configuration errors. */
const SECRETS = new Set(['CURSOR_SECRET']);

export interface Config {
  mode: 'development' | 'production';
  nodeEnv: Env['NODE_ENV'];
  port: number;
  host: string;
  /** Where Prometheus reads `/metrics`: a listener of its own, never the public one; undefined: off. */
  metrics: { port: number; host: string } | undefined;
  /** The commit the build was made from, for `bff_build_info` (the image sets it). */
  buildCommit: string | undefined;
  emulatorPort: number;
  /** The REST `{base_url}`; unset means "start the embedded emulator". */
  campaignApiUrl: string | undefined;
  cacheUrl: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  corsOrigins: string[];
  /** A request without Authorization acts as the demo store (development on the emulator only). */
  demoFallback: boolean;
  /** The REST client's settings, as its resilience policies take them. */
  client: ResilienceSettings & { connections: number };
  limits: {
    requestTimeoutMs: number;
    bodyLimitBytes: number;
    maxTokens: number;
    maxDepth: number;
    maxAliases: number;
    maxDirectives: number;
    maxBackendCalls: number;
    maxListNodes: number;
    pinChunkSize: number;
    maxPinsPerMutation: number;
    loaderConcurrency: number;
    maxStatusScan: number;
    /** Operations Apollo accepted before run without its per-request pipeline. */
    compiledOperations: boolean;
    /** The compiled path executes with graphql-jit rather than graphql-js. */
    graphqlJit: boolean;
    /** While the event loop is saturated, only a few requests at a time start backend work (server/admission.ts). */
    admissionControl: boolean;
  };
  /**
   * How far V8 lets the old generation grow past what the last full collection kept, in percent;
   * 0 leaves V8's own choice (up to 4x). Applied once at start-up by server/heap-growth.ts.
   */
  heapGrowthPercent: number;
  categoryTtlMs: number;
  shutdownGraceMs: number;
  /** After SIGTERM/SIGINT: how long /readyz answers 503 while requests are still served, before the port closes. */
  shutdownDelayMs: number;
  /** Which peers may name the client in `trustProxyHeader` (server/client-address.ts); false: none. */
  trustProxy: TrustProxy;
  trustProxyHeader: ForwardedHeader;
  /** Keys the HMAC of pagination cursors; the same on every instance of a fleet. */
  cursorSecret: string | undefined;
  /** Live campaign status (subscriptions over WebSocket and SSE). */
  live: {
    pollIntervalMs: number;
    backoffMaxMs: number;
    subscriptionsPerConnection: number;
    maxIds: number;
    connectionsPerPartner: number;
    initTimeoutMs: number;
    /** 0: no pings. */
    keepAliveMs: number;
  };
  apps: AppsConfig;
}

/** App keys, the shared offer feed, trusted documents and rate limits (issue 12). */
export interface AppsConfig {
  /** JSON file: app key → app name and the partner tokens it reads for; re-read on change. */
  keysFile: string | undefined;
  keysReloadMs: number;
  /** How long a built feed counts as fresh; then it is served stale while one rebuild runs. */
  feedTtlMs: number;
  /** How long the last good feed may still be served while rebuilds fail. */
  feedMaxStaleMs: number;
  /** The cross-instance build lock's lifetime (longer than a build takes). */
  feedLockMs: number;
  /** How long a request for a cold feed waits on another instance's build (while it holds the lock) before building itself. */
  feedLockWaitMs: number;
  /** Campaigns one partner's feed build reads at most (list calls of 100). */
  feedMaxCampaigns: number;
  /** `Cache-Control` of feed answers to GET: max-age and stale-while-revalidate, in seconds. */
  httpMaxAgeS: number;
  httpStaleWhileRevalidateS: number;
  /** JSON manifest sha256 → document (GraphQL Codegen's persisted documents). */
  trustedDocumentsFile: string | undefined;
  /** Partner tokens too may run only trusted documents. */
  trustedDocumentsOnly: boolean;
  rateLimitWindowMs: number;
  /** Requests per window per app key, and per client address; 0 turns the limit off. */
  appKeyRateLimit: number;
  clientRateLimit: number;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    // Start-up errors end up in logs: a URL's credentials are never in them, whoever wrote the problem.
    const shown = problems.map(redactCredentials);
    // One problem, one line; several, one line each.
    super(shown.length === 1 ? `invalid configuration: ${shown[0]}` : `invalid configuration:\n  ${shown.join('\n  ')}`);
    this.problems = shown;
    this.name = 'ConfigError';
  }
}

/** Origins Apollo Sandbox and local front ends use in development. */
const DEVELOPMENT_ORIGINS = ['https://studio.apollographql.com'];

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as most shells and .env files intend it.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        // A secret is never printed, not even a wrong one: start-up errors end up in logs.
        const value = env[name];
        const shown = SECRETS.has(name) ? `(hidden, ${value?.length ?? 0} characters)` : JSON.stringify(value === undefined ? value : redactUrlValue(value));
        return `${name}=${shown}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const problems: string[] = [];
  if (production && !e.CAMPAIGN_API_URL) {
    problems.push('CAMPAIGN_API_URL is not set: production needs a real backend (the embedded emulator is for development)');
  }
  if (production && e.DEMO_FALLBACK) problems.push('DEMO_FALLBACK=true is not allowed with NODE_ENV=production');
  if (e.DEMO_FALLBACK && e.CAMPAIGN_API_URL) problems.push('DEMO_FALLBACK=true only works on the embedded emulator (unset CAMPAIGN_API_URL)');
  if (e.BACKEND_BUDGET_MS < e.BACKEND_ATTEMPT_TIMEOUT_MS) {
    problems.push(`BACKEND_BUDGET_MS=${e.BACKEND_BUDGET_MS} must be at least BACKEND_ATTEMPT_TIMEOUT_MS=${e.BACKEND_ATTEMPT_TIMEOUT_MS}`);
  }
  if (e.BACKEND_BACKOFF_MAX_MS < e.BACKEND_BACKOFF_INITIAL_MS) {
    problems.push(`BACKEND_BACKOFF_MAX_MS=${e.BACKEND_BACKOFF_MAX_MS} must be at least BACKEND_BACKOFF_INITIAL_MS=${e.BACKEND_BACKOFF_INITIAL_MS}`);
  }
  if (e.SUBSCRIPTION_POLL_BACKOFF_MAX_MS < e.SUBSCRIPTION_POLL_INTERVAL_MS) {
    problems.push(`SUBSCRIPTION_POLL_BACKOFF_MAX_MS=${e.SUBSCRIPTION_POLL_BACKOFF_MAX_MS} must be at least SUBSCRIPTION_POLL_INTERVAL_MS=${e.SUBSCRIPTION_POLL_INTERVAL_MS}`);
  }
  if (present.READY_BACKEND_WINDOW_MS !== undefined) {
    problems.push(
      'READY_BACKEND_WINDOW_MS is no longer read: /readyz no longer turns 503 when the backend is down (that took every instance out of the load balancer); the backend\'s state is in /readyz\'s checks and bff_dependency_up. Remove the variable',
    );
  }
  if (e.METRICS_PORT === e.PORT && e.PORT !== 0) {
    problems.push(`METRICS_PORT=${e.METRICS_PORT} must differ from PORT=${e.PORT}: metrics have a listener of their own (or METRICS_PORT=off)`);
  }
  if (problems.length) throw new ConfigError(problems);

  return {
    mode: production ? 'production' : 'development',
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    metrics: e.METRICS_PORT === -1 ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST ?? e.HOST },
    buildCommit: e.BUILD_COMMIT?.toLowerCase(),
    emulatorPort: e.EMULATOR_PORT,
    campaignApiUrl: e.CAMPAIGN_API_URL,
    cacheUrl: e.CACHE_URL,
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS ?? (production ? [] : DEVELOPMENT_ORIGINS),
    demoFallback: e.DEMO_FALLBACK ?? (!production && !e.CAMPAIGN_API_URL),
    client: {
      connections: e.BACKEND_CONNECTIONS,
      attemptTimeoutMs: e.BACKEND_ATTEMPT_TIMEOUT_MS,
      budgetMs: e.BACKEND_BUDGET_MS,
      maxAttempts: e.BACKEND_MAX_ATTEMPTS,
      backoff: { initialMs: e.BACKEND_BACKOFF_INITIAL_MS, maxMs: e.BACKEND_BACKOFF_MAX_MS },
      breaker: { consecutiveFailures: e.BACKEND_BREAKER_FAILURES, halfOpenAfterMs: e.BACKEND_BREAKER_HALF_OPEN_MS },
      bulkhead: { maxConcurrent: e.BACKEND_MAX_CONCURRENT, maxQueue: e.BACKEND_MAX_QUEUE },
    },
    limits: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      maxTokens: e.MAX_TOKENS,
      maxDepth: e.MAX_DEPTH,
      maxAliases: e.MAX_ALIASES,
      maxDirectives: e.MAX_DIRECTIVES,
      maxBackendCalls: e.MAX_BACKEND_CALLS,
      maxListNodes: e.MAX_LIST_NODES,
      pinChunkSize: e.PIN_CHUNK_SIZE,
      maxPinsPerMutation: e.MAX_PINS_PER_MUTATION,
      loaderConcurrency: e.LOADER_CONCURRENCY,
      maxStatusScan: e.MAX_STATUS_SCAN,
      compiledOperations: e.COMPILED_OPERATIONS,
      graphqlJit: e.GRAPHQL_JIT,
      admissionControl: e.ADMISSION_CONTROL,
    },
    heapGrowthPercent: e.HEAP_GROWTH_PERCENT,
    categoryTtlMs: e.CATEGORY_TTL_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDelayMs: production || present.SHUTDOWN_DELAY_MS !== undefined ? e.SHUTDOWN_DELAY_MS : 0,
    trustProxy: e.TRUST_PROXY ?? false,
    trustProxyHeader: e.TRUST_PROXY_HEADER,
    cursorSecret: e.CURSOR_SECRET,
    live: {
      pollIntervalMs: e.SUBSCRIPTION_POLL_INTERVAL_MS,
      backoffMaxMs: e.SUBSCRIPTION_POLL_BACKOFF_MAX_MS,
      subscriptionsPerConnection: e.SUBSCRIPTIONS_PER_CONNECTION,
      maxIds: e.SUBSCRIPTION_MAX_IDS,
      connectionsPerPartner: e.SUBSCRIPTION_CONNECTIONS_PER_PARTNER,
      initTimeoutMs: e.SUBSCRIPTION_INIT_TIMEOUT_MS,
      keepAliveMs: e.SUBSCRIPTION_KEEPALIVE_MS,
    },
    apps: {
      keysFile: e.APP_KEYS_FILE,
      keysReloadMs: e.APP_KEYS_RELOAD_MS,
      feedTtlMs: e.FEED_TTL_MS,
      feedMaxStaleMs: e.FEED_MAX_STALE_MS,
      feedLockMs: e.FEED_LOCK_MS,
      feedLockWaitMs: e.FEED_LOCK_WAIT_MS,
      feedMaxCampaigns: e.FEED_MAX_CAMPAIGNS,
      httpMaxAgeS: e.FEED_HTTP_MAX_AGE_S,
      httpStaleWhileRevalidateS: e.FEED_HTTP_SWR_S,
      trustedDocumentsFile: e.TRUSTED_DOCUMENTS,
      trustedDocumentsOnly: e.TRUSTED_DOCUMENTS_ONLY,
      rateLimitWindowMs: e.RATE_LIMIT_WINDOW_MS,
      appKeyRateLimit: e.APP_KEY_RATE_LIMIT,
      clientRateLimit: e.CLIENT_RATE_LIMIT,
    },
  };
}
