import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/**
 * Persisted queries against the product as `npm start` runs it: the esbuild output in dist/,
 * started with plain node, on the default (in-memory) cache.
 */
describe.each(['development', 'production'] as const)('the built entry in %s', (mode) => {
  let emulator: RunningEmulator | undefined;
  let bff: BuiltEntry;

  beforeAll(async () => {
    // Production refuses the embedded emulator: it gets one started here as its "real" backend.
    if (mode === 'production') emulator = await startEmulator({ quiet: true });
    // Production's banner is a log line at info, which the helper reads.
    bff = await startBuiltEntry({ env: { NODE_ENV: mode, LOG_LEVEL: mode === 'production' ? 'info' : 'silent', ...(emulator ? { CAMPAIGN_API_URL: emulator.url } : {}) } });
  });
  afterAll(async () => {
    await bff?.stop();
    await emulator?.close();
  });

  const post = async (body: unknown) => {
    const response = await fetch(bff.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('answers a registered persisted query by its hash alone, every time', async () => {
    const query = '{categories{name}}';
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };

    expect((await post({ extensions })).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await post({ query, extensions });
    expect(registered.body.errors).toBeUndefined();
    expect(registered.body.data.categories.length).toBeGreaterThanOrEqual(10);
    for (let i = 0; i < 3; i++) {
      const byHash = await post({ extensions });
      expect(byHash.status).toBe(200);
      expect(byHash.body).toEqual(registered.body);
    }
  });
});
