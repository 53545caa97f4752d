import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBuiltEntry } from '../helpers/built-entry.js';

/**
 * Query texts are client text: the documents the compiled path remembers (operation-cache.ts)
 * are bounded by what they hold, not only by their number. The process runs as `npm start` does,
 * with a heap that many remembered long documents would not fit in.
 */
const post = async (url: string, query: string) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe('documents the compiled path remembers', () => {
  it('are bounded by bytes, however many distinct long ones arrive', { timeout: 180_000 }, async () => {
    // Few tokens and a long text each (a 60 KB argument), each sent twice (remembered, then compiled):
    // held by count alone, a thousand of them would need more than twice this heap.
    const bff = await startBuiltEntry({ env: { NODE_OPTIONS: '--max-old-space-size=128' } });
    try {
      const query = (i: number) => `{ campaign(id: "${i}${'0'.repeat(60_000)}") { id } }`;
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 1000; i += 4) {
          const answers = await Promise.all([0, 1, 2, 3].map((j) => post(bff.url, query(i + j))));
          for (const answer of answers) expect(answer.status).toBe(200);
        }
      }
      const categories = await post(bff.url, '{ categories { id } }');
      expect(categories.body.data.categories.length).toBeGreaterThan(0);
      expect(bff.output()).not.toMatch(/heap out of memory/i);
    } finally {
      await bff.stop();
    }
  });
});

describe('documents padded with text that no token covers', () => {
  it('are not kept by any cache or metric label, whatever their number', { timeout: 180_000 }, async () => {
    // Within the token limit, each 4 MB long (a comment) and with an operation name of its own: a
    // document store that sized them by their tokens, or a metric that kept each name as a slice
    // of its text, would hold every one of them, far beyond this heap.
    const bff = await startBuiltEntry({ env: { NODE_OPTIONS: '--max-old-space-size=96' } });
    try {
      for (let i = 0; i < 40; i++) {
        const answer = await post(bff.url, `query PaddedOperationNumber${i} { categories { id } }\n#${'p'.repeat(4_000_000)}`);
        expect(answer.status).toBe(200);
        expect(answer.body.data.categories.length).toBeGreaterThan(0);
      }
      expect(bff.output()).not.toMatch(/heap out of memory/i);
    } finally {
      await bff.stop();
    }
  });
});
