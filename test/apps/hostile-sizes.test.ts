import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBuiltEntry } from '../helpers/built-entry.js';
import { app, partner, post } from './support.js';

/**
 * Client text at hostile sizes, against the built entry as `npm start` runs it (development: app
 * keys run any document), with a heap far smaller than what keeping that text would take.
 *
 * An app key's body is bounded by PUBLIC_BODY_LIMIT_BYTES before it is read: a document of
 * megabytes is refused unread. Within that bound, MAX_TOKENS comes first for an app key as for a
 * partner token: a document over it is refused before anything looks at it whole, and no cache
 * keeps its text. The process runs with a heap far too small to hold these documents parsed
 * whole, or the texts of all of them: only a process that reads no body past its caller's bound,
 * parses within the token limit and remembers no text answers every one.
 */
describe('an app-key document over MAX_TOKENS', () => {
  it('is refused as with a partner token, never parsed whole, and leaves nothing behind', { timeout: 120_000 }, async () => {
    const bff = await startBuiltEntry({ env: { NODE_OPTIONS: '--max-old-space-size=96' } });
    try {
      // About 30,000 tokens in 60 KB, within an app's body limit; each document another text.
      const documents = Array.from({ length: 200 }, (_, i) => `{ b${String(i).padStart(3, '0')}: ${'a '.repeat(30_000)}}`);
      const reference = await post(bff.url, { query: documents[0] }, partner(DEMO_TOKENS.store));
      expect(reference.status).toBe(400);
      expect(reference.body.errors[0]).toMatchObject({ message: 'Syntax Error: Document contains more that 5000 tokens. Parsing aborted.', extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
      for (const query of documents) {
        const answer = await post(bff.url, { query }, app());
        expect({ status: answer.status, errors: answer.body.errors }).toEqual({ status: reference.status, errors: reference.body.errors });
      }
      // Megabytes from an app key are refused unread, naming the bound.
      for (let i = 0; i < 20; i++) {
        const answer = await post(bff.url, { query: `{ c${i}: ${'a '.repeat(2_400_000)}}` }, app());
        expect(answer.status).toBe(413);
        expect(answer.body.errors[0]).toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' } });
        expect(answer.body.errors[0].message).toMatch(/over the limit of 65536 bytes/);
      }
      // Still serving, with its memory intact.
      const feed = await post(bff.url, { query: '{ offerFeed(first: 1) { totalCount } }' }, app());
      expect(feed.status).toBe(200);
      expect(feed.body.data.offerFeed.totalCount).toBeGreaterThan(0);
      expect(bff.output()).not.toMatch(/heap out of memory/i);
    } finally {
      await bff.stop();
    }
  });
});

describe('partner tokens of hostile length', () => {
  it('leave no more behind than their number allows, whatever their length', { timeout: 180_000 }, async () => {
    // Seven thousand feed reads, each with another token as long as the door takes
    // (PARTNER_TOKEN_MAX_LENGTH) that the campaign API refuses: what the feed remembers per
    // partner must not keep each token's text.
    const bff = await startBuiltEntry({ env: { NODE_OPTIONS: '--max-old-space-size=96' } });
    try {
      const query = { query: '{ offerFeed(first: 1) { totalCount } }' };
      for (let i = 0; i < 7000; i += 8) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, j) => post(bff.url, query, partner(`${String(i + j).padStart(6, '0')}${'t'.repeat(2042)}`))),
        );
        for (const answer of answers) expect(answer.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      }
      const feed = await post(bff.url, { query: '{ offerFeed(first: 1) { totalCount } }' }, app());
      expect(feed.body.data.offerFeed.totalCount).toBeGreaterThan(0);
      expect(bff.output()).not.toMatch(/heap out of memory/i);
    } finally {
      await bff.stop();
    }
  });
});
