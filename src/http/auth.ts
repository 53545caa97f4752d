/** What a request's `Authorization` header holds. */
export type Authorization = { kind: 'token'; token: string } | { kind: 'missing' } | { kind: 'malformed' };

/**
 * `Authorization: Bearer <token>`; `Bearer: <token>` (the reference's samples) is accepted too.
 * Anything else is malformed, never guessed at: the request is then unauthenticated, and told
 * why, rather than treated as if it had sent no header.
 */
export function readAuthorization(header: string | undefined): Authorization {
  if (!header) return { kind: 'missing' };
  const match = /^Bearer:?\s+(\S+)\s*$/i.exec(header);
  return match ? { kind: 'token', token: match[1]! } : { kind: 'malformed' };
}
