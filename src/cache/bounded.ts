/**
 * A wait on the shared cache, bounded. Commands fail at once while Redis is disconnected (no
 * offline queue), but one that hangs (Redis stopped, a network that drops packets) would wait as
 * long as it does: a cache must never hold a request for longer than this bound.
 */
export class CacheTimeoutError extends Error {
  constructor(what: string, readonly timeoutMs: number) {
    super(`${what} did not answer within ${timeoutMs} ms`);
    this.name = 'CacheTimeoutError';
  }
}

/** The promise's outcome, or a CacheTimeoutError once `timeoutMs` have passed. */
export function withinMs<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CacheTimeoutError(what, timeoutMs)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
