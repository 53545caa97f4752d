import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { DocumentNode } from 'graphql';
import { Counter } from 'prom-client';
import { appCategories, createApps, type Apps } from '../apps/index.js';
import { createCampaignApiClient, type CampaignApiClient } from '../campaign-api/http-client.js';
import { createApqStore } from '../cache/apq-cache.js';
import { createCacheStore } from '../cache/store.js';
import { createCategoryDirectory } from '../cache/category-directory.js';
import { createTokenVerdicts } from '../cache/token-verdicts.js';
import type { Config } from '../config.js';
import { createContext, type GraphQLContext } from '../graphql/context.js';
import { documentBytes } from '../graphql/document-size.js';
import { formatError } from '../graphql/errors.js';
import { KeyedQueue } from '../graphql/keyed-queue.js';
import { createCostLimit, limitValidationRules } from '../graphql/limits/index.js';
import { createOperationCache } from '../graphql/operation-cache.js';
import { createSharedAnswers } from '../graphql/shared-answers.js';
import { httpOperationTypesRule } from '../graphql/operation-types.js';
import { createRequestRecorder, observabilityPlugin, type RequestMeta } from '../graphql/plugins/observability.js';
import { createSchema } from '../graphql/schema.js';
import { variablesPlugin } from '../graphql/variables.js';
import { backendLog, redisLog } from '../observability/dependency-log.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { traceResolvers } from '../tracing/graphql.js';
import { traceGraphqlRequests } from '../tracing/http-server.js';
import { activeTracer } from '../tracing/state.js';
import { createLive } from '../subscriptions/index.js';
import { Admission } from './admission.js';
import { clientAddressReader } from './client-address.js';
import { Dependencies } from './dependencies.js';
import { createHttpHandler, type Readiness } from './http.js';
import { listen } from './listen.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import { RequestShapes } from './request-shapes.js';
import type { AppsContext } from '../apps/context.js';

export type ServerContext = GraphQLContext & RequestMeta;

export interface BffOptions {
  /** The REST `{base_url}` to use (config.campaignApiUrl, or the embedded emulator's URL). */
  campaignApiUrl: string;
  /** Token a request without Authorization acts with; only on the embedded emulator. */
  fallbackToken?: string | null;
  /** App keys configured in code (the demo key on the embedded emulator); APP_KEYS_FILE adds more. */
  appKeys?: Record<string, { name: string; partnerTokens: string[] }>;
  logger?: Logger;
  /** Admission of requests to backend work (tests give one with a utilisation of their own); with ADMISSION_CONTROL on, one following the event loop. */
  admission?: Admission;
}

export interface RunningBff {
  url: string;
  port: number;
  server: Server;
  metrics: Metrics;
  /** Where `/metrics` is served, on a listener of its own (METRICS_PORT); undefined when off. */
  metricsUrl: string | undefined;
  api: CampaignApiClient;
  /** App keys and the shared offer feed. */
  apps: Apps;
  /**
   * Answers /readyz 503 at once and goes on serving for `delayMs` (the load balancer's time to
   * notice), then stops accepting and ends subscriptions, lets in-flight requests finish within
   * the grace period, answers those still at work after it 503 SHUTTING_DOWN, then frees
   * everything.
   */
  close(options?: { delayMs?: number }): Promise<void>;
}

/** How long the 503s of requests interrupted at the end of the grace period get to be written before every socket is closed. */
const LAST_ANSWERS_MS = 1000;

const FIRST_QUERY = `query FirstLook {
  categories { id name }
  campaigns(first: 5) {
    totalCount
    nodes { id status card { title discountLabel } }
  }
}
`;

export async function startBff(config: Config, options: BffOptions): Promise<RunningBff> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = createMetrics();
  const production = config.mode === 'production';

  // A down Redis errors on every command: one log line per 10 s is enough to act on, and one when it is back.
  const cacheLog = redisLog(logger, { down: 'cache unavailable; serving from the backend', back: 'cache reconnected' });
  const cache = await createCacheStore(config.cacheUrl, {
    onError(error) {
      metrics.cacheLookups.inc({ cache: 'store', result: 'error' });
      cacheLog.failed(error);
    },
    onReady: cacheLog.ready,
  });

  const logBackend = backendLog(logger);
  const api: CampaignApiClient = createCampaignApiClient({
    baseUrl: options.campaignApiUrl,
    ...config.client,
    onCall(report) {
      metrics.recordBackendCall(report);
      const breaker = api.breakerState();
      metrics.setBreakerState(breaker);
      logBackend(report, breaker);
      dependencies.observe('backend');
    },
  });
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

  const schema = createSchema();
  // Tracing is started (or not) by the process before this; the compiled path must see the wrapped resolvers.
  const tracer = activeTracer();
  if (tracer) traceResolvers(schema, tracer);
  const feedBuilds = new Counter({
    name: 'bff_feed_builds_total',
    help: 'Builds of a partner offer feed by outcome (ok, error).',
    labelNames: ['outcome'] as const,
    registers: [metrics.registry],
  });
  const apps = await createApps({
    config: config.apps,
    production,
    api,
    cache,
    cacheUrl: config.cacheUrl,
    schema,
    logger,
    buildConcurrency: config.limits.loaderConcurrency,
    fixedKeys: options.appKeys,
    onCacheError: () => metrics.cacheLookups.inc({ cache: 'store', result: 'error' }),
    onBuild: (outcome) => feedBuilds.inc({ outcome }),
    onLookup: (result) => metrics.cacheLookups.inc({ cache: 'feed', result }),
    onRefused: (reason) => metrics.limitRejections.inc({ limit: reason }),
    clientAddress: clientAddressReader(config.trustProxy, config.trustProxyHeader),
    cursorSecret: config.cursorSecret,
  });

  // One memory of what the campaign API said of tokens, for the directory and live status alike.
  const verdicts = createTokenVerdicts(cache, config.cursorSecret, () => metrics.cacheLookups.inc({ cache: 'store', result: 'error' }));
  const categories = createCategoryDirectory({
    api,
    store: cache.keyv('categories'),
    ttlMs: config.categoryTtlMs,
    verdicts,
    onLookup: (result: 'hit' | 'stale' | 'miss' | 'error') => metrics.cacheLookups.inc({ cache: 'categories', result }),
  });
  const live = await createLive({ config, api, logger, registry: metrics.registry, verdicts });
  const deps = {
    // Mutations refresh the partner's feeds and publish the status they leave a campaign in to
    // its subscribers, at once.
    api: live.publishing(apps.api),
    categories,
    pinUploads: new KeyedQueue(),
    limits: {
      pinChunkSize: config.limits.pinChunkSize,
      loaderConcurrency: config.limits.loaderConcurrency,
      maxPinsPerMutation: config.limits.maxPinsPerMutation,
      maxStatusScan: config.limits.maxStatusScan,
    },
    cursorSecret: config.cursorSecret,
  };

  const onLimit = (limit: string) => metrics.limitRejections.inc({ limit });
  const recorder = createRequestRecorder(metrics, logger);
  const costLimit = createCostLimit<ServerContext>(config.limits, onLimit);
  const sharedAnswers = createSharedAnswers({ schema, source: categories, maxEntries: 200 });
  const operations = createOperationCache<ServerContext>(
    { maxEntries: 1000, maxQueryLength: 64 * 1024, maxBytes: 32 * 1024 * 1024, jit: config.limits.graphqlJit, hideSuggestions: production },
    {
      schema,
      recorder,
      withinCost: (document, operationName, variables) => costLimit.within(schema, document, operationName, variables),
      shared: sharedAnswers,
    },
  );
  const apq = createApqStore(cache.keyv('apq'), (result) => metrics.cacheLookups.inc({ cache: 'apq', result }));
  const apollo = new ApolloServer<ServerContext>({
    schema,
    introspection: !production,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: production,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    nodeEnv: config.nodeEnv,
    // The process entry owns SIGTERM/SIGINT and drains the HTTP server first (close() below).
    // Apollo's own handler, on by default outside NODE_ENV=test, stopped Apollo under the
    // requests in flight and re-sent the signal, which the entry took as a second one.
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: config.limits.maxTokens },
    // Apollo's default store sizes a document by its JSON, which leaves out the text its location
    // holds: documents padded with a long comment were kept whole, thirty of them past a hundred
    // megabytes. Sized by what they hold, and none larger than a document ever needs to be reused.
    documentStore: new InMemoryLRUCache<DocumentNode>({ maxSize: 32 * 1024 * 1024, maxEntrySize: 1024 * 1024, sizeCalculation: (document) => documentBytes(document) }),
    validationRules: [httpOperationTypesRule, ...limitValidationRules(config.limits, onLimit)],
    persistedQueries: { cache: apq.cache },
    formatError,
    logger: {
      debug: (m) => logger.debug(m),
      info: (m) => logger.info(m),
      warn: (m) => logger.warn(m),
      error: (m) => logger.error(m),
    },
    plugins: [
      // First: an app key's operation beyond its scope is refused before anything else looks at it.
      apps.plugin,
      ApolloServerPluginCacheControlDisabled(),
      production
        ? ApolloServerPluginLandingPageDisabled()
        : ApolloServerPluginLandingPageLocalDefault({
            embed: options.fallbackToken
              ? { initialState: { sharedHeaders: { Authorization: `Bearer ${options.fallbackToken}` } } }
              : true,
            document: FIRST_QUERY,
          }),
      // Before the cost limit: variables that do not coerce are refused as such, not costed.
      variablesPlugin<ServerContext>({ hideSuggestions: production }),
      costLimit.plugin,
      observabilityPlugin<ServerContext>(metrics, logger, recorder),
      operations.plugin,
    ],
  });
  await apollo.start();
  const subscriptions = live.transports({
    schema,
    deps,
    fallbackToken: options.fallbackToken ?? null,
    onLimit,
    // Subscriptions are partner-token only: TRUSTED_DOCUMENTS_ONLY holds them to the manifest.
    trust: { documents: apps.trusted, only: config.apps.trustedDocumentsOnly, onRefused: () => metrics.limitRejections.inc({ limit: 'trusted_document' }) },
  });

  /** Shutdown has begun: the load balancer is told at once, before the port closes. */
  let draining = false;
  /**
   * Whether this instance should get traffic: while it serves and is not shutting down. Not
   * whether Redis or the backend answers, which every instance shares; nor whether the event
   * loop is saturated, which under the same load every instance is too (admission control lets
   * requests wait for it instead).
   */
  async function readiness(): Promise<Readiness> {
    const states = await dependencies.check();
    return {
      ready: !draining,
      status: draining ? 'draining' : 'ready',
      checks: { backend: states.get('backend')!, cache: states.get('redis') ?? { ok: true, detail: 'memory' } },
    };
  }

  const admission = config.limits.admissionControl ? (options.admission ?? new Admission()) : undefined;
  admission?.register(metrics.registry);
  const untracedHandler = createHttpHandler<ServerContext>({
    apollo,
    admission,
    fastPath: config.limits.compiledOperations ? apps.guardFastPath(operations.tryExecute) : undefined,
    gate: apps.gate,
    async context({ requestId, token, tokenProblem, signal, admit, gate }) {
      const backend = { calls: 0 };
      const context = createContext(deps, { token, tokenProblem, signal, admit, onBackendCall: () => backend.calls++ });
      const state = gate as AppsContext | undefined;
      const app = state?.app;
      // An app reads the shared directory with its partners' tokens (the backend sees them only
      // when the directory has to ask it); the tokens go nowhere else, and the request carries none.
      if (app) context.categories = appCategories(categories, app.partnerTokens);
      return Object.assign(context, { requestId, backend, apps: state ?? { app: null, feed: apps.feed, cursorSecret: apps.cursorSecret } });
    },
    bodyLimitBytes: config.limits.bodyLimitBytes,
    requestTimeoutMs: config.limits.requestTimeoutMs,
    cors: { origins: config.corsOrigins, allowLocalhost: !production },
    readiness,
    logger,
    fallbackToken: options.fallbackToken ?? null,
    onRefused: (reason) => metrics.limitRejections.inc({ limit: reason }),
    sharedAnswer: config.limits.compiledOperations ? sharedAnswers.lookup : undefined,
    persistedQuery: config.limits.compiledOperations ? apq.registered : undefined,
    recordUnexecuted: (requestId, facts, durationMs) => recorder.recordUnexecuted({ requestId, durationMs, ...facts }),
    stream: subscriptions.sse,
  });
  const handler = tracer ? traceGraphqlRequests(untracedHandler, tracer) : untracedHandler;

  // Answers not yet sent when shutdown begins say `Connection: close`: a keep-alive socket then
  // closes after its last answer, instead of advertising reuse and being cut under a request the
  // client sends on it next (a reset the client cannot tell from a lost mutation).
  const unanswered = new Set<ServerResponse>();
  /** The port is closed: an idle keep-alive socket is closed as soon as it is idle. */
  let stopping = false;
  // One listener for every answer, added with `on` (an answer closes once): no closure, nor the
  // two objects `once` wraps a listener in, for each request.
  function answered(this: ServerResponse): void {
    unanswered.delete(this);
    // An answer already under way when shutdown began still said keep-alive: close its socket
    // now. Not while the load balancer may still send (the delay): a request it sends on a
    // socket being closed is lost, and a POST is not sent again.
    if (stopping) server.closeIdleConnections();
  }
  const shapes = new RequestShapes();
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    shapes.hold(req, res);
    if (draining) res.setHeader('connection', 'close');
    else {
      unanswered.add(res);
      res.on('close', answered);
    }
    handler(req, res);
  });
  subscriptions.attach(server);
  await listen(server, { port: config.port, host: config.host, portVariable: 'PORT', hostVariable: 'HOST' });
  let metricsServer: MetricsServer | undefined;
  if (config.metrics) {
    metricsServer = await startMetricsServer(metrics.registry, config.metrics).catch((error: unknown) => {
      server.close();
      throw error;
    });
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;

  let closing: Promise<void> | undefined;
  async function close({ delayMs = 0 }: { delayMs?: number } = {}): Promise<void> {
    closing ??= (async () => {
      // /readyz answers 503 from now on. The load balancer notices within its checks' interval x
      // fall and sends nothing more; until then its requests (and subscriptions) are served as
      // ever, each answer closing its connection.
      draining = true;
      for (const res of unanswered) if (!res.headersSent) res.setHeader('connection', 'close');
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      stopping = true;
      // Stops listening and closes the idle keep-alive sockets; the others close after their answer.
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Subscriptions never finish by themselves: complete them and close their sockets (1001)
      // first, so the grace period is spent on requests that can finish. Their clients reconnect
      // through the load balancer, to another instance by now.
      await subscriptions.close();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, config.shutdownGraceMs)));
      const finished = await Promise.race([stopped.then(() => true), grace.then(() => false)]);
      clearTimeout(timer);
      if (!finished) {
        // Requests still at work are answered 503 SHUTTING_DOWN rather than cut: a client can tell
        // that from a lost connection, and knows to send a query again. Each answer says
        // `Connection: close`, so its socket closes once it is written.
        const interrupted = untracedHandler.interruptInFlight();
        if (interrupted > 0) {
          logger.warn({ interrupted, graceMs: config.shutdownGraceMs }, 'shutdown grace period over: requests still at work answered 503 SHUTTING_DOWN');
          await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, LAST_ANSWERS_MS).unref())]);
        }
      }
      server.closeAllConnections();
      // Only now: what the mutations answered during the grace period did reaches the watchers
      // on the other instances.
      await live.close();
      dependencies.close();
      await apollo.stop();
      admission?.close();
      await apps.close();
      await api.close();
      await cache.close();
      // Last: a scrape during the drain still sees it (in-flight requests, the interrupted ones).
      await metricsServer?.close();
    })();
    return closing;
  }

  return { url: `http://${host}:${port}/graphql`, port, server, metrics, metricsUrl: metricsServer?.url, api, apps, close };
}
