import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { scrape } from '../helpers/scrape.js';
import { startStack, type GqlResponse, type Stack } from '../helpers/stack.js';
import { expectNothingInternal, settle, trackUnhandledRejections } from './support.js';

/**
 * The campaign API refusing one caller's requests (a 4xx) is that caller's answer: it is given to
 * that caller alone with a code of its own, never retried, and never opens the circuit breaker
 * that every partner's requests go through. A hostile caller sends such requests over and over
 * while another partner keeps reading; the client's breaker settings are the product's defaults.
 */

/** A proxy in front of the campaign API that takes heads of at most 1 KiB, as some do. */
const PROXY_HEADER_LIMIT = 1024;
/** A made-up token longer than that proxy takes, short enough for any limit of the BFF's own (PARTNER_TOKEN_MAX_LENGTH). */
const LONG_TOKEN = `made-up-${'A'.repeat(1500)}`;
const HOSTILE_QUERY = '{ campaign(id: "1") { id } }';
const GOOD_QUERY = '{ campaigns { totalCount } }';
const ROUNDS = 4;
const HOSTILE_PER_ROUND = 10;
const GOOD_PER_ROUND = 3;

let stack: Stack;
const rejections = trackUnhandledRejections();
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' }, headerLimitBytes: PROXY_HEADER_LIMIT } });
});
afterAll(async () => {
  rejections.stop();
  await stack?.close();
});

const breakerState = async () => (await scrape(stack.metricsUrl)).find((s) => s.name === 'bff_backend_breaker_state')!.value;
const retries = async () =>
  (await scrape(stack.metricsUrl)).filter((s) => s.name === 'bff_backend_retries_total').reduce((sum, s) => sum + s.value, 0);

/**
 * Rounds of hostile requests sent at once with a good partner's reads: every read answers, the
 * breaker stays closed and nothing is retried. Returns the hostile answers.
 */
async function underFire(hostile: () => Promise<GqlResponse<any>>): Promise<GqlResponse<any>[]> {
  const answers: GqlResponse<any>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [refused, good] = await Promise.all([
      Promise.all(Array.from({ length: HOSTILE_PER_ROUND }, hostile)),
      Promise.all(Array.from({ length: GOOD_PER_ROUND }, () => stack.gql(GOOD_QUERY, undefined, DEMO_TOKENS.store))),
    ]);
    answers.push(...refused);
    for (const { status, body } of good) expect({ status, body }).toEqual({ status: 200, body: { data: { campaigns: { totalCount: 8 } } } });
    expect(await breakerState(), 'the breaker stays closed').toBe(0);
  }
  expect(stack.bff.api.breakerState()).toBe('closed');
  return answers;
}

describe('the backend refusing one caller', () => {
  beforeEach(async () => {
    await stack.admin('reset', {});
    await stack.admin('faults', undefined, 'DELETE');
  });

  it('a made-up token too long for a proxy in front: each request refused once, to that caller alone, the breaker closed', async () => {
    const retriedBefore = await retries();
    const answers = await underFire(() => stack.gql(HOSTILE_QUERY, undefined, LONG_TOKEN));
    for (const { status, body } of answers) {
      expect(status).toBe(200);
      expect(body.data).toEqual({ campaign: null });
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0]).toMatchObject({ path: ['campaign'], extensions: { code: 'BACKEND_REFUSED', httpStatus: 400 } });
      expect(body.errors![0].message).toMatch(/refused/);
      expectNothingInternal(body, [LONG_TOKEN.slice(0, 40), 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', DEMO_TOKENS.store]);
    }
    // One call per refused request: none was tried again.
    expect((await stack.calls())['campaigns/get']).toBe(ROUNDS * HOSTILE_PER_ROUND);
    expect(await retries()).toBe(retriedBefore);
    await settle();
    expect(rejections.list).toEqual([]);
  });

  it('a refused request gets none of the cached category directory, and pauses nothing', async () => {
    expect((await stack.gql('{ categories { id } }')).body.data.categories).toHaveLength(12);
    await stack.resetCalls();
    for (let i = 0; i < 3; i++) {
      const { body } = await stack.gql('{ categories { id } category(id: "2") { name } }', undefined, LONG_TOKEN);
      expect(body.data).toEqual({ categories: null, category: null });
      expect(body.errors!.map((e: any) => [e.path, e.extensions.code, e.extensions.httpStatus]).sort()).toEqual([
        [['categories'], 'BACKEND_REFUSED', 400],
        [['category'], 'BACKEND_REFUSED', 400],
      ]);
    }
    // Each request's own check, once for both fields; the partner that was accepted still reads the copy.
    expect(await stack.calls()).toEqual({ 'categories/get': 3 });
    expect((await stack.gql('{ categories { id } }')).body.data.categories).toHaveLength(12);
    expect(await stack.calls()).toEqual({ 'categories/get': 3 });
  });

  it.each([400, 413, 429, 431])('HTTP %i without an envelope for one partner\'s reads: refused once each, the others served, the breaker closed', async (httpStatus) => {
    await stack.admin('faults', { mode: 'http4xx', operation: 'campaigns/get', httpStatus });
    const retriedBefore = await retries();
    const answers = await underFire(() => stack.gql(HOSTILE_QUERY, undefined, DEMO_TOKENS.aggregator));
    for (const { status, body } of answers) {
      expect(status).toBe(200);
      expect(body.data).toEqual({ campaign: null });
      expect(body.errors).toEqual([
        {
          message: expect.stringContaining(`HTTP ${httpStatus}`),
          locations: expect.any(Array),
          path: ['campaign'],
          extensions: { code: 'BACKEND_REFUSED', httpStatus, operation: 'get' },
        },
      ]);
      expectNothingInternal(body);
    }
    expect((await stack.calls())['campaigns/get']).toBe(ROUNDS * HOSTILE_PER_ROUND);
    expect(await retries()).toBe(retriedBefore);
    await settle();
    expect(rejections.list).toEqual([]);
  });
});
