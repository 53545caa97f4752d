import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { newPartner } from '../graphql/support.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CAMPAIGN_CHANGED, liveClient, metric, nextPoll, sleep, streamUrl, until, wsUrl, type LiveClient } from './support.js';

const INTERVAL_MS = 150;

function rawSocket(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

const closeOf = (socket: WebSocket) => new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));

/** A raw SSE stream, with an Accept header as browsers and proxies may widen it. */
async function openStream(stack: Stack, token: string): Promise<Response> {
  return fetch(streamUrl(stack.bffUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream, */*', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: CAMPAIGN_CHANGED }),
  });
}

describe('subscription limits and lifecycle', () => {
  let stack: Stack;
  const clients: LiveClient[] = [];
  const client = (transport: 'websocket' | 'sse', token: string) => {
    const c = liveClient(transport, stack.bffUrl, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    stack = await startStack({
      emulator: { moderation: { mode: 'manual' } },
      env: {
        SUBSCRIPTION_POLL_INTERVAL_MS: String(INTERVAL_MS),
        SUBSCRIPTIONS_PER_CONNECTION: '2',
        SUBSCRIPTION_CONNECTIONS_PER_PARTNER: '2',
        SUBSCRIPTION_INIT_TIMEOUT_MS: '300',
        SUBSCRIPTION_KEEPALIVE_MS: '200',
        MAX_DEPTH: '3',
      },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stack?.close();
  });

  it('closes a socket that does not authenticate in time (4408), and pings the ones that do', async () => {
    const silent = await rawSocket(wsUrl(stack.bffUrl));
    const started = Date.now();
    expect(await closeOf(silent)).toMatchObject({ code: 4408 });
    expect(Date.now() - started).toBeLessThan(2000);

    const token = await newPartner(stack, 'store');
    const socket = await rawSocket(wsUrl(stack.bffUrl));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
    const pinged = new Promise<void>((resolve) => socket.once('ping', () => resolve()));
    await pinged;
    socket.close(1000);
  });

  it('refuses messages and SSE bodies over 64 KiB', async () => {
    const token = await newPartner(stack, 'store');
    const socket = await rawSocket(wsUrl(stack.bffUrl));
    const closed = closeOf(socket);
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}`, padding: 'x'.repeat(70_000) } }));
    expect(await closed).toMatchObject({ code: 1009 });

    const response = await fetch(streamUrl(stack.bffUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: CAMPAIGN_CHANGED, variables: { padding: 'x'.repeat(70_000) } }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as any).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses SSE bodies that are not UTF-8, as POST /graphql does, and WebSocket text that is not (1007)', async () => {
    const token = await newPartner(stack, 'store');
    const [before, after] = JSON.stringify({ query: CAMPAIGN_CHANGED, operationName: '@NAME@' }).split('@NAME@');
    const latin1 = Buffer.concat([Buffer.from(before!), Buffer.from('Café', 'latin1'), Buffer.from(after!)]);
    const send = (type: string) =>
      fetch(streamUrl(stack.bffUrl), { method: 'POST', headers: { 'content-type': type, accept: 'text/event-stream', authorization: `Bearer ${token}` }, body: latin1 });
    const declared = await send('application/json; charset=iso-8859-1');
    expect(declared.status).toBe(415);
    expect(((await declared.json()) as any).errors[0]).toMatchObject({ message: expect.stringMatching(/^Content-Type charset "iso-8859-1" is not supported/), extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const undeclared = await send('application/json');
    expect(undeclared.status).toBe(400);
    expect(((await undeclared.json()) as any).errors[0]).toMatchObject({ message: expect.stringMatching(/^Request body is not valid UTF-8/), extensions: { code: 'BAD_REQUEST' } });

    const socket = await rawSocket(wsUrl(stack.bffUrl));
    const closed = closeOf(socket);
    socket.send(Buffer.concat([Buffer.from('{"type":"connection_init","payload":{"x":"'), Buffer.from('é', 'latin1'), Buffer.from('"}}')]), { binary: false });
    expect(await closed).toMatchObject({ code: 1007 });
  });

  it('bounds subscriptions per connection, ids per subscription and the depth of the document', async () => {
    const token = await newPartner(stack, 'store');
    const c = client('websocket', token);
    const first = c.subscribe(CAMPAIGN_CHANGED);
    const second = c.subscribe(CAMPAIGN_CHANGED);
    await nextPoll(stack.metricsUrl);
    const third = c.subscribe(CAMPAIGN_CHANGED);
    const { error } = await third.ended;
    expect((error as any[])[0]).toMatchObject({
      message: 'Too many subscriptions on this connection: at most 2.',
      extensions: { code: 'SUBSCRIPTION_LIMIT_EXCEEDED', limit: 'subscriptions_per_connection', max: 2 },
    });
    first.unsubscribe();
    second.unsubscribe();

    const deep = c.subscribe(`subscription { campaignChanged { campaign { stats { pins { total } } } } }`);
    const refused = (await deep.ended).error as any[];
    expect(refused[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'depth' });
  });

  it('bounds connections per partner on both transports, and frees the place when one closes', async () => {
    const token = await newPartner(stack, 'store');
    const a = client('websocket', token);
    const subA = a.subscribe(CAMPAIGN_CHANGED);
    const stream = await openStream(stack, token);
    expect(stream.status).toBe(200);
    await until('two connections', async () => (await metric(stack.metricsUrl, 'bff_live_connections')) >= 2);

    const third = client('websocket', token);
    expect((await third.subscribe(CAMPAIGN_CHANGED).ended).error).toMatchObject({ code: 4429 });
    const refused = await openStream(stack, token);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).errors[0].extensions.code).toBe('SUBSCRIPTION_LIMIT_EXCEEDED');

    await stream.body!.cancel();
    await until('the stream to be freed', async () => (await openStream(stack, token).then(async (r) => {
      const ok = r.status === 200;
      await r.body?.cancel();
      return ok;
    })));
    subA.unsubscribe();
  });

  it('frees everything when sockets close: no watcher, no reader, no more backend calls', async () => {
    const token = await newPartner(stack, 'store');
    const sockets = [client('websocket', token), client('sse', token)];
    for (const s of sockets) s.subscribe(CAMPAIGN_CHANGED);
    await until('both watchers', async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) >= 2);
    await nextPoll(stack.metricsUrl);
    await Promise.all(sockets.map((s) => s.close()));
    await until('no watcher left', async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) === 0);
    expect(await metric(stack.metricsUrl, 'bff_live_partners')).toBe(0);
    await until('no connection left', async () => (await metric(stack.metricsUrl, 'bff_live_connections')) === 0);
    await sleep(INTERVAL_MS);
    await stack.resetCalls();
    await sleep(INTERVAL_MS * 4);
    expect((await stack.calls())['campaigns/get-all-campaigns'] ?? 0).toBe(0);
  });
});

describe('graceful shutdown with open subscriptions', () => {
  it('completes every subscription, closes sockets with 1001 and ends streams, well within the grace period', async () => {
    const stack = await startStack({ env: { SUBSCRIPTION_POLL_INTERVAL_MS: String(INTERVAL_MS), SHUTDOWN_GRACE_MS: '10000' } });
    try {
      const token = await newPartner(stack, 'store');
      const ws = liveClient('websocket', stack.bffUrl, token, { keepOpen: true });
      const sse = liveClient('sse', stack.bffUrl, token);
      const overWs = ws.subscribe(CAMPAIGN_CHANGED);
      const overSse = sse.subscribe(CAMPAIGN_CHANGED);
      await until('both watchers', async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) >= 2);

      const started = Date.now();
      await stack.bff.close();
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await overWs.ended).toEqual({});
      expect(await overSse.ended).toEqual({});
      expect(await ws.closed).toMatchObject({ code: 1001 });
      await Promise.all([ws.close(), sse.close()]);
    } finally {
      await stack.close();
    }
  });
});
