import { readAuthorization, type Credentials } from '../http/auth.js';
import { refusal } from '../pipeline/rules.js';
import type { AppCaller, Caller, Refusal } from '../pipeline/types.js';

/**
 * Who is calling, for every transport: a partner by its token (`Authorization: Bearer <token>`),
 * an app by its key (`X-App-Key`), or nobody. HTTP requests, SSE streams and WebSocket
 * connections (whose `connection_init` payload may carry the same names) all come here with what
 * `credentialsOf` read, and leave with the same caller or the same refusal.
 *
 * Refused here, before a body is read or anything is called: an unknown app key, both credentials
 * at once, and a token longer than any partner's. A malformed Authorization header is no token
 * (never the development fallback: the client meant to send one), and the operation then says
 * why it has none. The fallback acts only for a caller that presents nothing at all.
 */
export interface CallerOptions {
  /** The app a key belongs to; undefined for a key that is unknown or revoked. */
  appOf(key: string): AppCaller | undefined;
  /** What a caller presenting nothing acts as (development on the embedded emulator only). */
  fallbackToken: string | null;
  /** The longest partner token taken (`PARTNER_TOKEN_MAX_LENGTH`). */
  tokenMaxLength: number;
  onRefused?(reason: 'app_key' | 'token_length'): void;
}

export type CallerOf = (credentials: Credentials) => Caller | Refusal;

const present = (value: unknown) => value !== undefined && value !== null;

export function createCallers(options: CallerOptions): CallerOf {
  return ({ authorization, appKey }) => {
    if (present(appKey)) {
      if (present(authorization)) return refusal(400, 'Send either X-App-Key (an app) or Authorization (a partner), not both.', 'BAD_REQUEST');
      const app = typeof appKey === 'string' ? options.appOf(appKey.trim()) : undefined;
      if (!app) {
        options.onRefused?.('app_key');
        return refusal(401, 'The app key in X-App-Key is unknown or has been revoked. Use the key issued for your app.', 'UNAUTHENTICATED', {
          headers: { 'www-authenticate': 'X-App-Key' },
        });
      }
      return { kind: 'app', app };
    }
    const read = typeof authorization === 'string' || !present(authorization) ? readAuthorization(authorization as string | undefined, options.tokenMaxLength) : ({ kind: 'malformed' } as const);
    switch (read.kind) {
      case 'token':
        return { kind: 'partner', token: read.token };
      case 'oversized':
        options.onRefused?.('token_length');
        return refusal(
          401,
          `The Authorization header holds ${read.length} characters, more than any partner token (at most ${options.tokenMaxLength}). Send the token issued for your partner account as "Bearer <token>".`,
          'UNAUTHENTICATED',
          { headers: { 'www-authenticate': 'Bearer' } },
        );
      case 'missing':
        return options.fallbackToken ? { kind: 'partner', token: options.fallbackToken } : { kind: 'anonymous', problem: 'missing' };
      default:
        return { kind: 'anonymous', problem: 'malformed' };
    }
  };
}
