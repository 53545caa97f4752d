import type { IncomingHttpHeaders } from 'node:http';

/**
 * What a caller presents, whatever carried it: the `Authorization` and `X-App-Key` headers of an
 * HTTP request, or the same names in a WebSocket's `connection_init` payload. One reading of them
 * makes the caller of every transport.
 */
export interface Credentials {
  /** `Bearer <token>`, as the header holds it; a value that is not a string is malformed. */
  readonly authorization: unknown;
  readonly appKey: unknown;
}

/** What a request's `Authorization` header holds. */
export type Authorization = { kind: 'token'; token: string } | { kind: 'missing' } | { kind: 'malformed' } | { kind: 'oversized'; /** Of the whole header. */ length: number };

/**
 * `Authorization: Bearer <token>`; `Bearer: <token>` (the reference's samples) is accepted too.
 * Anything else is malformed, never guessed at: the request is then unauthenticated, and told
 * why, rather than treated as if it had sent no header. A token longer than `maxLength` is no
 * partner's: it is refused at the door, before it reaches a cache key or the campaign API (which
 * refuses an oversized header as a bad request of its own).
 */
export function readAuthorization(header: string | undefined, maxLength: number): Authorization {
  if (!header) return { kind: 'missing' };
  // The prefix, a space and the token: a longer header cannot hold a token within the bound.
  if (header.length > maxLength + 16) return { kind: 'oversized', length: header.length };
  const match = /^Bearer:?\s+(\S+)\s*$/i.exec(header);
  if (!match) return { kind: 'malformed' };
  const token = match[1]!;
  return token.length > maxLength ? { kind: 'oversized', length: header.length } : { kind: 'token', token };
}

/**
 * The credentials a caller presents, from an HTTP request's headers or, for a WebSocket, from its
 * `connection_init` payload and its upgrade request's headers alike: a name the payload holds
 * (in any case, as header names are) counts as that header. Read the same way for every transport,
 * so no credential is taken on one path and ignored on another.
 */
export function credentialsOf(headers: IncomingHttpHeaders, payload?: Readonly<Record<string, unknown>> | null): Credentials {
  let authorization: unknown = first(headers.authorization);
  let appKey: unknown = first(headers['x-app-key']);
  if (payload) {
    for (const name of Object.keys(payload)) {
      const lower = name.toLowerCase();
      if (lower === 'authorization') authorization = payload[name];
      else if (lower === 'x-app-key') appKey = payload[name];
    }
  }
  return { authorization, appKey };
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
