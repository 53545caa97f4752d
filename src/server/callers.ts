import type { IncomingHttpHeaders } from 'node:http';
import { GraphQLError } from 'graphql';
import type { AppCaller, Caller, Refusal } from '../pipeline/types.js';
import { readAuthorization } from '../http/auth.js';

/**
 * Who sent a request over HTTP: a partner by its token (`Authorization: Bearer <token>`), an app by
 * its key (`X-App-Key`), or nobody. An unknown app key, or both headers at once, is refused here;
 * a malformed Authorization header is no token (never the development fallback: the client meant
 * to send one), and the operation then says why it has none.
 */
export interface CallerOptions {
  /** The app a key belongs to; undefined for a key that is unknown or revoked. */
  appOf(key: string): AppCaller | undefined;
  /** What a request without Authorization acts as (development on the embedded emulator only). */
  fallbackToken: string | null;
  onRefused?(reason: 'app_key'): void;
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const refusal = (status: number, message: string, code: string, headers?: Record<string, string>): Refusal => ({
  status,
  errors: [new GraphQLError(message, { extensions: { code } })],
  ...(headers ? { headers } : {}),
});

export function createCallers(options: CallerOptions): (headers: IncomingHttpHeaders) => Caller | Refusal {
  return (headers) => {
    const key = first(headers['x-app-key']);
    if (key !== undefined) {
      if (headers.authorization) return refusal(400, 'Send either X-App-Key (an app) or Authorization (a partner), not both.', 'BAD_REQUEST');
      const app = options.appOf(key.trim());
      if (!app) {
        options.onRefused?.('app_key');
        return refusal(401, 'The app key in X-App-Key is unknown or has been revoked. Use the key issued for your app.', 'UNAUTHENTICATED', {
          'www-authenticate': 'X-App-Key',
        });
      }
      return { kind: 'app', app };
    }
    const authorization = readAuthorization(headers.authorization);
    if (authorization.kind === 'token') return { kind: 'partner', token: authorization.token };
    if (authorization.kind === 'missing' && options.fallbackToken) return { kind: 'partner', token: options.fallbackToken };
    return { kind: 'anonymous', problem: authorization.kind === 'malformed' ? 'malformed' : 'missing' };
  };
}
