import type { Server } from 'node:http';
import { Counter, Gauge } from 'prom-client';
import { appCategories, createApps, type Apps } from '../apps/index.js';
import type { CampaignApiClient } from '../campaign-api/http-client.js';
import type { Config } from '../config.js';
import type { GraphQLContext } from '../schema/context.js';
import { createContext, recordingFreshness } from './request-context.js';
import type { GraphQLError } from 'graphql';
import { createErrorFormatter } from '../graphql/errors.js';
import { describeCampaignApiError } from '../campaigns/errors.js';
import { KeyedQueue } from '../partner/keyed-queue.js';
import { createRequestRecorder, type RequestMeta } from '../graphql/request-log.js';
import { createSchema } from './schema.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { compiledExecutor, createExecutors } from '../pipeline/executors.js';
import { createTokenCheck } from '../campaigns/token-check.js';
import { createTokenGate } from '../partner/token-gate.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { ResponseCache } from '../pipeline/response-cache.js';
import type { Refusal } from '../pipeline/types.js';
import { DOCUMENTED_OPERATIONS } from '../observability/operation-names.js';
import { traceResolvers } from '../tracing/graphql.js';
import { traceGraphqlRequests } from '../tracing/http-server.js';
import { activeTracer } from '../tracing/state.js';
import { createLive } from '../subscriptions/index.js';
import { Admission } from './admission.js';
import { createAnswering } from './answering.js';
import { connectBackend } from './backend.js';
import { createCallers } from './callers.js';
import { clientAddressReader } from '../http/client-address.js';
import { createGraphQLHandler, type LandingPage } from './graphql-handler.js';
import { createExplorer } from '../http/explorer.js';
import { createHttpHandler, type Readiness } from './http.js';
import { serveHttp } from './http-server.js';
import { settleRequestShapes } from './warm-up.js';
import { localUrl } from './listen.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';

export { RESPONSE_CACHE_MAX_BYTES } from './answering.js';

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
  const { cache, api, dependencies, hashes, verdicts, categories } = await connectBackend(config, options.campaignApiUrl, logger, metrics);

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
    hashes,
  });
  if (apps.redisConnected) metrics.watchRedis('feed_coordination', apps.redisConnected);

  const live = await createLive({ config, api, logger, registry: metrics.registry, verdicts, hashes });
  if (live.redisConnected) metrics.watchRedis('live_bus', live.redisConnected);
  const deps = {
    // The client itself: the feed and live status follow the writes it announces, whoever makes them.
    api,
    categories,
    pinUploads: new KeyedQueue(),
    limits: {
      pinChunkSize: config.limits.pinChunkSize,
      loaderConcurrency: config.limits.loaderConcurrency,
      maxPinsPerMutation: config.limits.maxPinsPerMutation,
      maxStatusScan: config.limits.maxStatusScan,
    },
    cursorSecret: config.cursorSecret,
    hashes,
    // A request's calls with a token not judged lately: the first goes, the others wait for what it tells.
    tokenGate: createTokenGate(verdicts),
  };

  // One way out for every error, with what the campaign API's failures mean to a client.
  const formatter = createErrorFormatter(describeCampaignApiError);
  const { formatGraphQLError } = formatter;
  const recorder = createRequestRecorder(metrics, logger, { knownOperations: [...DOCUMENTED_OPERATIONS, ...apps.trusted.operationNames], format: formatGraphQLError });
  // Refusals count under the limit they name (depth, cost, tokens...), each time one is answered.
  const countLimits = (refusal: Refusal) => {
    for (const limit of new Set(refusal.errors.map((error) => error.extensions?.limit))) if (typeof limit === 'string') metrics.limitRejections.inc({ limit });
  };
  // The process's one check of a partner token, for what must know before it serves one.
  const checkToken = createTokenCheck(api, verdicts);
  const { pipeline, responses, apollo, execution } = await createAnswering<ServerContext>(
    { config, schema, apps, cache, verdicts, metrics, logger, formatter, checkToken },
    (contextValue, errors) => recorder.reportErrors(contextValue, errors),
  );
  const reportErrors = (contextValue: unknown, errors: readonly GraphQLError[]) => recorder.reportErrors(contextValue as ServerContext, errors);
  // The one executor of every transport: Apollo for a document's first run, then the compiled path.
  const executors = createExecutors<ServerContext>({
    schema,
    apollo: execution.executor(apollo),
    compiled: config.limits.compiledOperations ? compiledExecutor<ServerContext>({ schema, jit: config.limits.graphqlJit, format: formatGraphQLError, onErrors: reportErrors }) : undefined,
    format: formatGraphQLError,
    onErrors: reportErrors,
  });
  const clientAddress = clientAddressReader(config.trustProxy, config.trustProxyHeader);
  // The one caller resolution of every transport.
  const callerOf = createCallers({
    appOf: apps.appOf,
    fallbackToken: options.fallbackToken ?? null,
    tokenMaxLength: config.limits.partnerTokenMaxLength,
    onRefused: (reason) => metrics.limitRejections.inc({ limit: reason }),
  });
  const subscriptions = live.transports({
    schema,
    contextFor: (token, signal) => createContext(deps, { token, signal: () => signal }),
    callerOf,
    pipeline,
    executors,
    clientAddress,
    onRefusal: countLimits,
    format: formatGraphQLError,
  });

  new Gauge({
    name: 'bff_ready',
    help: 'Whether /readyz says this instance is ready for traffic (1), or draining for shutdown (0).',
    registers: [metrics.registry],
    collect() {
      this.set(serving.draining ? 0 : 1);
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
    const draining = serving.draining;
    return {
      ready: !draining,
      status: draining ? 'draining' : 'ready',
      checks: { backend: states.get('backend')!, cache: states.get('redis') ?? { ok: true, detail: 'memory' } },
    };
  }

  const admission = config.limits.admissionControl ? (options.admission ?? new Admission()) : undefined;
  admission?.register(metrics.registry);
  const cors = { origins: config.corsOrigins, allowLocalhost: !production };
  // The page a browser gets in development (none in production), with the first query and the demo token filled in.
  const demoHeaders: Record<string, string> = options.fallbackToken ? { Authorization: `Bearer ${options.fallbackToken}` } : {};
  const explorer = config.explorer === 'off' ? undefined : createExplorer({ kind: config.explorer, query: FIRST_QUERY, headers: demoHeaders });
  const landingPage: LandingPage | undefined = explorer ? { render: () => explorer.page(), headers: explorer.pageHeaders } : undefined;
  const graphql = createGraphQLHandler<ServerContext>({
    pipeline,
    responses,
    callerOf,
    checkToken,
    clientAddress,
    executors,
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
    landingPage,
    bodyLimits: { partner: config.limits.bodyLimitBytes, public: config.limits.publicBodyLimitBytes },
    requestTimeoutMs: config.limits.requestTimeoutMs,
    cors,
    admission,
    compression: config.compression,
    publicCacheControl: `public, max-age=${config.apps.httpMaxAgeS}, stale-while-revalidate=${config.apps.httpStaleWhileRevalidateS}`,
    logger,
    format: formatGraphQLError,
    record: ({ requestId, contextValue, ...record }) =>
      recorder.record({ meta: (contextValue as ServerContext | undefined) ?? { requestId, backend: { calls: 0 } }, ...record }),
    recordUnexecuted: (record) => recorder.recordUnexecuted(record),
    sendAnswer: recorder.sendAnswer,
    onRefused: (reason) => metrics.limitRejections.inc({ limit: reason }),
    onRefusal: countLimits,
  });
  const untracedHandler = createHttpHandler({ graphql, ...(explorer ? { explorer: explorer.serve } : {}), stream: subscriptions.sse, readiness, cors, logger });
  const handler = tracer ? traceGraphqlRequests(untracedHandler, tracer) : untracedHandler;

  const serving = await serveHttp(
    {
      handler,
      port: config.port,
      host: config.host,
      graceMs: config.shutdownGraceMs,
      logger,
      endStreams: () => subscriptions.close(),
      interruptInFlight: () => untracedHandler.interruptInFlight(),
    },
    (server) => subscriptions.attach(server),
  );
  const { server, port } = serving;
  if (config.httpWarmUp) await settleRequestShapes(server);
  let metricsServer: MetricsServer | undefined;
  if (config.metrics) {
    metricsServer = await startMetricsServer(metrics.registry, config.metrics).catch((error: unknown) => {
      server.close();
      throw error;
    });
  }

  let closing: Promise<void> | undefined;
  async function close({ delayMs = 0 }: { delayMs?: number } = {}): Promise<void> {
    closing ??= (async () => {
      await serving.stop(delayMs);
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

  return { url: localUrl(config.host, port, '/graphql'), port, server, metrics, metricsUrl: metricsServer?.url, api, apps, pipeline, responses, close };
}
