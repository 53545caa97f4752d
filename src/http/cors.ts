import type { IncomingMessage } from 'node:http';

export interface CorsPolicy {
  /** Exact origins allowed, such as https://studio.apollographql.com. */
  origins: string[];
  /** Development: also any http(s)://localhost or 127.0.0.1 origin, whatever the port. */
  allowLocalhost: boolean;
}

const LOCALHOST_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;
const ALLOWED_HEADERS = 'content-type, authorization, x-app-key, if-none-match, apollo-require-preflight, x-apollo-operation-name, apollographql-client-name, apollographql-client-version, x-request-id';

export function isAllowedOrigin(policy: CorsPolicy, origin: string): boolean {
  return policy.origins.includes(origin) || (policy.allowLocalhost && LOCALHOST_ORIGIN.test(origin));
}

/** Most requests (apps, servers) send no allowed Origin: one object for all of them, never changed. */
const NO_CORS: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });

/** CORS response headers for this request: none unless its Origin is allowed. Read only. */
export function corsHeaders(policy: CorsPolicy, req: IncomingMessage): Readonly<Record<string, string>> {
  const origin = req.headers.origin;
  if (!origin || !isAllowedOrigin(policy, origin)) return NO_CORS;
  const headers: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'Origin' };
  if (req.method === 'OPTIONS') {
    headers['access-control-allow-methods'] = 'GET, POST, OPTIONS';
    headers['access-control-allow-headers'] = ALLOWED_HEADERS;
    headers['access-control-max-age'] = '600';
  }
  return headers;
}
