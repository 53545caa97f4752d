import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CAMPAIGN_CHANGED, liveClient, metric, sleep, socketInit, streamUrl, until, wsUrl } from './support.js';

/**
 * Who a stream is opened for, the same on WebSocket and SSE as for a request over HTTP: the
 * caller is read from the `connection_init` payload and the headers alike, a token longer than any
 * partner's is refused at the door without a backend call, a token is admitted only once the
 * campaign API accepted it (and told to try again when the API cannot be asked), an app key
 * reaches no stream however it is sent, and every refusal carries its code.
 */

const APP_KEY = 'stream-app-key';
const MADE_UP = 'made-up-partner-token';
const HUGE = 'A'.repeat(30_000);

/** What a raw graphql-ws socket is told after `connection_init` with this payload: 'ack', or how it was closed. */
const init = (stack: Stack, payload: Record<string, unknown>, headers: Record<string, string> = {}) => socketInit(stack.bffUrl, payload, headers);

/** A POST to the SSE endpoint: its status and body (JSON when it is a refusal). */
async function stream(stack: Stack, body: string, headers: Record<string, string>): Promise<{ status: number; text: string; json: any }> {
  const response = await fetch(streamUrl(stack.bffUrl), { method: 'POST', headers: { accept: 'text/event-stream', ...headers }, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

const SUBSCRIBE = JSON.stringify({ query: CAMPAIGN_CHANGED });

describe('who a stream is opened for', () => {
  let stack: Stack;

  beforeAll(async () => {
    // Development on the emulator: the demo fallback acts for a caller that presents nothing.
    stack = await startStack({ fallbackToken: DEMO_TOKENS.store, appKeys: { [APP_KEY]: { name: 'Stream test', partnerTokens: [DEMO_TOKENS.store] } } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses a token longer than any partner\'s at the door, on both streams, with no backend call', async () => {
    await stack.resetCalls();
    for (let i = 0; i < 6; i++) {
      expect(await init(stack, { authorization: `Bearer ${HUGE}${i}` })).toMatchObject({ code: 4401 });
      // A header stops at Node's limit (431 past it): the longest one it lets through.
      const refused = await stream(stack, SUBSCRIBE, { 'content-type': 'application/json', authorization: `Bearer ${HUGE.slice(0, 15_000)}${i}` });
      expect(refused.status).toBe(401);
      expect(refused.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(refused.json.errors[0].message).toMatch(/more than any partner token \(at most 2048\)/);
    }
    expect(await stack.calls()).toEqual({});
    // Nothing of it is held: no connection, no watcher.
    expect(await metric(stack.metricsUrl, 'bff_live_connections')).toBe(0);
  });

  it('admits a made-up token only as the campaign API answers: refused, with no subscription and no reads after', async () => {
    await stack.resetCalls();
    expect(await init(stack, { authorization: `Bearer ${MADE_UP}-ws` })).toMatchObject({ code: 4401 });
    const refused = await stream(stack, SUBSCRIBE, { 'content-type': 'application/json', authorization: `Bearer ${MADE_UP}-sse` });
    expect(refused.status).toBe(401);
    expect(refused.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // One check each, and nothing polls with either token afterwards.
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 2 });
    await sleep(500);
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 2 });
    expect(await metric(stack.metricsUrl, 'bff_live_subscriptions')).toBe(0);
  });

  it('tells a token the campaign API cannot be asked about to try again, and admits it once the API answers', { timeout: 40_000 }, async () => {
    const token = `${DEMO_TOKENS.aggregator}`;
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/get-all-campaigns' });
    try {
      const ws = await init(stack, { authorization: `Bearer ${token}` });
      // 1013: try again later, which graphql-ws's client retries (4401 it would not).
      expect(ws).toMatchObject({ code: 1013 });
      const sse = await stream(stack, SUBSCRIBE, { 'content-type': 'application/json', authorization: `Bearer ${token}` });
      expect(sse.status).toBe(503);
      expect(sse.json.errors[0].extensions.code).toBe('BACKEND_UNAVAILABLE');
    } finally {
      await stack.admin('faults', undefined, 'DELETE');
    }
    // Once the campaign API answers again (its breaker may take a while to try it), the token is admitted.
    await until('the token admitted', async () => (await init(stack, { authorization: `Bearer ${token}` })) === 'ack', 30_000);
  });

  it('refuses an app key sent in connection_init as it refuses one in the headers: never the demo partner', async () => {
    for (const payload of [{ 'x-app-key': APP_KEY }, { 'X-App-Key': APP_KEY }, { 'x-app-key': 'an-unknown-key' }]) {
      const closed = await init(stack, payload);
      expect(closed, JSON.stringify(payload)).not.toBe('ack');
      expect([4401, 4403]).toContain((closed as { code: number }).code);
    }
    expect(await init(stack, { 'x-app-key': APP_KEY })).toMatchObject({ code: 4403 });
    expect(await init(stack, {}, { 'x-app-key': APP_KEY })).toMatchObject({ code: 4403 });
    const overSse = await stream(stack, SUBSCRIBE, { 'content-type': 'application/json', 'x-app-key': APP_KEY });
    expect(overSse.status).toBe(403);
    expect(overSse.json.errors[0].extensions.code).toBe('FORBIDDEN');
    // Both credentials at once: refused, whichever carries them.
    expect(await init(stack, { 'x-app-key': APP_KEY, authorization: `Bearer ${DEMO_TOKENS.store}` })).toMatchObject({ code: 4400 });
    // A credential that is not a string is no credential: refused, never the fallback.
    expect(await init(stack, { authorization: 42 })).toMatchObject({ code: 4401 });
    expect(await init(stack, { authorization: { token: DEMO_TOKENS.store } })).toMatchObject({ code: 4401 });
    // And what presents nothing is the demo partner, as over HTTP.
    expect(await init(stack, {})).toBe('ack');
  });

  it('never sends an app key\'s socket an event of the demo store', async () => {
    const events = liveClient('websocket', stack.bffUrl, null, { connectionParams: { 'x-app-key': APP_KEY } });
    const watching = events.subscribe(CAMPAIGN_CHANGED);
    const { error } = await watching.ended;
    expect(error).toMatchObject({ code: 4403 });
    expect(watching.results).toEqual([]);
    await events.close();
  });

  it('answers what SSE refuses of a request with a code, through the one formatter', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: [string, Record<string, string>, number, string][] = [
      ['nope', json, 400, 'BAD_REQUEST'],
      ['{"query": 1}', json, 400, 'BAD_REQUEST'],
      [JSON.stringify({ query: CAMPAIGN_CHANGED, variables: 'x' }), json, 400, 'BAD_REQUEST'],
      [`{"query": "subscription { campaignChanged { status } }", "variables": {"x": ${'['.repeat(100)}${']'.repeat(100)}}}`, json, 400, 'BAD_REQUEST'],
      [SUBSCRIBE, { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [SUBSCRIBE, { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [SUBSCRIBE, {}, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [SUBSCRIBE, { 'content-type': 'application/json; charset=latin1' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ];
    for (const [body, headers, status, code] of cases) {
      const answer = await stream(stack, body, headers);
      expect({ status: answer.status, code: answer.json?.errors?.[0]?.extensions?.code }, `${body.slice(0, 40)} ${JSON.stringify(headers)}`).toEqual({ status, code });
    }
    // A body that names no document is judged by the pipeline: streamed as one result with its code, then the end.
    const nothing = await stream(stack, '{}', json);
    expect(nothing.status).toBe(200);
    expect(nothing.text).toMatch(/event: next\ndata: \{"errors":\[\{"message":"The request names no document[^\n]*"code":"BAD_REQUEST"/);
    expect(nothing.text).toMatch(/event: complete\n/);
  });

  it('refuses a WebSocket message nested deeper than any JSON a client sends, before the protocol reads it', async () => {
    const socket = new WebSocket(wsUrl(stack.bffUrl), 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    socket.send(`{"type":"connection_init","payload":{"x":${'['.repeat(30_000)}${']'.repeat(30_000)}}}`);
    expect(await closed).toMatchObject({ code: 4400, reason: expect.stringMatching(/more than 64 levels deep/) });
  });

  it('still serves a partner on both streams after all of it', async () => {
    for (const transport of ['websocket', 'sse'] as const) {
      const client = liveClient(transport, stack.bffUrl, DEMO_TOKENS.store);
      client.subscribe(CAMPAIGN_CHANGED);
      await until(`a ${transport} watcher`, async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) >= 1);
      await client.close();
      await until('no watcher', async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) === 0);
    }
  });
});

describe('a token the campaign API refuses as a bad request (a proxy\'s limit on headers)', () => {
  let stack: Stack;

  beforeAll(async () => {
    // A backend that refuses a head over 1 KiB with a bare 400, as a proxy in front of it would.
    stack = await startStack({ emulator: { headerLimitBytes: 1024 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is refused as the token\'s own refusal on both streams, with one call each and nothing polled after', async () => {
    await stack.resetCalls();
    const token = `long-${'t'.repeat(1500)}`;
    expect(await init(stack, { authorization: `Bearer ${token}` })).toMatchObject({ code: 4401 });
    const refused = await stream(stack, SUBSCRIBE, { 'content-type': 'application/json', authorization: `Bearer ${token}-sse` });
    expect(refused.status).toBe(401);
    expect(refused.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 2 });
    await sleep(300);
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 2 });
  });
});
