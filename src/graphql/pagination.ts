import { createHmac, timingSafeEqual } from 'node:crypto';
import { quote } from '../text/received-value.js';
import { badArgument } from './errors.js';

/**
 * Relay-style cursors, opaque and bound to the list they came from.
 *
 * A cursor is `v1:<position>:<tag>` in base64url. The position says where the page ends (for a
 * list of campaigns the last id seen, so a list that changes between pages never skips or repeats
 * an item). The tag is an HMAC over the position, the connection, the arguments that decide its
 * items (a filter) and the partner it belongs to, as its token's keyed hash (src/secrets/):
 * a cursor used with another partner, another filter or another connection does not verify and
 * is refused as BAD_USER_INPUT. The token itself, or an unkeyed hash of it, is never in a cursor
 * nor under its HMAC, so a leaked cursor cannot be used to test guesses of a token offline.
 *
 * The encoding is deterministic, so every instance of a fleet with the same `CURSOR_SECRET` reads
 * every other's cursors (without it, the partner's keyed hash is this process's own, and only this
 * process reads them back).
 */
const VERSION = 'v1';
const DEFAULT_KEY = 'campaign-bff cursor v1';
const TAG_BYTES = 16;

/** The list a cursor belongs to: the connection and every argument but `first` and `after`. */
export interface CursorScope {
  connection: string;
  filter: string;
  /** What else the cursor is bound to, for the message that refuses it elsewhere ("the `status` argument"). */
  boundTo: string;
}

/** Signs and opens one partner's cursors (one per request). */
export interface Cursors {
  encode(scope: CursorScope, position: string): string;
  /** The position `after` carries, or BAD_USER_INPUT naming the argument. */
  decode(scope: CursorScope, after: string): string;
}

/**
 * `partner`: what the cursors are bound to (a partner token's keyed hash, or a feed's partner
 * set), or a function that makes it when a cursor is first made or read; null for no partner.
 */
export function createCursors(partner: string | (() => string) | null, secret: string | undefined): Cursors {
  let bound: string | undefined;
  const tag = (scope: CursorScope, position: string): Buffer => {
    bound ??= typeof partner === 'function' ? partner() : (partner ?? '');
    return createHmac('sha256', secret ?? DEFAULT_KEY)
      .update(bound)
      .update(`\n${scope.connection}\n${scope.filter}\n${position}`)
      .digest()
      .subarray(0, TAG_BYTES);
  };
  return {
    encode: (scope, position) =>
      Buffer.from(`${VERSION}:${position}:${tag(scope, position).toString('base64url')}`, 'utf8').toString('base64url'),
    decode(scope, after) {
      const text = Buffer.from(after, 'base64url').toString('utf8');
      const match = /^v1:([^:]{1,80}):([A-Za-z0-9_-]{22})$/.exec(text);
      if (!match || Buffer.from(text, 'utf8').toString('base64url') !== after) {
        throw badArgument('after', `must be a cursor this API returned (pageInfo.endCursor or an edge's cursor), got ${quote(after)}`);
      }
      const [, position, given] = match as unknown as [string, string, string];
      if (!timingSafeEqual(Buffer.from(given, 'base64url'), tag(scope, position))) {
        throw badArgument(
          'after',
          `is a cursor of another list: a cursor works only with the partner, the connection and the filter (${scope.boundTo}) it came from; start again without "after"`,
        );
      }
      return position;
    },
  };
}

/** `first` within [0, max]; the message names the argument and its bounds. */
export function pageSize(first: number | null | undefined, fallback: number, max: number, argument = 'first'): number {
  const size = first ?? fallback;
  if (!Number.isInteger(size) || size < 0 || size > max) {
    throw badArgument(argument, `must be from 0 to ${max}, got ${size}; read further pages with "after"`);
  }
  return size;
}

/** The connection fields shared by every `...Connection` type. */
export const connectionResolvers = {
  totalCount: (page: Page<unknown>) => page.totalCount,
  nodes: <T>(page: Page<T>) => page.items,
  edges: <T>(page: Page<T>) => page.items.map((node, i) => ({ cursor: page.cursor(i), node })),
  pageInfo: (page: Page<unknown>) => {
    const count = page.items.length;
    return {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      startCursor: count ? page.cursor(0) : null,
      endCursor: count ? page.cursor(count - 1) : null,
    };
  },
};

/** An id as the API writes it (campaign, category): a positive integer. Anything else names nothing. */
export function parsePositiveId(id: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(id)) return null;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : null;
}

/** One page of a longer list, with the cursor of each item (made only when asked for). */
export interface Page<T> {
  items: T[];
  totalCount: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** The cursor after the item at this index of `items`. */
  cursor(index: number): string;
}
