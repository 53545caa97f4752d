import { afterEach, describe, expect, it } from 'vitest';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/** HEAP_GROWTH_PERCENT on the product as `npm start` runs it: applied at start-up, or refused before anything starts. */
describe('the built entry’s HEAP_GROWTH_PERCENT', () => {
  let bff: BuiltEntry | undefined;
  afterEach(async () => bff?.stop());

  it('starts and answers with a value in range', async () => {
    bff = await startBuiltEntry({ env: { HEAP_GROWTH_PERCENT: '50', LOG_LEVEL: 'silent' } });
    const answer = await fetch(bff.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ categories { id } }' }) });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as any).data.categories.length).toBeGreaterThan(0);
  });

  it('refuses a value out of range before it starts, naming the variable, the range and what it got', async () => {
    const refused = await startBuiltEntry({ env: { HEAP_GROWTH_PERCENT: '400' } }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/exited \(1\) before printing its banner/);
    expect(refused).toMatch(/HEAP_GROWTH_PERCENT="400": must be a whole number from 0 to 300/);
  });
});
