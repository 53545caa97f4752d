import { types } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { app, DEMO_APP, FEED, partner, post, startedIds } from '../apps/support.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { campaignOf, numberOf } from '../helpers/ids.js';
import { CAMPAIGN_CHANGED, liveClient, metric, until, type LiveClient } from '../subscriptions/support.js';

/**
 * The campaign API client announces its writes, and the offer feed and live status follow them:
 * whoever writes through the BFF's client, not only a mutation's resolver. Real servers on port 0.
 */
describe("writes through the BFF's campaign API client", () => {
  let stack: Stack;
  const clients: LiveClient[] = [];

  beforeAll(async () => {
    // Statuses are read once a minute: a change reaches a watcher in time only if it is published.
    stack = await startStack({ appKeys: DEMO_APP, env: { SUBSCRIPTION_POLL_INTERVAL_MS: '60000', SUBSCRIPTION_POLL_BACKOFF_MAX_MS: '60000' } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stack?.close();
  });

  const feedIds = async (): Promise<string[]> => (await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, app())).body.data.offerFeed.nodes.map((n: { id: string }) => campaignOf(n.id));

  it('made from outside any resolver, refresh the feed and reach the subscribers at once', async () => {
    const token = DEMO_TOKENS.store;
    const [target] = await startedIds(stack.bffUrl, token);
    expect(target).toBeDefined();
    const before = await feedIds();
    expect(before).toContain(target);
    const client = liveClient('websocket', stack.bffUrl, token);
    clients.push(client);
    const events = client.subscribe(CAMPAIGN_CHANGED, { ids: [target] });
    // The watcher's first read sets what later changes are told against.
    await until('the first status read', async () => (await metric(stack.metricsUrl, 'bff_live_polls_total', 'outcome="success"')) >= 1);

    await stack.bff.api.stop(token, { ymCampaignId: numberOf(target!) });
    expect(await feedIds()).toEqual(before.filter((id) => id !== target));
    const [stopped] = await events.waitFor(1);
    expect(stopped!.data.campaignChanged).toMatchObject({ campaign: { id: target, status: 'PAUSED' }, previousStatus: 'STARTED', status: 'PAUSED' });

    await stack.bff.api.start(token, { ymCampaignId: numberOf(target!) });
    expect(await feedIds()).toEqual(before);
    expect((await events.waitFor(2))[1]!.data.campaignChanged).toMatchObject({ previousStatus: 'PAUSED', status: 'STARTED' });
    events.unsubscribe();
  });

  it("a mutation's resolver calls the BFF's client itself, not a wrapper of it", async () => {
    const api = stack.bff.api;
    expect(types.isProxy(api)).toBe(false);
    const [target] = await startedIds(stack.bffUrl, DEMO_TOKENS.store);
    // A pass-through that records: seen only by whoever calls the client object at call time.
    const stop = api.stop;
    const called: number[] = [];
    api.stop = function (this: typeof api, ...args) {
      called.push(args[1].ymCampaignId);
      return stop.apply(this, args);
    };
    try {
      const answer = await post(stack.bffUrl, { query: `mutation ($id: ID!) { stopCampaign(id: $id) { campaign { status } } }`, variables: { id: target } }, partner(DEMO_TOKENS.store));
      expect(answer.body.data.stopCampaign.campaign.status).toBe('PAUSED');
      expect(called).toEqual([numberOf(target!)]);
    } finally {
      api.stop = stop;
      await api.start(DEMO_TOKENS.store, { ymCampaignId: numberOf(target!) });
    }
  });
});
