import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { executorEnv } from '../helpers/executor.js';
import { app, DEMO_APP, FEED, partner, post } from './support.js';
import { numberOf } from '../helpers/ids.js';

/**
 * Offer feed cursors are public (apps hold them, CDNs cache them): they carry nothing a holder
 * could test a guess of a partner token against, and they are signed with CURSOR_SECRET, so a
 * changed, forged or foreign one is refused while instances sharing the secret read each other's.
 * Real servers on port 0 in front of one emulator.
 */
const SECRET = 'feed-cursor-test-secret-0123456789abcdef';
const OTHER_SECRET = 'another-secret-of-another-fleet-0123456789';
const STORE_APP = 'store-app-key';
const KEYS = { ...DEMO_APP, [STORE_APP]: { name: 'Store app', partnerTokens: [DEMO_TOKENS.store] } };

const sha256 = (text: string) => createHash('sha256').update(text);
const decode = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');

/** Every unkeyed hash of a token a cursor could carry, as anyone holding a guess can compute it. */
function tokenDerivatives(token: string): string[] {
  const hashes = [sha256(token), sha256(`partner:${token}`)].flatMap((h) => {
    const digest = h.digest();
    return [digest.toString('hex'), digest.toString('base64url'), digest.toString('base64')];
  });
  // The partner hash of the feed's keys, and what earlier cursors bound to it (filters unset).
  const partnerHash = sha256(`partner:${token}`).digest('hex').slice(0, 32);
  hashes.push(sha256(`${partnerHash}||`).digest('hex'));
  return [token, ...hashes];
}

/** Whether `text` holds any 10 characters in a row of any of `secrets`. */
function containsPart(text: string, secrets: string[]): boolean {
  return secrets.some((s) => Array.from({ length: s.length - 9 }, (_, i) => s.slice(i, i + 10)).some((part) => text.includes(part)));
}

describe('offer feed cursors', () => {
  let a: Stack;
  let b: RunningBff;
  let other: RunningBff;
  let unset: RunningBff[];
  const instance = async (env: Record<string, string>) =>
    startBff(loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', ...executorEnv, SHUTDOWN_GRACE_MS: '1000', ...env }), {
      campaignApiUrl: a.emulatorUrl,
      appKeys: KEYS,
    });

  beforeAll(async () => {
    a = await startStack({ env: { CURSOR_SECRET: SECRET }, appKeys: KEYS, emulator: { moderation: { mode: 'manual' } } });
    b = await instance({ CURSOR_SECRET: SECRET });
    other = await instance({ CURSOR_SECRET: OTHER_SECRET });
    unset = [await instance({}), await instance({})];
  });
  afterAll(async () => {
    for (const bff of [b, other, ...(unset ?? [])]) await bff?.close();
    await a?.close();
  });

  const page = (url: string, variables: Record<string, unknown>, headers: Record<string, string> = app()) => post(url, { query: FEED, variables }, headers);
  const ids = (answer: { body: any }) => answer.body.data.offerFeed.nodes.map((n: { id: string }) => n.id);
  const refusal = (answer: { body: any }) => {
    expect(answer.body.data?.offerFeed ?? null).toBeNull();
    expect(answer.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    return answer.body.errors[0].message as string;
  };

  it('carry nothing derived from a partner token without the server secret', async () => {
    for (const [headers, token] of [
      [app(STORE_APP), DEMO_TOKENS.store],
      [partner(DEMO_TOKENS.aggregator), DEMO_TOKENS.aggregator],
    ] as const) {
      const first = await page(a.bffUrl, { first: 2 }, headers);
      const cursors: string[] = [first.body.data.offerFeed.pageInfo.endCursor, ...first.body.data.offerFeed.edges.map((e: { cursor: string }) => e.cursor)];
      for (const cursor of cursors) {
        expect(containsPart(cursor, tokenDerivatives(token))).toBe(false);
        expect(containsPart(decode(cursor), tokenDerivatives(token))).toBe(false);
      }
      // What is left is the campaign id and a tag that only the secret makes.
      const [last] = cursors;
      expect(decode(last!)).toMatch(new RegExp(`^v1:${numberOf(ids(first)[1]!)}:[A-Za-z0-9_-]{22}$`));
      const elsewhere = await page(other.url, { first: 2 }, headers);
      expect(elsewhere.body.data.offerFeed.pageInfo.endCursor).not.toBe(last);
    }
  });

  it('page on across instances that share CURSOR_SECRET', async () => {
    const all = ids(await page(a.bffUrl, { first: 100 }));
    expect(all.length).toBeGreaterThan(3);
    const first = await page(a.bffUrl, { first: 2 });
    const second = await page(b.url, { first: 2, after: first.body.data.offerFeed.pageInfo.endCursor });
    expect(second.body.errors).toBeUndefined();
    expect([...ids(first), ...ids(second)]).toEqual(all.slice(0, 4));
    const third = await page(a.bffUrl, { first: 100, after: second.body.data.offerFeed.pageInfo.endCursor });
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual(all);
  });

  it('refuse a cursor signed with another secret, changed, forged or of other filters, saying so', async () => {
    const first = await page(a.bffUrl, { first: 2 });
    const cursor: string = first.body.data.offerFeed.pageInfo.endCursor;

    expect(refusal(await page(other.url, { first: 2, after: cursor }))).toMatch(/^Argument "after" is a cursor of another list.*`categoryId` and `platform`/);

    // The same tag with another campaign id: the position is signed too.
    const [, , tag] = decode(cursor).split(':');
    const moved = Buffer.from(`v1:${ids(first)[0]}:${tag}`).toString('base64url');
    expect(refusal(await page(a.bffUrl, { first: 2, after: moved }))).toMatch(/^Argument "after" is a cursor of another list/);

    // Made offline from a guess of the token, as the cursors of earlier versions could be.
    const partnerHash = sha256(`partner:${DEMO_TOKENS.store}`).digest('hex').slice(0, 32);
    const binding = sha256(`${partnerHash}||`).digest('hex').slice(0, 16);
    const forged = Buffer.from(`feed:${binding}:${ids(first)[0]}`).toString('base64url');
    expect(refusal(await page(a.bffUrl, { first: 2, after: forged }, app(STORE_APP)))).toMatch(/^Argument "after" must be a cursor this API returned/);

    expect(refusal(await page(a.bffUrl, { first: 2, after: 'not a cursor' }))).toMatch(/^Argument "after" must be a cursor this API returned/);
    expect(refusal(await page(a.bffUrl, { first: 2, after: cursor, platform: 'MOBILE' }))).toMatch(/another list/);
    // Another app's feed (another partner set) does not take it either.
    expect(refusal(await page(a.bffUrl, { first: 2, after: cursor }, app(STORE_APP)))).toMatch(/another list/);
  });

  it('without CURSOR_SECRET are read back only by the instance that made them', async () => {
    const [one, two] = unset as [RunningBff, RunningBff];
    const first = await page(one.url, { first: 2 });
    const cursor = first.body.data.offerFeed.pageInfo.endCursor;
    expect((await page(one.url, { first: 2, after: cursor })).body.errors).toBeUndefined();
    expect(refusal(await page(two.url, { first: 2, after: cursor }))).toMatch(/another list/);
  });
});
