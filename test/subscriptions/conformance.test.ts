import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { oneOffInput, createCampaign, newPartner } from '../graphql/support.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CAMPAIGN_CHANGED, liveClient, nextPoll, sleep, type LiveClient, type Transport } from './support.js';
import { numberOf } from '../helpers/ids.js';
import { needs } from '../helpers/needs.js';

const INTERVAL_MS = 150;

/**
 * One conformance suite for every variant of live status: each transport (graphql-ws over
 * WebSocket, graphql-sse) on each bus (in memory, Redis). Real servers on port 0, real clients.
 */
const variants: { transport: Transport; cache: 'memory' | 'redis' }[] = [
  { transport: 'websocket', cache: 'memory' },
  { transport: 'sse', cache: 'memory' },
  { transport: 'websocket', cache: 'redis' },
  { transport: 'sse', cache: 'redis' },
];

describe.each(variants.map((v) => ({ ...v, name: `${v.transport}, ${v.cache} bus` })))('campaignChanged over $name', ({ transport, cache }) => {
  let redis: RunningRedis | undefined;
  let stack: Stack;
  const clients: LiveClient[] = [];
  const client = (token: string | null) => {
    const c = liveClient(transport, stack.bffUrl, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    if (cache === 'redis') redis = await startRedis();
    stack = await startStack({
      emulator: { moderation: { mode: 'manual' } },
      env: {
        SUBSCRIPTION_POLL_INTERVAL_MS: String(INTERVAL_MS),
        SUBSCRIPTION_POLL_BACKOFF_MAX_MS: '600',
        BACKEND_BREAKER_HALF_OPEN_MS: '300',
        ...(redis ? { CACHE_URL: redis.url } : {}) },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stack?.close();
    await redis?.close();
  });

  it.skipIf(cache === 'redis' && !needs('redis-server'))('delivers every status change of a whole journey, and nothing to another partner', async () => {
    const store = await newPartner(stack, 'store');
    const other = await newPartner(stack, 'store');
    const mine = client(store).subscribe(CAMPAIGN_CHANGED);
    const theirs = client(other).subscribe(CAMPAIGN_CHANGED);
    await nextPoll(stack.metricsUrl);
    await nextPoll(stack.metricsUrl);

    // create: published by the mutation at once
    const start = new Date(Date.now() + 86_400_000).toISOString();
    const id = await createCampaign(stack, oneOffInput(501, { startsAt: start }), store);
    const [created] = await mine.waitFor(1);
    expect(created!.data.campaignChanged).toMatchObject({ campaign: { id, status: 'MODERATION' }, previousStatus: null, status: 'MODERATION' });
    expect(Number.isNaN(Date.parse(created!.data.campaignChanged.at))).toBe(false);

    // approved at the emulator: found by the poller; it waits for its start date
    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'approve' });
    const approved = (await mine.waitFor(2))[1]!;
    expect(approved.data.campaignChanged).toMatchObject({ campaign: { id, status: 'PAUSED' }, previousStatus: 'MODERATION', status: 'PAUSED' });

    // one pin, then the start date passes on the emulator's clock
    const pins = await stack.gql(`mutation ($input: AddPinsInput!) { addPins(input: $input) { userErrors { code } } }`, { input: { campaignId: id, pins: ['ONLYONE'] } }, store);
    expect(pins.body.data.addPins.userErrors).toEqual([]);
    await stack.admin('clock', { advanceMs: 86_400_000 + 60_000 });
    const started = (await mine.waitFor(3))[2]!;
    expect(started.data.campaignChanged).toMatchObject({ campaign: { id, status: 'STARTED' }, previousStatus: 'PAUSED', status: 'STARTED' });

    // a user takes the only pin: the pins ran out
    await stack.admin('accept', { ymCampaignId: numberOf(id) });
    const pinRequired = (await mine.waitFor(4))[3]!;
    expect(pinRequired.data.campaignChanged).toMatchObject({ campaign: { id, status: 'PIN_REQUIRED' }, previousStatus: 'STARTED', status: 'PIN_REQUIRED' });

    // stopped through this API: published at once, and not again by the next read
    const stop = await stack.gql(`mutation ($id: ID!) { stopCampaign(id: $id) { campaign { status } } }`, { id }, store);
    expect(stop.body.data.stopCampaign.campaign.status).toBe('PAUSED');
    const stopped = (await mine.waitFor(5))[4]!;
    expect(stopped.data.campaignChanged).toMatchObject({ campaign: { id, status: 'PAUSED' }, previousStatus: 'PIN_REQUIRED', status: 'PAUSED' });

    // The other partner tries to stop it: refused (FAIL_MERCHANT), and the refusal, which carries
    // the campaign's status, tells the other partner's watchers nothing.
    const foreign = await stack.gql(`mutation ($id: ID!) { stopCampaign(id: $id) { campaign { id } userErrors { code } } }`, { id }, other);
    expect(foreign.body.data.stopCampaign).toEqual({ campaign: null, userErrors: [{ code: 'FAIL_MERCHANT' }] });

    await nextPoll(stack.metricsUrl);
    await nextPoll(stack.metricsUrl);
    expect(mine.results).toHaveLength(5);
    expect(mine.results.every((r) => r.errors === undefined)).toBe(true);
    expect(theirs.results).toEqual([]);
    mine.unsubscribe();
    theirs.unsubscribe();
  });

  it.skipIf(cache === 'redis' && !needs('redis-server'))('watches only the ids asked for, and reads other campaign fields once per event for all watchers', async () => {
    const store = await newPartner(stack, 'store');
    const a = await createCampaign(stack, oneOffInput(601), store);
    const b = await createCampaign(stack, oneOffInput(602), store);
    const document = `subscription ($ids: [ID!]) { campaignChanged(ids: $ids) { status campaign { id status merchant { name } } } }`;
    const watchers = [client(store).subscribe(document, { ids: [b] }), client(store).subscribe(document, { ids: [b] })];
    await nextPoll(stack.metricsUrl);
    await nextPoll(stack.metricsUrl);
    await stack.resetCalls();
    await stack.admin('moderate', { ymCampaignId: numberOf(a), decision: 'decline' });
    await stack.admin('moderate', { ymCampaignId: numberOf(b), decision: 'decline' });
    for (const watcher of watchers) {
      const [event] = await watcher.waitFor(1);
      expect(event!.data.campaignChanged).toEqual({ status: 'DECLINED', campaign: { id: b, status: 'DECLINED', merchant: { name: 'Магазин' } } });
    }
    expect((await stack.calls())['campaigns/get']).toBe(1);
    await nextPoll(stack.metricsUrl);
    for (const watcher of watchers) {
      expect(watcher.results).toHaveLength(1);
      watcher.unsubscribe();
    }
  });

  it.skipIf(cache === 'redis' && !needs('redis-server'))('refuses a token the campaign API does not know, and a missing one', async () => {
    if (transport === 'websocket') {
      const bad = client('not-a-partner');
      const refused = await bad.subscribe(CAMPAIGN_CHANGED).ended;
      expect(refused.error).toMatchObject({ code: 4401 });
      const none = client(null);
      expect((await none.subscribe(CAMPAIGN_CHANGED).ended).error).toMatchObject({ code: 4401 });
    } else {
      for (const token of ['not-a-partner', null]) {
        const response = await fetch(`${stack.bffUrl}/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ query: CAMPAIGN_CHANGED }),
        });
        expect(response.status).toBe(401);
        expect(((await response.json()) as any).errors[0].extensions.code).toBe('UNAUTHENTICATED');
      }
    }
  });

  it.skipIf(cache === 'redis' && !needs('redis-server'))('keeps watchers while the backend fails, tells them nothing false, and catches up', async () => {
    const store = await newPartner(stack, 'store');
    const id = await createCampaign(stack, oneOffInput(701), store);
    const watch = client(store).subscribe(CAMPAIGN_CHANGED, { ids: [id] });
    await nextPoll(stack.metricsUrl);
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/get-all-campaigns' });
    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'decline' });
    await sleep(INTERVAL_MS * 4);
    expect(watch.results).toEqual([]);
    await stack.admin('faults', undefined, 'DELETE');
    const [event] = await watch.waitFor(1, 15_000);
    expect(event!.data.campaignChanged).toMatchObject({ previousStatus: 'MODERATION', status: 'DECLINED' });
    watch.unsubscribe();
  });

  it.skipIf(cache === 'redis' && !needs('redis-server'))('applies the query limits to subscription documents, and takes only subscriptions', async () => {
    const c = client(DEMO_TOKENS.store);
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: __typename`).join(' ');
    const refused = [
      c.subscribe(`subscription { campaignChanged { ${aliases} } }`),
      c.subscribe(CAMPAIGN_CHANGED, { ids: Array.from({ length: 101 }, (_, i) => String(i + 1)) }),
      c.subscribe(CAMPAIGN_CHANGED, { ids: ['x'] }),
      c.subscribe(`query { categories { id } }`),
    ];
    const codes = await Promise.all(refused.map(errorCode));
    expect(codes).toEqual(['GRAPHQL_VALIDATION_FAILED', 'SUBSCRIPTION_LIMIT_EXCEEDED', 'BAD_USER_INPUT', 'BAD_REQUEST']);
  });
});

/** The code of the error a refused subscription ended with (an `error` message, or a result with errors). */
async function errorCode(subscription: { ended: Promise<{ error?: unknown }>; results: { errors?: any[] }[] }): Promise<string | undefined> {
  const { error } = await subscription.ended;
  if (Array.isArray(error)) return error[0]?.extensions?.code;
  return subscription.results[0]?.errors?.[0]?.extensions?.code;
}

describe('a subscription sent as a plain HTTP request', () => {
  it('is refused with a code that says where subscriptions are served', async () => {
    const stack = await startStack();
    try {
      const { status, body } = await stack.gql(CAMPAIGN_CHANGED);
      expect(status).toBe(400);
      expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
      expect(body.errors?.[0].message).toMatch(/WebSocket .* \/graphql .* SSE .* \/graphql\/stream/);
    } finally {
      await stack.close();
    }
  });
});
