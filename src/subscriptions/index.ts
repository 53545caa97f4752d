import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { GraphQLError, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { CampaignApi } from '../campaign-api/api.js';
import type { WriteEvents } from '../campaign-api/writes.js';
import type { KeyedHashes } from '../secrets/index.js';
import type { TokenVerdicts } from '../cache/token-verdicts.js';
import type { Config } from '../config.js';
import type { Credentials } from '../http/auth.js';
import type { Executors } from '../pipeline/executors.js';
import type { GraphQLContext, LiveSource } from '../schema/context.js';
import { createLoaders, type Loaders } from '../partner/loaders.js';
import { bindPartnerApi } from '../partner/partner-api.js';
import { failureFields } from '../observability/failures.js';
import type { Logger } from '../observability/logger.js';
import { createMemoryBus, type StatusBus } from './bus.js';
import { statusString } from './events.js';
import type { StatusEvent } from '../schema/models.js';
import { LiveStatus } from './hub.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Caller, Refusal } from '../pipeline/types.js';
import { createRedisBus } from './redis-bus.js';
import { createStreams } from './streams.js';
import { createSseHandler } from './sse.js';
import { attachWebSocket } from './websocket.js';

export { LiveStatus } from './hub.js';

/** Largest WebSocket message or SSE request body: a subscription document with its variables. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

export interface LiveOptions {
  config: Config;
  /** The REST client: statuses are read with it, and what its writes left a campaign in is published. */
  api: CampaignApi & WriteEvents;
  logger: Logger;
  registry: Registry;
  /** What the campaign API said of tokens lately, shared with the category directory. */
  verdicts?: TokenVerdicts;
  /** What a partner is named by on the bus: its token's keyed hash, the fleet's with `CURSOR_SECRET`. */
  hashes?: KeyedHashes;
}

/**
 * Live campaign status for one BFF instance: the hub with its bus (memory, or Redis when
 * `CACHE_URL` is set), what the REST client's writes change published at once, and the two
 * transports.
 */
export async function createLive({ config, api, logger, registry, verdicts, hashes }: LiveOptions) {
  const polls = new Counter({
    name: 'bff_live_polls_total',
    help: 'Reads of partners\' campaign statuses for subscriptions, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const pollPages = new Counter({
    name: 'bff_live_poll_pages_total',
    help: 'get-all-campaigns calls made by status reads for subscriptions.',
    registers: [registry],
  });
  const connections = new Gauge({
    name: 'bff_live_connections',
    help: 'Open subscription connections by transport.',
    labelNames: ['transport'] as const,
    registers: [registry],
  });
  const delivered = new Counter({
    name: 'bff_live_events_delivered_total',
    help: 'Subscription events sent to clients, by transport (one per subscriber an event reaches).',
    labelNames: ['transport'] as const,
    registers: [registry],
  });

  let lastBusError = 0;
  const leaseMs = Math.max(3 * config.live.pollIntervalMs, 1000);
  const bus: StatusBus = config.cacheUrl
    ? await createRedisBus({
        url: config.cacheUrl,
        leaseMs,
        onError(error) {
          if (Date.now() - lastBusError < 10_000) return;
          lastBusError = Date.now();
          logger.warn(failureFields(error), 'live status bus (Redis) unavailable; each instance reads for its own watchers until it is back');
        },
      })
    : createMemoryBus();

  const live = new LiveStatus({
    api,
    bus,
    pollIntervalMs: config.live.pollIntervalMs,
    backoffMaxMs: config.live.backoffMaxMs,
    maxScan: config.limits.maxStatusScan,
    logger,
    ...(verdicts ? { verdicts } : {}),
    ...(hashes ? { hashes } : {}),
    onPoll(outcome, pages) {
      polls.inc({ outcome });
      pollPages.inc(pages);
    },
  });
  new Gauge({
    name: 'bff_live_subscriptions',
    help: 'Open subscriptions (watchers) on this instance.',
    registers: [registry],
    collect() {
      this.set(live.stats().watches);
    },
  });
  new Gauge({
    name: 'bff_live_partners',
    help: 'Partners with watchers on this instance.',
    registers: [registry],
    collect() {
      this.set(live.stats().partners);
    },
  });
  // On a fleet, the instance holding a partner's lease is the one reading it: with this, which one
  // that is, and that the fleet's leases add up to the partners watched.
  new Gauge({
    name: 'bff_live_reader_leases',
    help: 'Partners whose campaign statuses this instance reads for the whole fleet (it holds their reader lease).',
    registers: [registry],
    collect() {
      this.set(live.stats().leases);
    },
  });

  // Every write through the client that tells the status it left a campaign in publishes it:
  // delivered to this instance's watchers before the write's caller goes on (so before a
  // mutation answers), and on the bus to the other instances. A refusal because the campaign is
  // another partner's tells no status (see campaign-api/writes.ts), so nothing of it reaches the caller's
  // watchers.
  const stopPublishing = api.onWrite((write) => {
    if (write.campaignId !== undefined && write.status !== undefined) live.published(write.token, write.campaignId, statusString(write.status));
  });

  /** The transports, once the schema and the request dependencies exist. */
  function transports(options: {
    schema: GraphQLSchema;
    /** A subscription's request context, as the composition root makes every request's. */
    contextFor: (token: string, signal: AbortSignal) => GraphQLContext;
    /** The one caller resolution of every transport. */
    callerOf: (credentials: Credentials) => Caller | Refusal;
    /** The request pipeline: a subscription gets every rule a request over HTTP gets. */
    pipeline: Pipeline;
    /** The one executor of every transport. */
    executors: Pick<Executors<unknown>, 'subscribe'>;
    /** The client of a connection, also behind trusted proxies. */
    clientAddress: (req: IncomingMessage) => string;
    onRefusal?: (refusal: Refusal) => void;
    /** How every error leaves the server, as over HTTP. */
    format: (error: GraphQLError) => GraphQLFormattedError;
  }) {
    const { schema } = options;
    // One event object goes to every watcher of its partner on this instance, and a partner is
    // one token (its key is the token's hash): loaders kept per event serve exactly that partner.
    // They carry no subscriber's AbortSignal, as one subscriber leaving must not fail the others.
    const eventLoaders = new WeakMap<StatusEvent, Loaders>();
    const source: LiveSource = {
      watch: (token, ids) => live.watch(token, ids),
      loadersFor(event, token) {
        let loaders = eventLoaders.get(event);
        if (!loaders) eventLoaders.set(event, (loaders = createLoaders(bindPartnerApi(api, token), config.limits.loaderConcurrency)));
        return loaders;
      },
      maxIds: config.live.maxIds,
    };
    const open = createStreams({
      callerOf: options.callerOf,
      clientAddress: options.clientAddress,
      pipeline: options.pipeline,
      executors: options.executors,
      live,
      connectionsPerPartner: config.live.connectionsPerPartner,
      contextFor: (token, signal) => ({ ...options.contextFor(token, signal), live: source }),
      ...(options.onRefusal ? { onRefusal: options.onRefusal } : {}),
    });
    const sse = createSseHandler({
      open,
      formatError: options.format,
      limits: { maxMessageBytes: MAX_MESSAGE_BYTES },
      onConnection: (change) => connections.inc({ transport: 'sse' }, change),
      onEvent: () => delivered.inc({ transport: 'sse' }),
    });
    let ws: ReturnType<typeof attachWebSocket> | undefined;
    return {
      sse: (req: IncomingMessage, res: ServerResponse) => sse.handle(req, res),
      /** Serves GraphQL over WebSocket on the server's `/graphql` upgrades. */
      attach(server: Server) {
        ws = attachWebSocket({
          server,
          path: '/graphql',
          schema,
          open,
          formatError: options.format,
          limits: {
            subscriptionsPerConnection: config.live.subscriptionsPerConnection,
            initTimeoutMs: config.live.initTimeoutMs,
            keepAliveMs: config.live.keepAliveMs,
            maxMessageBytes: MAX_MESSAGE_BYTES,
          },
          onConnection: (change) => connections.inc({ transport: 'websocket' }, change),
          onEvent: () => delivered.inc({ transport: 'websocket' }),
          logger,
        });
      },
      /**
       * Graceful shutdown: every subscription completes (clients get `complete`), then the
       * sockets close with 1001 and the streams end; readers stop and leases are given up. The
       * bus stays open for the mutations still in flight (`close` of createLive ends it).
       */
      async close() {
        await live.endSubscriptions();
        await Promise.all([ws?.close(), sse.close()]);
      },
    };
  }

  return {
    live,
    transports,
    /** Whether the bus's Redis connections are ready; undefined on the memory bus. */
    redisConnected: bus.kind === 'redis' ? () => bus.connected() : undefined,
    /** Closes the bus, once the requests in flight were answered (their mutations published). */
    async close() {
      await live.close();
      stopPublishing();
    },
  };
}
