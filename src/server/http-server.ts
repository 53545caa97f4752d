import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InFlight } from '../bounded/index.js';
import { answerClientErrors } from '../http/client-errors.js';
import type { Logger } from '../observability/logger.js';
import { listen } from './listen.js';

/** How long the 503s of requests interrupted at the end of the grace period get to be written before every socket is closed. */
const LAST_ANSWERS_MS = 1000;

export interface HttpServingOptions {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  port: number;
  host: string;
  graceMs: number;
  logger: Logger;
  /** Ends what never finishes by itself (subscriptions) once the port is closed, before the grace period. */
  endStreams(): Promise<void>;
  /** Answers the requests still at work 503 SHUTTING_DOWN; how many there were. */
  interruptInFlight(): number;
}

export interface HttpServing {
  server: Server;
  port: number;
  /** Shutdown has begun: /readyz tells the load balancer at once, before the port closes. */
  readonly draining: boolean;
  /** Drains, closes the port and lets in-flight requests finish within the grace period; every socket is closed after. */
  stop(delayMs: number): Promise<void>;
}

/**
 * The HTTP listener and the order in which it stops: what a load balancer in front of a fleet
 * needs to take an instance out without a lost request.
 */
export async function serveHttp(options: HttpServingOptions, attach: (server: Server) => void): Promise<HttpServing> {
  let draining = false;
  // Answers not yet sent when shutdown begins say `Connection: close`: a keep-alive socket then
  // closes after its last answer, instead of advertising reuse and being cut under a request the
  // client sends on it next (a reset the client cannot tell from a lost mutation).
  const unanswered = new InFlight<ServerResponse>();
  /** The port is closed: an idle keep-alive socket is closed as soon as it is idle. */
  let stopping = false;
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    if (draining) res.setHeader('connection', 'close');
    else {
      const entry = unanswered.add(res);
      // Added with `on` (an answer closes once): not the two objects `once` wraps a listener in.
      res.on('close', () => {
        entry.leave();
        // An answer already under way when shutdown began still said keep-alive: close its socket
        // now. Not while the load balancer may still send (the delay): a request it sends on a
        // socket being closed is lost, and a POST is not sent again.
        if (stopping) server.closeIdleConnections();
      });
    }
    options.handler(req, res);
  });
  // Whether an answer is under way on a socket whose next request the parser refused. While
  // draining, answers are not tracked: any may be, and the socket is closed without a refusal.
  answerClientErrors(server, (socket) => {
    if (draining) return true;
    for (const res of unanswered) if (res.socket === socket) return true;
    return false;
  });
  attach(server);
  await listen(server, { port: options.port, host: options.host, portVariable: 'PORT', hostVariable: 'HOST' });

  async function stop(delayMs: number): Promise<void> {
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
    await options.endStreams();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.graceMs)));
    const finished = await Promise.race([stopped.then(() => true), grace.then(() => false)]);
    clearTimeout(timer);
    if (!finished) {
      // Requests still at work are answered 503 SHUTTING_DOWN rather than cut: a client can tell
      // that from a lost connection, and knows to send a query again. Each answer says
      // `Connection: close`, so its socket closes once it is written.
      const interrupted = options.interruptInFlight();
      if (interrupted > 0) {
        options.logger.warn({ interrupted, graceMs: options.graceMs }, 'shutdown grace period over: requests still at work answered 503 SHUTTING_DOWN');
        await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, LAST_ANSWERS_MS).unref())]);
      }
    }
    server.closeAllConnections();
  }

  return {
    server,
    port: (server.address() as AddressInfo).port,
    get draining() {
      return draining;
    },
    stop,
  };
}
