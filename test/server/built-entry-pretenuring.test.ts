import { afterEach, describe, expect, it } from 'vitest';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/**
 * The product as `npm start` runs it turns V8's allocation-site pretenuring off before its modules
 * load (src/server/pretenuring.ts). With `--trace-pretenuring-statistics` V8 prints each decision
 * it takes: the same process with pretenuring on tenures about ten sites while it starts, and more
 * under load. test/unit/pretenuring.test.ts shows what a tenured site does to short-lived objects.
 */
describe('the built entry’s allocation-site pretenuring', () => {
  let bff: BuiltEntry | undefined;
  afterEach(async () => bff?.stop());

  it('is off: no site is tenured, at start-up or through young collections under load', async () => {
    bff = await startBuiltEntry({ env: { LOG_LEVEL: 'silent' }, nodeArgs: ['--trace-gc', '--trace-pretenuring-statistics'] });
    const body = JSON.stringify({ query: '{ categories { id name } }' });
    const request = async () => {
      const answer = await fetch(bff!.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    };
    for (let round = 0; round < 500; round++) await Promise.all(Array.from({ length: 20 }, request));
    // Exiting flushes what V8 printed (it buffers its own output).
    bff.child.kill('SIGTERM');
    await bff.exited;
    const output = bff.output();
    expect(output.match(/: Scavenge /g)?.length ?? 0).toBeGreaterThan(18);
    expect(output).not.toMatch(/=> tenure/);
  }, 60_000);
});
