import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/**
 * The request log of the product as `npm start` runs it, at its default log level: a line per
 * request on stdout, there even when the process is killed right after answering. (That lines
 * are written synchronously, which an idle process cannot show, is test/unit/logger.test.ts.)
 */
describe('the built entry’s request log', () => {
  let bff: BuiltEntry | undefined;
  afterEach(async () => bff?.stop());

  it('has written every answered request’s line when the process is killed right after the answers', async () => {
    bff = await startBuiltEntry();
    const ids = Array.from({ length: 20 }, (_, i) => `killed-after-${i}`);
    const answers = await Promise.all(
      ids.map((id) =>
        fetch(bff!.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}`, 'x-request-id': id },
          body: JSON.stringify({ query: 'query Logged { categories { id } }' }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 200));
    bff.child.kill('SIGKILL');
    expect((await bff.exited).signal).toBe('SIGKILL');

    const lines = bff.logs().filter((line) => line.msg === 'graphql request');
    expect(lines.map((line) => line.requestId).sort()).toEqual([...ids].sort());
    for (const line of lines) expect(line).toMatchObject({ level: 30, operation: 'Logged', outcome: 'ok' });
  });
});
