import { ApolloClient } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CampaignChanged, CampaignDetail } from '../../client/src/documents.js';
import { createLink, type KitLink } from '../../client/src/link.js';
import { createCache } from '../../client/src/type-policies.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { metric, until } from '../subscriptions/support.js';

/**
 * The client guide's link (client/src/link.ts): queries and mutations over HTTP, the kit's
 * CampaignChanged over GraphQLWsLink. A campaign stopped by someone else (another screen, another
 * client) changes on a watched campaign page through the subscription alone: no refetch, no poll.
 */
let stack: Stack;
let kit: KitLink;
let client: ApolloClient;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
  kit = createLink({ uri: stack.bffUrl, token: DEMO_TOKENS.store, webSocketImpl: WebSocket });
  client = new ApolloClient({ link: kit.link, cache: createCache() });
});
afterAll(async () => {
  client?.stop();
  await kit?.ws.dispose();
  await stack?.close();
});

describe("the kit's split link", () => {
  it('reads over HTTP and receives campaignChanged over the WebSocket, which updates the cached campaign in place', async () => {
    const statuses: string[] = [];
    const page = client.watchQuery({ query: CampaignDetail, variables: { id: '1' } }).subscribe(({ data }) => {
      if (data?.campaign?.status) statuses.push(data.campaign.status);
    });
    await until('the campaign page', () => statuses.length > 0);
    expect(statuses).toEqual(['STARTED']);

    const events: string[] = [];
    const live = client.subscribe({ query: CampaignChanged, variables: { ids: ['1'] } }).subscribe(({ data }) => {
      if (data) events.push(`${data.campaignChanged.previousStatus}->${data.campaignChanged.status}`);
    });
    await until('the subscription on the server', async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) > 0);
    expect(await metric(stack.metricsUrl, 'bff_live_connections', 'transport="websocket"')).toBe(1);

    // Stopped elsewhere: not through this client, so only the event can tell the page.
    const stopped = await stack.gql(`mutation { stopCampaign(id: "1") { campaign { status } } }`);
    expect(stopped.body.data.stopCampaign.campaign.status).toBe('PAUSED');
    await until('the event', () => events.length > 0);
    expect(events).toEqual(['STARTED->PAUSED']);
    await until('the page to redraw', () => statuses.at(-1) === 'PAUSED');
    expect(statuses).toEqual(['STARTED', 'PAUSED']);
    live.unsubscribe();
    page.unsubscribe();
  });
});
