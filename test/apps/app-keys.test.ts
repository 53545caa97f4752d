import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAppKeys } from '../../src/apps/app-keys.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { captureLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { app, FEED, partner, post, sleep } from './support.js';

const CATEGORIES = '{ categories { id name } }';

describe('parseAppKeys', () => {
  it('reads keys with one or several partner tokens', () => {
    const keys = parseAppKeys(JSON.stringify({ 'ios-app-key-1': { name: 'iOS', partnerTokens: ['a', 'b', 'a'] }, 'web-app-key-1': { name: 'Web', partnerToken: 'c' } }));
    expect(keys.get('ios-app-key-1')).toMatchObject({ name: 'iOS', partnerTokens: ['a', 'b'] });
    expect(keys.get('web-app-key-1')).toMatchObject({ name: 'Web', partnerTokens: ['c'] });
  });

  it('says what is wrong where, without quoting a token', () => {
    const cases: [string, RegExp][] = [
      ['{', /not valid JSON/],
      ['[]', /top level/],
      [JSON.stringify({ short: { name: 'x', partnerToken: 'secret-token-1' } }), /^short: an app key is 8 to 128 characters/],
      [JSON.stringify({ 'good-key-123': { name: 'x' } }), /^good-key-123: needs exactly one of "partnerToken"/],
      [JSON.stringify({ 'good-key-123': { name: 'x', partnerTokens: [] } }), /^good-key-123\.partnerTokens: must list at least one partner token/],
      [JSON.stringify({ 'good-key-123': { name: '', partnerToken: 'secret-token-1' } }), /^good-key-123\.name: must be a non-empty app name/],
    ];
    for (const [text, message] of cases) {
      let problem: Error | undefined;
      try {
        parseAppKeys(text);
      } catch (error) {
        problem = error as Error;
      }
      expect(problem?.message).toMatch(message);
      expect(problem?.message).not.toContain('secret-token-1');
    }
  });
});

describe('app keys over HTTP (APP_KEYS_FILE, reloaded without a restart)', () => {
  let stack: Stack;
  let dir: string;
  let file: string;
  const log = captureLogs();
  const lines = log.lines;
  const write = (content: unknown) => {
    // As config tools do: write aside, then rename over the file.
    const aside = `${file}.tmp`;
    writeFileSync(aside, typeof content === 'string' ? content : JSON.stringify(content));
    renameSync(aside, file);
  };
  /** Polls until the app key's answer has this status (the file is watched every 100 ms). */
  const until = async (key: string, status: number) => {
    for (let i = 0; i < 60; i++) {
      if ((await post(stack.bffUrl, { query: CATEGORIES }, app(key))).status === status) return;
      await sleep(50);
    }
    throw new Error(`${key} never answered ${status}`);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bff-app-keys-'));
    file = join(dir, 'app-keys.json');
    write({ 'store-app-key-1': { name: 'Store app', partnerToken: DEMO_TOKENS.store } });
    stack = await startStack({ env: { APP_KEYS_FILE: file, APP_KEYS_RELOAD_MS: '100' }, logger: log.logger, emulator: { moderation: { mode: 'manual' } } });
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an unknown key is 401 UNAUTHENTICATED before any backend call', async () => {
    await stack.resetCalls();
    for (const query of [CATEGORIES, FEED, '{ campaigns { totalCount } }', 'mutation { stopCampaign(id: "1") { campaign { id } } }']) {
      const answer = await post(stack.bffUrl, { query }, app('no-such-app-key'));
      expect(answer.status).toBe(401);
      expect(answer.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(answer.body.errors[0].message).toContain('X-App-Key');
    }
    expect(await stack.calls()).toEqual({});
  });

  it('an app key and a partner token together are refused', async () => {
    const answer = await post(stack.bffUrl, { query: CATEGORIES }, { ...app('store-app-key-1'), ...partner(DEMO_TOKENS.store) });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toMatch(/either X-App-Key .* or Authorization/);
  });

  it('a key reads only its partners: the store app sees the store feed', async () => {
    const { body } = await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, app('store-app-key-1'));
    const own = await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, partner(DEMO_TOKENS.store));
    expect(body.data.offerFeed.nodes).toEqual(own.body.data.offerFeed.nodes);
  });

  it('keys rotate without a restart; a bad file keeps the last good set and logs why', async () => {
    write({ 'store-app-key-2': { name: 'Store app', partnerToken: DEMO_TOKENS.store } });
    await until('store-app-key-2', 200);
    await until('store-app-key-1', 401); // revoked
    write('{ "store-app-key-3": ');
    await sleep(400);
    expect((await post(stack.bffUrl, { query: CATEGORIES }, app('store-app-key-2'))).status).toBe(200);
    write({ 'store-app-key-3': { name: 'Store app' } });
    await sleep(400);
    expect((await post(stack.bffUrl, { query: CATEGORIES }, app('store-app-key-2'))).status).toBe(200);
    expect((await post(stack.bffUrl, { query: CATEGORIES }, app('store-app-key-3'))).status).toBe(401);
    const log = lines.join('');
    expect(log).toContain('app keys file invalid; keeping the last good keys');
    expect(log).toContain('not valid JSON');
    expect(log).toContain('store-app-key-3: needs exactly one of');
    // Tokens never reach a log line, whatever happened.
    expect(log).not.toContain(DEMO_TOKENS.store);
    expect(log).not.toContain(DEMO_TOKENS.aggregator);
  });
});

describe('the app example of docs/operations', () => {
  it('runs with the demo app key as npm start configures it, and the answer carries no token', async () => {
    const { readFileSync } = await import('node:fs');
    const dir = new URL('../../docs/operations/', import.meta.url);
    const query = readFileSync(new URL('offer-feed.graphql', dir), 'utf8');
    const variables = JSON.parse(readFileSync(new URL('offer-feed.variables.json', dir), 'utf8'));
    const stack = await startStack({ appKeys: { 'demo-app-key': { name: 'Demo app', partnerTokens: [DEMO_TOKENS.store, DEMO_TOKENS.aggregator] } } });
    try {
      const answer = await post(stack.bffUrl, { query, variables }, app('demo-app-key'));
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.offerFeed.nodes.length).toBeGreaterThan(0);
      expect(answer.text).not.toContain(DEMO_TOKENS.store);
      expect(answer.text).not.toContain(DEMO_TOKENS.aggregator);
    } finally {
      await stack.close();
    }
  });
});

describe('a key whose partner token the campaign API refuses', () => {
  it("says the server's configuration is wrong, without the token; a key reading for several partners serves the others", async () => {
    const stack = await startStack({
      appKeys: {
        'broken-app-key': { name: 'Broken app', partnerTokens: ['no-such-partner-token'] },
        'half-app-key-1': { name: 'Half app', partnerTokens: ['no-such-partner-token', DEMO_TOKENS.store] },
      },
    });
    try {
      const broken = await post(stack.bffUrl, { query: FEED }, app('broken-app-key'));
      expect(broken.body.errors[0].extensions.code).toBe('APP_KEY_MISCONFIGURED');
      expect(broken.body.errors[0].message).toContain('"Broken app"');
      expect(broken.text).not.toContain('no-such-partner-token');
      // A refused token costs one call, not one per app open.
      await stack.resetCalls();
      const again = await Promise.all(Array.from({ length: 20 }, () => post(stack.bffUrl, { query: FEED }, app('broken-app-key'))));
      for (const answer of again) expect(answer.body.errors[0].extensions.code).toBe('APP_KEY_MISCONFIGURED');
      expect(await stack.calls()).toEqual({});
      const half = await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, app('half-app-key-1'));
      const own = await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, partner(DEMO_TOKENS.store));
      expect(half.body.data.offerFeed.nodes).toEqual(own.body.data.offerFeed.nodes);
      expect(half.body.extensions.feed).toMatchObject({ incomplete: true });
      expect(half.text).not.toContain('no-such-partner-token');
    } finally {
      await stack.close();
    }
  });
});
