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
 * and none holds megabytes; no key or value holds a token, an app key or an unkeyed hash of one
 * (whoever reads Redis could test guesses of them offline), and the feed keeps no fee.
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

  /** Everything Redis holds, as text: every key and every value (strings and hashes). */
  async function contents(): Promise<string> {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const names = await client.keys('*');
      const values = await Promise.all(
        names.map(async (key) => {
          const type = await client.type(key);
          return type === 'hash' ? JSON.stringify(await client.hGetAll(key)) : type === 'string' ? await client.get(key) : type;
        }),
      );
      return JSON.stringify(names) + values.join('\n');
    } finally {
      await client.close();
    }
  }

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

  it('every key written has an expiry, none holds megabytes, and none a credential or an unkeyed hash of one', { timeout: 120_000 }, async () => {
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

    // Nothing derived from a credential without a key: no token, no app key, no plain hash of one.
    const held = await contents();
    const credentials = [DEMO_TOKENS.store, DEMO_TOKENS.aggregator, 'a-made-up-token-of-usual-length', 'demo-app-key'];
    for (const credential of credentials) {
      expect(held).not.toContain(credential);
      for (const text of [credential, `partner:${credential}`]) {
        for (const encoding of ['hex', 'base64', 'base64url'] as const) {
          const digest = createHash('sha256').update(text).digest(encoding);
          expect(held, `sha256(${JSON.stringify(text.replace(credential, '<credential>'))}) in ${encoding}`).not.toContain(digest.slice(0, 16));
        }
      }
    }
    // The feed keeps what offers show, no fee and no partner's own campaign number.
    expect(held).toContain('merchantName');
    for (const field of ['campaignFee', 'feeType', 'feeCurrency', 'partnerCampaignId']) expect(held).not.toContain(`"${field}"`);
  });
});
