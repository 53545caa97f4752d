import { quote } from '../campaign-api/index.js';
import type { Page } from './models.js';
import { badArgument } from './errors.js';

/**
 * Relay-style pagination over offsets. A cursor is an opaque token for "the item at index n";
 * `after: cursor` starts at n + 1.
 */
const PREFIX = 'offset:';

export function encodeCursor(index: number): string {
  return Buffer.from(`${PREFIX}${index}`, 'utf8').toString('base64url');
}

/** The index the page after `after` starts at (0 without a cursor). */
export function startAfter(after: string | null | undefined): number {
  if (after === null || after === undefined) return 0;
  const decoded = Buffer.from(after, 'base64url').toString('utf8');
  const digits = decoded.startsWith(PREFIX) ? decoded.slice(PREFIX.length) : '';
  if (!/^(0|[1-9]\d{0,14})$/.test(digits) || encodeCursor(Number(digits)) !== after) {
    throw badArgument('after', `must be a cursor this API returned (pageInfo.endCursor or an edge's cursor), got ${quote(after)}`);
  }
  return Number(digits) + 1;
}

/** `first` within [0, max]; the message names the argument and its bounds. */
export function pageSize(first: number | null | undefined, fallback: number, max: number, argument = 'first'): number {
  const size = first ?? fallback;
  if (!Number.isInteger(size) || size < 0 || size > max) {
    throw badArgument(argument, `must be from 0 to ${max}, got ${size}; read further pages with "after"`);
  }
  return size;
}

export function pageOf<T>(all: readonly T[], start: number, size: number): Page<T> {
  return { items: all.slice(start, start + size), start, totalCount: all.length };
}

/** The connection fields shared by every `...Connection` type. */
export const connectionResolvers = {
  totalCount: (page: Page<unknown>) => page.totalCount,
  nodes: <T>(page: Page<T>) => page.items,
  edges: <T>(page: Page<T>) => page.items.map((node, i) => ({ cursor: encodeCursor(page.start + i), node })),
  pageInfo: (page: Page<unknown>) => {
    const count = page.items.length;
    return {
      hasNextPage: page.start + count < page.totalCount,
      hasPreviousPage: page.start > 0,
      startCursor: count ? encodeCursor(page.start) : null,
      endCursor: count ? encodeCursor(page.start + count - 1) : null,
    };
  },
};

/** An id as the API writes it (campaign, category): a positive integer. Anything else names nothing. */
export function parsePositiveId(id: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(id)) return null;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : null;
}
