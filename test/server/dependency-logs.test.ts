import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { needs } from '../helpers/needs.js';

/**
 * What the log of the product (as the README runs it, in production) says about its
 * dependencies: why the campaign API or Redis fails, in words and without a stack, and when each
 * is back.
 */

let entry: BuiltEntry | undefined;
let emulator: RunningEmulator | undefined;
let redis: RunningRedis | undefined;
afterEach(async () => {
  await entry?.stop();
  await emulator?.close();
  await redis?.close();
  entry = emulator = redis = undefined;
});

const categories = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
    body: JSON.stringify({ query: '{ categories { id } }' }),
  }).then(async (answer) => (await answer.json()) as { data?: any; errors?: Array<{ extensions: { code: string } }> });

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the log:\n${entry?.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const line = (msg: string) => entry!.logs().find((l) => l.msg === msg);
const has = (msg: string) => () => line(msg) !== undefined;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An expected condition's warning: the cause in words, and no error object with a stack. */
function expectCauseWithoutStack(warning: Record<string, any> | undefined, cause: RegExp): void {
  expect(warning).toMatchObject({ level: 40, cause: expect.stringMatching(cause) });
  expect(warning).not.toHaveProperty('err');
  expect(JSON.stringify(warning)).not.toMatch(/\n\s+at /);
}

describe('a wrong CAMPAIGN_API_URL', { timeout: 60_000 }, () => {
  it('nothing listening there: the log says the connection was refused, and where', async () => {
    const port = await closedPort();
    entry = await startBuiltEntry({ env: { NODE_ENV: 'production', CAMPAIGN_API_URL: `http://127.0.0.1:${port}`, BACKEND_MAX_ATTEMPTS: '1' } });
    expect((await categories(entry.url)).errors?.[0]?.extensions.code).toBe('BACKEND_UNAVAILABLE');
    await until('the warning', has('campaign API unavailable; requests that need it fail until it answers'));
    const warning = line('campaign API unavailable; requests that need it fail until it answers');
    expectCauseWithoutStack(warning, new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    expect(warning).toMatchObject({ operation: 'getCategories', outcome: 'network' });
  });

  it('a server that is not the campaign API there: the log says it answered 404', async () => {
    emulator = await startEmulator({ quiet: true });
    entry = await startBuiltEntry({ env: { NODE_ENV: 'production', CAMPAIGN_API_URL: `${emulator.url}/not-the-api`, BACKEND_MAX_ATTEMPTS: '1' } });
    expect((await categories(entry.url)).errors).toBeDefined();
    await until('the warning', has('campaign API unavailable; requests that need it fail until it answers'));
    expectCauseWithoutStack(line('campaign API unavailable; requests that need it fail until it answers'), /HTTP 404/);
  });
});

describe('recovery', { timeout: 60_000 }, () => {
  it('the campaign API: a line when it fails, when the breaker opens, when it answers again and when the breaker closes', async () => {
    emulator = await startEmulator({ quiet: true });
    entry = await startBuiltEntry({
      env: {
        NODE_ENV: 'production',
        CAMPAIGN_API_URL: emulator.url,
        BACKEND_MAX_ATTEMPTS: '1',
        BACKEND_BREAKER_FAILURES: '2',
        BACKEND_BREAKER_HALF_OPEN_MS: '200',
        CATEGORY_TTL_MS: '1000',
      },
    });
    await fetch(`${emulator.url}/_emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'http500' }) });
    for (let i = 0; i < 3; i++) await categories(entry.url);
    await until('the breaker to open', has('circuit breaker open: backend calls are refused at once until a probe succeeds'));
    expectCauseWithoutStack(line('campaign API unavailable; requests that need it fail until it answers'), /HTTP status 500/);
    expect(line('campaign API answering again')).toBeUndefined();

    await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' });
    await until('an answer', async () => (await categories(entry!.url)).errors === undefined);
    await until('the recovery lines', () => has('campaign API answering again')() && has('circuit breaker closed: backend calls go through again')());
    expect(line('campaign API answering again')).toMatchObject({ level: 30, unavailableMs: expect.any(Number), failedCalls: expect.any(Number) });
    const order = entry.logs().map((l) => l.msg).filter((msg: string) => /^(campaign API|circuit breaker)/.test(msg));
    expect(order).toEqual([
      'campaign API unavailable; requests that need it fail until it answers',
      'circuit breaker open: backend calls are refused at once until a probe succeeds',
      'campaign API answering again',
      'circuit breaker closed: backend calls go through again',
    ]);
  });

  it.skipIf(!needs('redis-server'))('Redis: a line without a stack when the cache goes, and one when it is back', async () => {
    emulator = await startEmulator({ quiet: true });
    redis = await startRedis();
    entry = await startBuiltEntry({ env: { NODE_ENV: 'production', CAMPAIGN_API_URL: emulator.url, CACHE_URL: redis.url, CURSOR_SECRET: 'dependency-logs-cursor-secret-of-32-characters' } });
    await redis.stop();
    await categories(entry.url);
    await until('the warning', has('cache unavailable; serving from the backend'));
    expectCauseWithoutStack(line('cache unavailable; serving from the backend'), /\w/);
    expect(line('cache reconnected')).toBeUndefined();

    await redis.restart();
    await until('the recovery line', has('cache reconnected'));
    expect(line('cache reconnected')).toMatchObject({ level: 30, unavailableMs: expect.any(Number) });
  });
});
