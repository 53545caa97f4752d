import { Pool } from 'undici';

/** One HTTP exchange as the envelope parser needs it: the status and the whole body. */
export interface RawAnswer {
  status: number;
  text: string;
}

export interface TransportOptions {
  baseUrl: string;
  connections: number;
  /** Backstop for undici's own header and body timers; the client's abort signals act first. */
  socketTimeoutMs: number;
}

/**
 * A keep-alive undici Pool bound to the backend's origin. Every body is read to its end (or
 * destroyed by the abort), so sockets go back to the pool and nothing leaks on errors.
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

  async post(path: string, token: string, body: string, signal: AbortSignal): Promise<RawAnswer> {
    const response = await this.pool.request({
      path,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${token}`,
      },
      body,
      signal,
    });
    // text() consumes the stream; on abort undici destroys it, which also frees the socket.
    const text = await response.body.text();
    return { status: response.statusCode, text };
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
