/**
 * `Authorization: Bearer <token>`; `Bearer: <token>` (the reference's samples) is accepted too.
 * Anything else reads as no token, so the request is unauthenticated rather than guessed at.
 */
export function readBearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer:?\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}
