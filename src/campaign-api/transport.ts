import { Pool, type Dispatcher } from 'undici';

/** Who hears how one exchange ended: its status and whole body, or why there is none. */
export interface AnswerSink {
  answered(status: number, text: string): void;
  broke(error: Error): void;
}

/** One request under way, to abandon (the socket is then closed, not reused); the sink hears nothing after. */
export interface Exchange {
  abort(reason: Error): void;
}

export interface TransportOptions {
  baseUrl: string;
  connections: number;
  /** Backstop for undici's own header and body timers; the client's own timers act first. */
  socketTimeoutMs: number;
}

/**
 * The answer of one exchange, gathered straight from undici's dispatch callbacks and told to the
 * sink. `pool.request` wraps every answer in a Readable stream with its own listeners and an
 * AbortSignal hook, which cost about as much as the rest of a backend call; a list of 50 cards
 * makes 51 of them.
 */
class Gathering implements Exchange, Dispatcher.DispatchHandler {
  #sink: AnswerSink | undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #abortedWith: Error | undefined;
  #status = 0;
  #chunks: Buffer[] = [];

  constructor(sink: AnswerSink) {
    this.#sink = sink;
  }

  abort(reason: Error): void {
    if (this.#abortedWith) return;
    this.#abortedWith = reason;
    this.#sink = undefined;
    // Still queued in the pool: undici aborts it when it reaches a socket (onRequestStart).
    this.#controller?.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#abortedWith) controller.abort(this.#abortedWith);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.#status = statusCode;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    const chunks = this.#chunks;
    this.#chunks = [];
    const sink = this.#sink;
    this.#sink = undefined;
    sink?.answered(this.#status, chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#chunks = [];
    const sink = this.#sink;
    this.#sink = undefined;
    sink?.broke(error);
  }
}

/**
 * A keep-alive undici Pool bound to the backend's origin. Every answer is read to its end (or the
 * exchange aborted, which closes its socket), so sockets go back to the pool and nothing leaks.
 */
export class Transport {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(options: TransportOptions) {
    const url = new URL(options.baseUrl);
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: options.connections,
      pipelining: 1,
      headersTimeout: options.socketTimeoutMs,
      bodyTimeout: options.socketTimeoutMs,
    });
  }

  /** `{base_url}/v1/{operationPath}`. */
  pathOf(operationPath: string): string {
    return `${this.basePath}/v1/${operationPath}`;
  }

  /** Sends one request; `sink` hears its end, possibly before this returns (a closed pool). */
  post(path: string, token: string, body: string, sink: AnswerSink): Exchange {
    const exchange = new Gathering(sink);
    this.pool.dispatch(
      {
        path,
        method: 'POST',
        // A flat list: undici takes it as it is, where an object is walked key by key.
        headers: ['content-type', 'application/json', 'accept', 'application/json', 'authorization', `Bearer ${token}`],
        body,
      },
      exchange,
    );
    return exchange;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}

/**
 * Errors raised while connecting (before any byte of the request left): the request cannot have
 * reached the backend, so even a write is safe to send again.
 */
const CONNECT_PHASE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function networkErrorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code) return code;
  if (error instanceof Error) return error.name;
  return 'UNKNOWN';
}

export function failedBeforeSend(error: unknown): boolean {
  const e = error as { code?: unknown; syscall?: unknown } | null;
  if (typeof e?.code === 'string' && CONNECT_PHASE_CODES.has(e.code)) return true;
  return e?.syscall === 'connect' || e?.syscall === 'getaddrinfo';
}
