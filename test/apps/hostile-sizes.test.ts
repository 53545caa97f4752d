import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBuiltEntry } from '../helpers/built-entry.js';
import { app, partner, post } from './support.js';

/**
 * Client text at hostile sizes, against the built entry as `npm start` runs it (development: app
 * keys run any document), with a heap far smaller than what keeping that text would take.
 *
 * MAX_TOKENS comes first for an app key as for a partner token: a document over it is refused
 * before anything looks at it whole, and no cache keeps its text. The process runs as `npm start`
 * does (development: app keys run any document), with a heap far too small to hold one of these
 * documents parsed whole, or the texts of all of them: only a process that parses within the
 * token limit and remembers no text answers every one.
 */
describe('an app-key document over MAX_TOKENS', () => {
  it('is refused as with a partner token, never parsed whole, and leaves nothing behind', { timeout: 120_000 }, async () => {
    const bff = await startBuiltEntry({ env: { NODE_OPTIONS: '--max-old-space-size=96' } });
    try {
      // About 2.4 million tokens in 4.8 MB, each document another text.
      const documents = Array.from({ length: 20 }, (_, i) => `{ b${String(i).padStart(2, '0')}: ${'a '.repeat(2_400_000)}}`);
      const reference = await post(bff.url, { query: documents[0] }, partner(DEMO_TOKENS.store));
      expect(reference.status).toBe(400);
      expect(reference.body.errors[0]).toMatchObject({ message: 'Syntax Error: Document contains more that 5000 tokens. Parsing aborted.', extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
      for (const query of documents) {
        const answer = await post(bff.url, { query }, app());
        expect({ status: answer.status, errors: answer.body.errors }).toEqual({ status: reference.status, errors: reference.body.errors });
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
    // Seven thousand feed reads, each with another 15 KB token the campaign API refuses: what the
    // feed remembers per partner must not keep each token's text.
    const bff = await startBuiltEntry({ env: { NODE_OPTIONS: '--max-old-space-size=96' } });
    try {
      const query = { query: '{ offerFeed(first: 1) { totalCount } }' };
      for (let i = 0; i < 7000; i += 8) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, j) => post(bff.url, query, partner(`${String(i + j).padStart(6, '0')}${'t'.repeat(15_000)}`))),
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
