import { TokenKind, type DocumentNode } from 'graphql';

/**
 * About the memory a parsed document holds, for caches that must be bounded by bytes: its syntax
 * tree and tokens (and compiled code, where a cache keeps it) grow with its tokens, and its text
 * is held whole by its location, however little of it the tokens cover (a comment, a string).
 */
const BYTES_PER_TOKEN = 1024;
const BYTES_PER_CHARACTER = 3;

/** `extraCharacters`: text held beside the document (a cache key made of its text). */
export function documentBytes(document: DocumentNode, extraCharacters = 0): number {
  let tokens = 0;
  for (let token = document.loc?.startToken; token && token.kind !== TokenKind.EOF; token = token.next ?? undefined) tokens++;
  const text = document.loc?.source.body.length ?? 0;
  return BYTES_PER_CHARACTER * (text + extraCharacters) + BYTES_PER_TOKEN * Math.max(tokens, 1);
}
