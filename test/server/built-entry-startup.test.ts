import { describe, expect, it } from 'vitest';
import { startBuiltEntry } from '../helpers/built-entry.js';

/**
 * Start-up of the product as the README runs it (the built entry, a process of its own): what it
 * says when a setting is wrong, and what it writes where.
 */

/** Each start loads the whole product: a few seconds apiece on a busy machine, and some tests start several. */
const STARTS = { timeout: 90_000 };

/** The output of a start that must fail before the banner. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  return startBuiltEntry({ env }).then(
    async (entry) => {
      await entry.stop();
      throw new Error(`started although it should not have: ${entry.output()}`);
    },
    (error: Error) => error.message,
  );
}

describe('credentials in URLs', STARTS, () => {
  const PASSWORD = 'pa55-w0rd-in-url';

  it('never appear: not in configuration errors', async () => {
    const cases: Record<string, string>[] = [
      { CACHE_URL: `redis://cache-user:${PASSWORD}@127.0.0.1:6379x` },
      { NODE_ENV: 'production', CAMPAIGN_API_URL: `ftp://api-user:${PASSWORD}@api.example.com` },
    ];
    for (const env of cases) {
      const refused = await refusedStart(env);
      expect(refused).toMatch(/exited \(1\)/);
      expect(refused).toContain('[redacted]@');
      expect(refused).not.toContain(PASSWORD);
    }
  });
});
