import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Keeps the objects of the last request served (its IncomingMessage, its ServerResponse and,
 * through them, its socket) reachable until the next one replaces them.
 *
 * Why: V8 keeps an object's hidden class (its "map") only while some object still has it, plus a
 * grace of two full collections, and with no grace at all in the collections its memory reducer
 * runs while the process is idle (`RetainMaps` is off when it reduces memory). After a pause
 * between two loads, every map of Node's per-request HTTP objects was gone; the next request made
 * new ones, and the optimised code of Node's HTTP layer, which checks for the old ones, was thrown
 * away ("weak objects" deopts) and made again on mixed feedback, slower for the rest of the
 * process's life. One request's objects keep those maps alive through any idle time.
 *
 * Measured in the bench's first part (the BFF idles while the reference servers run, as in every
 * full run): warm categories at 48-65 µs a request with this, 68-112 without, and 52-63 with the
 * memory reducer switched off instead (bench/README.md, issue 15). The memory reducer still gives
 * back everything else an idle process holds; what stays is one request's objects, a few KB.
 *
 * The request kept can hold a partner token in its headers until the next request replaces it,
 * inside the process only, as its own handler held it: nothing here logs, sends or copies it.
 */
export class RequestShapes {
  #request: IncomingMessage | undefined;
  #response: ServerResponse | undefined;

  hold(request: IncomingMessage, response: ServerResponse): void {
    this.#request = request;
    this.#response = response;
  }
}
