import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import { GraphQLError, type DocumentNode } from 'graphql';
import { Counter, Gauge } from 'prom-client';
import { appCategories, createApps, type Apps } from '../apps/index.js';
import { createCampaignApiClient, type CampaignApiClient } from '../campaign-api/http-client.js';
import { createCacheStore } from '../cache/store.js';
import { createCategoryDirectory } from '../categories/directory.js';
import { createTokenVerdicts } from '../cache/token-verdicts.js';
import type { Config } from '../config.js';
import { createContext, recordingFreshness, type GraphQLContext } from '../schema/context.js';
import { createErrorFormatter } from '../graphql/errors.js';
import { describeCampaignApiError } from '../campaigns/errors.js';
import { KeyedQueue } from '../campaigns/keyed-queue.js';
import { createRequestRecorder, type RequestMeta } from '../graphql/request-log.js';
import { createSchema } from './schema.js';
import { backendLog, redisLog } from './dependency-log.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { apolloExecution, landingPageOf } from '../pipeline/apollo.js';
import { documentBytes } from '../pipeline/documents.js';
import { compiledExecutor } from '../pipeline/executors.js';
import { createPersistedQueries } from '../pipeline/persisted-queries.js';
import { createPipeline, type Pipeline } from '../pipeline/pipeline.js';
import { createResponseCache, type ResponseCache } from '../pipeline/response-cache.js';
import { cost, documentLimits, operationTypes, schemaPrivacy, tokenLimit, variables } from '../pipeline/rules.js';
import { trustedDocumentsPolicy } from '../pipeline/trusted-documents.js';
import type { AppCaller, Caller, Policy, Refusal } from '../pipeline/types.js';
import { DOCUMENTED_OPERATIONS } from '../observability/operation-names.js';
import { traceResolvers } from '../tracing/graphql.js';
import { traceGraphqlRequests } from '../tracing/http-server.js';
import { activeTracer } from '../tracing/state.js';
import { createLive } from '../subscriptions/index.js';
import { Admission } from './admission.js';
import { createCallers } from './callers.js';
import { clientAddressReader } from '../http/client-address.js';
import { Dependencies } from './dependencies.js';
import { createGraphQLHandler } from './graphql-handler.js';
import { createHttpHandler, type Readiness } from './http.js';
import { listen } from './listen.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import { RequestShapes } from './request-shapes.js';

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
  /** The request pipeline (its document cache, for what it holds). */
  pipeline: Pipeline;
  /** Answers remembered after an execution, for what they hold. */
  responses: ResponseCache;
  /**
   * Answers /readyz 503 at once and goes on serving for `delayMs` (the load balancer's time to
   * notice), then stops accepting and ends subscriptions, lets in-flight requests finish within
   * the grace period, answers those still at work after it 503 SHUTTING_DOWN, then frees
   * everything.
   */
  close(options?: { delayMs?: number }): Promise<void>;
}

/**
 * Bytes of answers (with their keys) remembered at most, the least recently used going first:
 * enough for the pages of a few apps and the shared directory; past it an answer is executed.
 */
export const RESPONSE_CACHE_MAX_BYTES = 16 * 1024 * 1024;

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
  const metrics = createMetrics({ commit: config.buildCommit });
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
  if (cache.kind === 'redis') metrics.watchRedis('cache', () => cache.connected());

  const logBackend = backendLog(logger);
  const api: CampaignApiClient = createCampaignApiClient({
    baseUrl: options.campaignApiUrl,
    ...config.client,
    onCall(report) {
      metrics.recordBackendCall(report);
      const breaker = api.breakerState();
      logBackend(report, breaker);
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
    cursorSecret: config.cursorSecret,
  });
  if (apps.redisConnected) metrics.watchRedis('feed_coordination', apps.redisConnected);

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
  if (live.redisConnected) metrics.watchRedis('live_bus', live.redisConnected);
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

  // One way out for every error, with what the campaign API's failures mean to a client.
  const { formatError, formatGraphQLError } = createErrorFormatter(describeCampaignApiError);
  const recorder = createRequestRecorder(metrics, logger, { knownOperations: [...DOCUMENTED_OPERATIONS, ...apps.trusted.operationNames], format: formatGraphQLError });
  // Refusals count under the limit they name (depth, cost, tokens...), each time one is answered.
  const countLimits = (refusal: Refusal) => {
    for (const limit of new Set(refusal.errors.map((error) => error.extensions?.limit))) if (typeof limit === 'string') metrics.limitRejections.inc({ limit });
  };

  // Every rule that decides whether and how a request is answered, once, for every path.
  const policies: Policy[] = [
    tokenLimit(config.limits.maxTokens),
    documentLimits(config.limits),
    schemaPrivacy(production),
    // App keys run only the manifest's documents in production; partner tokens with TRUSTED_DOCUMENTS_ONLY.
    trustedDocumentsPolicy(apps.trusted, (kind) => (kind === 'app' ? production : config.apps.trustedDocumentsOnly), () =>
      metrics.limitRejections.inc({ limit: 'trusted_document' }),
    ),
    operationTypes(schema),
    ...apps.policies,
    variables(schema, { hideSuggestions: production }),
    cost(schema, config.limits),
  ];
  const pipeline = createPipeline({
    schema,
    policies,
    trusted: apps.trusted,
    persisted: createPersistedQueries(cache.keyv('apq'), (result) => metrics.cacheLookups.inc({ cache: 'apq', result })),
    documents: { maxBytes: 32 * 1024 * 1024, maxTextLength: 64 * 1024 },
  });
  // A partner's key for what is remembered for it alone, and whether its token was accepted lately:
  // one keyed hash per request.
  const tokenKeys = new WeakMap<Caller, string>();
  const tokenKey = (caller: Caller & { kind: 'partner' }) => {
    let key = tokenKeys.get(caller);
    if (key === undefined) tokenKeys.set(caller, (key = verdicts.key(caller.token)));
    return key;
  };
  const appKeys = new WeakMap<AppCaller, string[]>();
  const appTokenKeys = (app: AppCaller) => {
    let keys = appKeys.get(app);
    if (!keys) appKeys.set(app, (keys = app.partnerTokens.map((token) => verdicts.key(token))));
    return keys;
  };
  const responses = createResponseCache({
    schema,
    maxBytes: RESPONSE_CACHE_MAX_BYTES,
    callerKey: (caller) => (caller.kind === 'app' ? `app:${caller.app.keyHash}` : caller.kind === 'partner' ? `partner:${tokenKey(caller)}` : undefined),
    // An app is trusted as its partners are: with a token the campaign API accepted lately (it
    // reads with the first such token), so an app whose tokens are all refused is refused.
    trusts: (caller) =>
      caller.kind === 'partner'
        ? verdicts.get(tokenKey(caller)) === 'accepted'
        : caller.kind === 'app' && appTokenKeys(caller.app).some((key) => verdicts.get(key) === 'accepted'),
  });

  const execution = apolloExecution<ServerContext>((contextValue, errors) => recorder.reportErrors(contextValue, errors));
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
    // holds. Sized by what they hold, and none larger than a document ever needs to be reused.
    documentStore: new InMemoryLRUCache<DocumentNode>({
      maxSize: 32 * 1024 * 1024,
      maxEntrySize: 1024 * 1024,
      sizeCalculation: (document) => documentBytes(document, document.loc?.source.body.length ?? 0),
    }),
    // The pipeline prepared every operation Apollo runs: persisted queries and every rule are its own.
    persistedQueries: false,
    // Every path formats its errors with the same function.
    formatError: (formatted, error) => (error instanceof GraphQLError ? formatGraphQLError(error) : formatError(formatted, error)),
    logger: {
      debug: (m) => logger.debug(m),
      info: (m) => logger.info(m),
      warn: (m) => logger.warn(m),
      error: (m) => logger.error(m),
    },
    // Apollo serves no HTTP here: the endpoint's page is served by the handler below.
    plugins: [execution.plugin, ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled()],
  });
  await apollo.start();
  const clientAddress = clientAddressReader(config.trustProxy, config.trustProxyHeader);
  const subscriptions = live.transports({
    schema,
    deps,
    pipeline,
    clientAddress,
    fallbackToken: options.fallbackToken ?? null,
    onRefusal: countLimits,
    format: formatGraphQLError,
  });

  /** Shutdown has begun: the load balancer is told at once, before the port closes. */
  let draining = false;
  new Gauge({
    name: 'bff_ready',
    help: 'Whether /readyz says this instance is ready for traffic (1), or draining for shutdown (0).',
    registers: [metrics.registry],
    collect() {
      this.set(draining ? 0 : 1);
    },
  });
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
  const cors = { origins: config.corsOrigins, allowLocalhost: !production };
  const callers = createCallers({ appOf: apps.appOf, fallbackToken: options.fallbackToken ?? null, onRefused: () => metrics.limitRejections.inc({ limit: 'app_key' }) });
  const graphql = createGraphQLHandler<ServerContext>({
    pipeline,
    responses,
    callerOf: (req) => callers(req.headers),
    clientAddress,
    apollo: execution.executor(apollo),
    compiled: config.limits.compiledOperations
      ? compiledExecutor<ServerContext>({
          schema,
          jit: config.limits.graphqlJit,
          format: formatGraphQLError,
          onErrors: (contextValue, errors) => recorder.reportErrors(contextValue as ServerContext, errors),
        })
      : undefined,
    async context({ requestId, caller, signal, admit, response }) {
      const backend = { calls: 0 };
      const token = caller.kind === 'partner' ? caller.token : null;
      const tokenProblem = caller.kind === 'anonymous' ? caller.problem : 'missing';
      const context = createContext(deps, { token, tokenProblem, signal, admit, response, onBackendCall: () => backend.calls++ });
      const app = caller.kind === 'app' ? caller.app : null;
      // An app reads the shared directory with its partners' tokens (the backend sees them only
      // when the directory has to ask it); the tokens go nowhere else, and the request carries none.
      if (app) context.categories = recordingFreshness(appCategories(categories, app.partnerTokens), categories, response);
      return Object.assign(context, { requestId, backend, apps: { app, feed: apps.feed, cursorSecret: apps.cursorSecret } });
    },
    // Apollo Sandbox for a browser in development, with the first query and the demo token filled in.
    landingPage: production
      ? undefined
      : await landingPageOf(
          ApolloServerPluginLandingPageLocalDefault({
            embed: options.fallbackToken ? { initialState: { sharedHeaders: { Authorization: `Bearer ${options.fallbackToken}` } } } : true,
            document: FIRST_QUERY,
          }),
        ),
    bodyLimitBytes: config.limits.bodyLimitBytes,
    requestTimeoutMs: config.limits.requestTimeoutMs,
    cors,
    admission,
    publicCacheControl: `public, max-age=${config.apps.httpMaxAgeS}, stale-while-revalidate=${config.apps.httpStaleWhileRevalidateS}`,
    logger,
    format: formatGraphQLError,
    record: ({ requestId, contextValue, ...record }) =>
      recorder.record({ meta: (contextValue as ServerContext | undefined) ?? { requestId, backend: { calls: 0 } }, ...record }),
    recordUnexecuted: (record) => recorder.recordUnexecuted(record),
    onRefused: (reason) => metrics.limitRejections.inc({ limit: reason }),
    onRefusal: countLimits,
  });
  const untracedHandler = createHttpHandler({ graphql, stream: subscriptions.sse, readiness, cors, logger });
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

  return { url: `http://${host}:${port}/graphql`, port, server, metrics, metricsUrl: metricsServer?.url, api, apps, pipeline, responses, close };
}
