import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ExecutionArgs, GraphQLError, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { CloseCode, handleProtocols, makeServer, type Context as WsContext, type ServerOptions } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../observability/logger.js';
import { credentialsOf } from '../http/auth.js';
import { jsonShapeProblem } from '../http/json.js';
import { paramsOf } from '../pipeline/params.js';
import type { Prepared } from '../pipeline/pipeline.js';
import type { Refusal } from '../pipeline/types.js';
import type { OpenStream, OpenStreams } from './streams.js';
import { clientError } from '../graphql/errors.js';

export interface WebSocketOptions {
  server: Server;
  path: string;
  schema: GraphQLSchema;
  open: OpenStreams;
  formatError(error: GraphQLError): GraphQLFormattedError;
  limits: {
    subscriptionsPerConnection: number;
    initTimeoutMs: number;
    keepAliveMs: number;
    maxMessageBytes: number;
  };
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
  /** The campaign API could not be asked about the token: connect again shortly (clients retry it). */
  TryAgainLater: 1013,
  /** Graceful shutdown (graphql-ws's dispose): reconnect, to another instance. */
  GoingAway: 1001,
} as const;

/** A refusal's HTTP status as a close code: the same refusal a request over HTTP or SSE would get. */
const CLOSE_CODES: Readonly<Record<number, number>> = {
  400: CloseCode.BadRequest,
  401: LiveCloseCode.Unauthorized,
  403: LiveCloseCode.Forbidden,
  413: CloseCode.BadRequest,
  429: LiveCloseCode.TooManyConnections,
  503: LiveCloseCode.TryAgainLater,
};

/** A close frame's reason holds 123 bytes at most. */
const MAX_REASON_BYTES = 123;

function closeReason(message: string): string {
  if (Buffer.byteLength(message) <= MAX_REASON_BYTES) return message;
  // Cut whole characters, leaving room for the ellipsis (three bytes).
  let cut = message.slice(0, MAX_REASON_BYTES - 3);
  while (Buffer.byteLength(cut) > MAX_REASON_BYTES - 3) cut = cut.slice(0, -1);
  return `${cut}…`;
}

type Extra = {
  socket: WebSocket;
  request: IncomingMessage;
  stream?: OpenStream;
  abort?: AbortController;
};

/**
 * GraphQL over WebSocket (graphql-ws) on the HTTP server's `path`: the protocol alone. The
 * socket's caller is resolved from its `connection_init` payload and its upgrade's headers by the
 * same reading as any request, and admitted by the pipeline before `connection_ack`; each
 * subscription is judged by the pipeline and run by the one executor.
 */
export function attachWebSocket(options: WebSocketOptions) {
  const { limits } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  const open = new Set<WsContext<Record<string, unknown> | undefined, Extra>>();
  // What each subscription's context was prepared from, for graphql-ws's call of `subscribe`.
  const preparedFor = new WeakMap<object, { prepared: Prepared; stream: OpenStream; signal: AbortSignal }>();
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

  const formatted = (errors: readonly GraphQLError[]) => errors.map((e) => options.formatError(e));

  const server = serve<Record<string, unknown> | undefined, Extra>(
    {
      schema: options.schema,
      connectionInitWaitTimeout: limits.initTimeoutMs,
      async onConnect(ctx) {
        const stream = await options.open(credentialsOf(ctx.extra.request.headers, ctx.connectionParams), 'websocket', ctx.extra.request);
        if ('errors' in stream) {
          const error = stream.errors[0];
          ctx.extra.socket.close(CLOSE_CODES[stream.status] ?? CloseCode.BadRequest, closeReason(error ? options.formatError(error).message : 'Refused'));
          return false;
        }
        if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) {
          stream.close();
          return false;
        }
        ctx.extra.stream = stream;
        ctx.extra.abort = new AbortController();
        open.add(ctx);
        options.onConnection?.(1);
        return true;
      },
      async onSubscribe(ctx, _id, payload) {
        const count = Object.keys(ctx.subscriptions).length;
        if (count > limits.subscriptionsPerConnection) {
          return [
            clientError(`Too many subscriptions on this connection: at most ${limits.subscriptionsPerConnection}.`, {
              extensions: { code: 'SUBSCRIPTION_LIMIT_EXCEEDED', limit: 'subscriptions_per_connection', max: limits.subscriptionsPerConnection },
            }),
          ];
        }
        const stream = ctx.extra.stream!;
        const params = paramsOf(payload);
        if ('errors' in params) return [...params.errors];
        const prepared = await stream.prepare(params);
        if ('errors' in prepared) return [...(prepared as Refusal).errors];
        const args: ExecutionArgs = { schema: options.schema, document: prepared.document.document, operationName: prepared.operationName, variableValues: prepared.variables };
        const contextValue = {};
        preparedFor.set(contextValue, { prepared, stream, signal: ctx.extra.abort!.signal });
        return { ...args, contextValue };
      },
      // Only subscriptions pass the pipeline on this transport; each runs on the one executor.
      subscribe: (args) => {
        const handed = preparedFor.get(args.contextValue as object)!;
        return handed.stream.subscribe(handed.prepared, handed.signal) as ReturnType<NonNullable<ServerOptions['subscribe']>>;
      },
      // Formatted by the executor already: sent as it is.
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (result.data != null) options.onEvent?.();
        return result;
      },
      onError: (_ctx, _id, _payload, errors) => formatted(errors),
      onClose(ctx) {
        // A closed socket frees everything: graphql-ws returns every subscription's iterator,
        // which takes the watcher off its partner; backend calls of an event are aborted.
        if (!ctx.extra.stream || !open.delete(ctx)) return;
        ctx.extra.abort?.abort(new Error('the connection closed'));
        ctx.extra.stream.close();
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
            const text = data.toString('utf8');
            // Within the bounds of shape every client's JSON has, before graphql-ws parses it.
            const problem = jsonShapeProblem(text, 'The message');
            if (problem) {
              socket.close(CloseCode.BadRequest, closeReason(problem));
              return;
            }
            try {
              await handle(text);
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
