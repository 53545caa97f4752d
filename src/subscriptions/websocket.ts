import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { CloseCode, handleProtocols, makeServer, type Context as WsContext, type ServerOptions } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../observability/logger.js';
import { readAuthorization } from '../http/auth.js';
import type { OperationPreparer } from './operation.js';
import type { LiveStatus } from './hub.js';
import type { GraphQLContext } from '../schema/context.js';

export interface WebSocketOptions {
  server: Server;
  path: string;
  schema: GraphQLSchema;
  live: LiveStatus;
  prepare: OperationPreparer;
  /** The context of one subscription: the request context with `live`, for this token. */
  contextFor(token: string, signal: AbortSignal): GraphQLContext;
  formatError(error: GraphQLError): GraphQLFormattedError;
  limits: {
    subscriptionsPerConnection: number;
    connectionsPerPartner: number;
    initTimeoutMs: number;
    keepAliveMs: number;
    maxMessageBytes: number;
  };
  /** What a connection without any token acts as (development on the emulator only). */
  fallbackToken: string | null;
  onConnection?: (change: 1 | -1) => void;
  /** An event (a result with data) is being sent to a subscriber. */
  onEvent?: () => void;
  logger: Logger;
}

/** Close codes of this server beyond graphql-ws's own (4400 bad request, 4408 no init in time). */
export const LiveCloseCode = {
  /** No token, or one the campaign API refuses. */
  Unauthorized: CloseCode.Unauthorized,
  /** An app key (`X-App-Key`): apps reach only offerFeed and categories, never live status. */
  Forbidden: CloseCode.Forbidden,
  /** The partner already has `SUBSCRIPTION_CONNECTIONS_PER_PARTNER` connections. */
  TooManyConnections: 4429,
  /** Graceful shutdown (graphql-ws's dispose): reconnect, to another instance. */
  GoingAway: 1001,
} as const;

type Extra = {
  socket: WebSocket;
  request: IncomingMessage;
  token?: string;
  abort?: AbortController;
};

/**
 * The token from `connection_init` `{ authorization: "Bearer …" }`, else from the upgrade's
 * header. A malformed value is no token (the socket is then refused), never the demo fallback.
 */
function tokenOf(ctx: WsContext<Record<string, unknown> | undefined, Extra>, fallback: string | null): string | null {
  const params = ctx.connectionParams ?? {};
  const fromParams = params.authorization ?? params.Authorization;
  const header = typeof fromParams === 'string' ? fromParams : ctx.extra.request.headers.authorization;
  const authorization = readAuthorization(header);
  if (authorization.kind === 'missing') return fallback;
  return authorization.kind === 'token' ? authorization.token : null;
}

/**
 * GraphQL over WebSocket (graphql-ws) on the HTTP server's `path`. The socket itself says who it
 * is at `connection_init`; each subscription is then checked, limited and run with the partner's
 * own context.
 */
export function attachWebSocket(options: WebSocketOptions) {
  const { live, limits } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  const open = new Set<WsContext<Record<string, unknown> | undefined, Extra>>();
  let closing = false;

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== options.path || closing) {
      socket.end(closing ? 'HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\r\n' : 'HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  options.server.on('upgrade', onUpgrade);

  const format = (result: ExecutionResult) =>
    result.errors ? { ...result, errors: result.errors.map((e) => options.formatError(e)) } : result;

  const server = serve<Record<string, unknown> | undefined, Extra>(
    {
      schema: options.schema,
      connectionInitWaitTimeout: limits.initTimeoutMs,
      async onConnect(ctx) {
        const refuse = (code: number, reason: string) => {
          ctx.extra.socket.close(code, reason);
          return false;
        };
        // Checked before any token: an app must not act as the demo partner through the fallback.
        if (ctx.extra.request.headers['x-app-key'] !== undefined) {
          return refuse(LiveCloseCode.Forbidden, 'Forbidden: an app key reaches only offerFeed and categories, not subscriptions');
        }
        const token = tokenOf(ctx, options.fallbackToken);
        if (!token) return refuse(LiveCloseCode.Unauthorized, 'Unauthorized: send connection_init with { "authorization": "Bearer <token>" }');
        if ((await live.verify(token)) === 'invalid') return refuse(LiveCloseCode.Unauthorized, 'Unauthorized: the campaign API did not accept the partner token');
        if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) return false;
        if (!live.admit(token, limits.connectionsPerPartner)) {
          return refuse(LiveCloseCode.TooManyConnections, `Too many connections: this partner already has ${limits.connectionsPerPartner}`);
        }
        ctx.extra.token = token;
        ctx.extra.abort = new AbortController();
        open.add(ctx);
        options.onConnection?.(1);
        return true;
      },
      onSubscribe(ctx, _id, payload) {
        const count = Object.keys(ctx.subscriptions).length;
        if (count > limits.subscriptionsPerConnection) {
          return [
            new GraphQLError(`Too many subscriptions on this connection: at most ${limits.subscriptionsPerConnection}.`, {
              extensions: { code: 'SUBSCRIPTION_LIMIT_EXCEEDED', limit: 'subscriptions_per_connection', max: limits.subscriptionsPerConnection },
            }),
          ];
        }
        return options.prepare(payload, ctx.extra.token!, 'websocket', ctx.extra.request).then((prepared) =>
          'document' in prepared ? { schema: options.schema, ...prepared, contextValue: options.contextFor(ctx.extra.token!, ctx.extra.abort!.signal) } : [...prepared],
        );
      },
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (result.data != null) options.onEvent?.();
        return format(result as ExecutionResult);
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => options.formatError(e)),
      onClose(ctx) {
        // A closed socket frees everything: graphql-ws returns every subscription's iterator,
        // which takes the watcher off its partner; backend calls of an event are aborted.
        if (!ctx.extra.token || !open.delete(ctx)) return;
        ctx.extra.abort?.abort(new Error('the connection closed'));
        live.leave(ctx.extra.token);
        options.onConnection?.(-1);
      },
    },
    wss,
    limits.keepAliveMs,
    options.logger,
  );

  return {
    /**
     * Graceful shutdown, after the subscriptions were completed (`live.close()`): waits briefly
     * for their `complete` messages to go out, then closes every socket with 1001 (going away).
     */
    async close(): Promise<void> {
      closing = true;
      const deadline = Date.now() + 1000;
      while (Date.now() < deadline && [...open].some((ctx) => Object.keys(ctx.subscriptions).length > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      options.server.off('upgrade', onUpgrade);
      const disposed = server.dispose();
      // A client that never answers the close handshake would hold shutdown for ws's 30 s.
      await Promise.race([disposed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      for (const socket of wss.clients) socket.terminate();
      await disposed;
    },
  };
}

/**
 * graphql-ws's protocol server (`makeServer`, its public API for transports of one's own) on a
 * `ws` server, as graphql-ws's own `use/ws` binds them, with two differences: what a client
 * gets wrong (a frame that is too large or not UTF-8, which `ws` reports as a socket error and
 * answers with its close code) is logged as the client's mistake in one line, not written to
 * stderr with a stack as a fault of this server; and a failure while handling a message, which
 * is a bug here, goes to the log with its stack instead of the console.
 */
function serve<P extends Record<string, unknown> | undefined, E extends { socket: WebSocket; request: IncomingMessage }>(
  options: ServerOptions<P, E>,
  wss: WebSocketServer,
  keepAliveMs: number,
  logger: Logger,
): { dispose(): Promise<void> } {
  const protocol = makeServer(options);
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (error) => logger.error({ err: error }, 'WebSocket server error'));
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    // ws has already answered the frame with its close code (1009, 1007, 1002): nothing is left to do.
    socket.once('error', (error: Error & { code?: string }) => logger.debug({ code: error.code, reason: error.message }, 'WebSocket client sent a frame it may not'));
    let pongWait: NodeJS.Timeout | undefined;
    const ping =
      keepAliveMs > 0
        ? setInterval(() => {
            if (socket.readyState !== socket.OPEN) return;
            // A client that does not answer a ping within the interval is gone.
            pongWait = setTimeout(() => socket.terminate(), keepAliveMs);
            socket.once('pong', () => clearTimeout(pongWait));
            socket.ping();
          }, keepAliveMs)
        : undefined;
    const closed = protocol.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', async (data: Buffer) => {
            try {
              await handle(data.toString('utf8'));
            } catch (error) {
              logger.error({ err: error }, 'WebSocket message handling failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request } as E,
    );
    socket.once('close', (code: number, reason: Buffer) => {
      clearTimeout(pongWait);
      clearInterval(ping);
      void closed(code, reason.toString());
    });
  });
  return {
    async dispose() {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
