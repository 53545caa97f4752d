import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONSE_CACHE_MAX_BYTES as MEMO_MAX_BYTES } from '../../src/server/bff.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { newPartner } from '../graphql/support.js';
import { app, FEED, get, sleep } from './support.js';
import { keptCopiesAllowance } from '../../src/http/compression.js';

/**
 * The answers the gate remembers for app opens (GET of a trusted document), under a client that
 * varies what it sends: they are keyed on what changes the answer, bounded by bytes, and dropped
 * once expired. Production, real HTTP, the embedded emulator as the backend.
 */
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const feedId = `sha256:${sha(FEED)}`;
const APP_KEY = 'big-feed-app';

let dir: string;
let manifest: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bff-remembered-'));
  manifest = join(dir, 'persisted-documents.json');
  writeFileSync(manifest, JSON.stringify({ [sha(FEED)]: FEED }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CREATE = `mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id } userErrors { message } } }`;

/** A partner with `count` running campaigns whose cards are as long as the API allows (big answers). */
async function bigPartner(stack: Stack, count: number): Promise<string> {
  const token = await newPartner(stack, 'store');
  for (let i = 0; i < count; i++) {
    const input = {
      partnerCampaignId: 7_000_000 + i,
      categoryId: String(1 + (i % 8)),
      type: 'PROMO',
      acceptUrl: `https://shop.example.ru/promo/${'p'.repeat(250)}`,
      merchant: {
        domain: 'shop.example.ru',
        logoSvgUrl: 'https://shop.example.ru/logo.svg',
        logoPngUrl: 'https://shop.example.ru/logo.png',
        name: 'Магазин '.repeat(40).slice(0, 290),
      },
      appearance: { backgroundColor: '#1A237E', fontColor: '#FFFFFF' },
      description: 'Скидка на всё',
      conditions: 'При заказе от 1000 рублей',
      discount: { type: 'PERCENT', amount: '15' },
      fee: { type: 'PERCENT', amount: '5' },
    };
    const { body } = await stack.gql(CREATE, { input }, token);
    if (body.errors || (body.data as any).createCampaign.userErrors.length) throw new Error(`createCampaign failed: ${JSON.stringify(body)}`);
  }
  return token;
}

async function startWithBigFeed(env: Record<string, string> = {}): Promise<Stack> {
  // The app's partner is registered once the emulator runs: its key is read from a file, re-read on change.
  const keys = join(dir, `keys-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(keys, '{}');
  const stack = await startStack({
    env: {
      NODE_ENV: 'production',
      CAMPAIGN_API_URL: 'http://127.0.0.1:1', // replaced by the stack's emulator
      TRUSTED_DOCUMENTS: manifest,
      APP_KEYS_FILE: keys,
      CLIENT_RATE_LIMIT: '0',
      ...env,
    },
    emulator: { moderation: { mode: 'auto', delayMs: 0 } },
  });
  const token = await bigPartner(stack, 60);
  writeFileSync(keys, JSON.stringify({ [APP_KEY]: { name: 'Big feed app', partnerToken: token } }));
  await stack.bff.apps.keys.reload();
  return stack;
}

const open = (stack: Stack, variables: string, headers: Record<string, string> = {}) =>
  get(stack.bffUrl, { documentId: feedId, variables }, { ...app(APP_KEY), ...headers });

describe('answers remembered for app opens', () => {
  let stack: Stack;
  let pageBytes: number;
  beforeAll(async () => {
    stack = await startWithBigFeed();
    const page = await open(stack, JSON.stringify({ first: 100 }));
    expect(page.status).toBe(200);
    expect(page.body.data.offerFeed.nodes).toHaveLength(60);
    pageBytes = Buffer.byteLength(page.text);
  });
  afterAll(() => stack?.close());

  it('500 opens that differ only in a variable the document does not declare share one entry', async () => {
    const before = stack.bff.responses.stats();
    expect(before.entries).toBe(1);
    const etags = new Set<string>();
    for (let n = 0; n < 500; n++) {
      const answer = await open(stack, JSON.stringify({ first: 100, n }));
      expect(answer.status).toBe(200);
      etags.add(answer.headers.etag!);
    }
    expect(etags.size).toBe(1);
    const after = stack.bff.responses.stats();
    expect(after).toEqual(before);
    // One page, with the room its compressed copies may take beside it.
    expect(after.bytes).toBeLessThan(pageBytes + keptCopiesAllowance(pageBytes) + 4096);
  });

  it('key order, spacing and number spelling of the declared variables make no entry of their own', async () => {
    const before = stack.bff.responses.stats();
    for (const variables of ['{"first":100}', '{ "first" : 100 }', '{"first":100.0,"unused":{"b":1,"a":2}}', '{"locale":null,"first":1e2}', '{"first":100,"locale":null}']) {
      expect((await open(stack, variables)).status).toBe(200);
    }
    // One more entry: an explicit null differs from an absent variable (a default may apply).
    expect(stack.bff.responses.stats().entries).toBe(before.entries + 1);
    await open(stack, JSON.stringify({ first: 99 }));
    expect(stack.bff.responses.stats().entries).toBe(before.entries + 2);
  });

  it('answers that do differ are held within a bound in bytes, whatever their number', async () => {
    // Each locale is another answer (and another entry): together far more than the bound.
    const count = Math.ceil((2 * MEMO_MAX_BYTES) / pageBytes);
    for (let i = 0; i < count; i++) {
      const answer = await open(stack, JSON.stringify({ first: 100, locale: `ru-x-k${i}` }));
      expect(answer.status).toBe(200);
    }
    const { entries, bytes } = stack.bff.responses.stats();
    expect(bytes).toBeLessThanOrEqual(MEMO_MAX_BYTES);
    expect(entries).toBeLessThan(count);
    // The most recent are the ones kept: the last open is answered as it was.
    const last = JSON.stringify({ first: 100, locale: `ru-x-k${count - 1}` });
    const etag = (await open(stack, last)).headers.etag!;
    expect((await open(stack, last, { 'if-none-match': etag })).status).toBe(304);
  });
});

describe('expired remembered answers', () => {
  it('are dropped once past the feed freshness, without another request', async () => {
    const ttlMs = 1000;
    const stack = await startWithBigFeed({ FEED_TTL_MS: String(ttlMs) });
    try {
      for (let first = 1; first <= 5; first++) expect((await open(stack, JSON.stringify({ first }))).status).toBe(200);
      expect(stack.bff.responses.stats().entries).toBeGreaterThan(0);
      await sleep(ttlMs + 500);
      expect(stack.bff.responses.stats()).toEqual({ entries: 0, bytes: 0 });
    } finally {
      await stack.close();
    }
  });
});
