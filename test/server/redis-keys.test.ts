import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { app, DEMO_APP, FEED, partner, post } from '../apps/support.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { redisAvailable, startRedis, type RunningRedis } from '../helpers/redis.js';
import { CAMPAIGN_CHANGED, liveClient, until, type LiveClient } from '../subscriptions/support.js';

/**
 * What the product leaves in Redis after real traffic, on the built entry in production with a
 * real redis-server: every feature that writes there (persisted queries, floods of them included;
 * the category directory; token verdicts, accepted and refused; the offer feed, its build lock and
 * the app rate limits; live status's lease and record) has run, and then every key has an expiry
 * and none holds megabytes.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const MB = 1024 * 1024;
const extensions = (text: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(text) } });

describe.skipIf(!redisAvailable)('keys in Redis after real traffic (production)', () => {
  let redis: RunningRedis;
  let emulator: RunningEmulator;
  let bff: BuiltEntry;
  let dir: string;
  const clients: LiveClient[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    emulator = await startEmulator({ quiet: true });
    dir = mkdtempSync(join(tmpdir(), 'redis-keys-'));
    writeFileSync(join(dir, 'app-keys.json'), JSON.stringify(DEMO_APP));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ [sha256(FEED)]: FEED }));
    bff = await startBuiltEntry({
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        CAMPAIGN_API_URL: emulator.url,
        CACHE_URL: redis.url,
        CURSOR_SECRET: 'redis-keys-test-cursor-secret-of-32-characters',
        APP_KEYS_FILE: join(dir, 'app-keys.json'),
        TRUSTED_DOCUMENTS: join(dir, 'manifest.json'),
        SUBSCRIPTION_POLL_INTERVAL_MS: '200',
      },
      startTimeoutMs: 30_000,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await bff?.stop();
    await emulator?.close();
    await redis?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every key with its time to live (ms) and the bytes Redis says it takes. */
  async function keys(): Promise<{ key: string; ttl: number; bytes: number }[]> {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const names = await client.keys('*');
      return await Promise.all(names.map(async (key) => ({ key, ttl: await client.pTTL(key), bytes: Number(await client.memoryUsage(key)) })));
    } finally {
      await client.close();
    }
  }

  it('every key written has an expiry, and none holds megabytes', { timeout: 120_000 }, async () => {
    const store = partner(DEMO_TOKENS.store);
    // Persisted queries: one of a usual length, then floods of texts padded to 4 MB by a comment.
    const usual = '{ categories { id name } }';
    expect((await post(bff.url, { query: usual, extensions: extensions(usual) }, store)).body.errors).toBeUndefined();
    for (let i = 0; i < 4; i++) {
      const padded = `{categories{id}}\n#${i} ${'x'.repeat(4 * MB)}`;
      for (const headers of [store, {}]) await post(bff.url, { query: padded, extensions: extensions(padded) }, headers);
    }
    // Token verdicts, accepted and refused.
    expect((await post(bff.url, { query: '{ categories { id } }' }, partner('a-made-up-token-of-usual-length'))).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // The offer feed, its lock and the rate limits of an app.
    const feed = await post(bff.url, { extensions: extensions(FEED), variables: { first: 3 } }, app());
    expect(feed.body.data.offerFeed.nodes.length).toBeGreaterThan(0);
    // Live status: the reader's lease and the shared record.
    const live = liveClient('websocket', bff.url, DEMO_TOKENS.store);
    clients.push(live);
    const subscription = live.subscribe(CAMPAIGN_CHANGED);
    const found = await until('the live status keys', async (): Promise<Awaited<ReturnType<typeof keys>> | undefined> => {
      const now = await keys();
      return now.filter((k) => k.key.startsWith('bff:live:')).length >= 2 ? now : undefined;
    }, 20_000);
    subscription.unsubscribe();
    if (!found) throw new Error('no keys');

    const kinds = new Set(found.map(({ key }) => key.replace(/^(campaign-bff:[a-z-]+|bff:live):.*?(:lease|:status)?$/, '$1$2')));
    expect([...kinds].sort()).toEqual(
      [
        'bff:live:lease',
        'bff:live:status',
        'campaign-bff:apq',
        'campaign-bff:categories',
        'campaign-bff:feed',
        'campaign-bff:rate',
        'campaign-bff:token-verdicts',
      ].sort(),
    );
    for (const { key, ttl, bytes } of found) {
      expect(ttl, `${key} has an expiry`).toBeGreaterThan(0);
      expect(bytes, `${key} holds ${bytes} bytes`).toBeLessThan(MB);
    }
    // The padded texts were kept nowhere: the one text stored is the usual one.
    expect(found.filter(({ key }) => key.startsWith('campaign-bff:apq:')).map(({ key }) => key)).toEqual([`campaign-bff:apq:${sha256(usual)}`]);
  });
});
