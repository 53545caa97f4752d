import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reachableHost } from './listen.js';

/**
 * The listener serves its own /healthz a few times, one request after another, before its first
 * client is likely to have connected. V8 settles the layout of the objects a constructor makes
 * once it has made a few of them, from what those first objects were given; Node's request and
 * response objects are settled by the first requests a server serves. When those arrive as a
 * burst (the many connections of a load balancer or of a client pool opening at once), the
 * settlement can go wrong: every request and response object made after it is then built in V8's
 * slow dictionary mode, every property read on it a hash lookup, for the life of the process.
 * Served one at a time, the first requests settle the fast layout. A liveness answer writes no
 * request line and touches no backend; a failure only ends the warm-up early.
 */

/** Enough constructions for V8 to have settled both layouts. */
const WARM_UP_REQUESTS = 10;
const REQUEST_TIMEOUT_MS = 1000;

export async function settleRequestShapes(server: Server): Promise<void> {
  const address = server.address() as AddressInfo | null;
  if (!address || typeof address !== 'object') return;
  const host = reachableHost(address.address);
  for (let served = 0; served < WARM_UP_REQUESTS; served++) if (!(await healthz(host, address.port))) return;
}

function healthz(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host, port, path: '/healthz', method: 'GET', agent: false, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
