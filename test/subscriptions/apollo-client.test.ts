import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { isSubscriptionOperation } from '@apollo/client/utilities';
import { print } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { oneOffInput, newPartner } from '../graphql/support.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { nextPoll, streamUrl, until, wsUrl } from './support.js';
import { numberOf } from '../helpers/ids.js';

/** graphql-sse's client as an Apollo link (the pattern of graphql-sse's README). */
class SseLink extends ApolloLink {
  constructor(private readonly client: ReturnType<typeof createSseClient>) {
    super();
  }
  override request(operation: ApolloLink.Operation) {
    return new Observable<ApolloLink.Result>((sink) =>
      this.client.subscribe({ ...operation, query: print(operation.query) } as never, {
        next: (value) => sink.next(value as ApolloLink.Result),
        complete: () => sink.complete(),
        error: (error) => sink.error(error),
      }),
    );
  }
}

const CHANGED = gql`
  subscription Changed {
    campaignChanged { campaign { id status } previousStatus status at }
  }
`;
const DETAIL = gql`
  query Detail($id: ID!) {
    campaign(id: $id) { id status merchant { name } }
  }
`;

/**
 * Apollo Client 4 as a dashboard would set it up: queries and mutations over HTTP, subscriptions
 * over a split link. Each event updates the normalized `Campaign:<id>` in place, no refetch.
 */
describe.each(['websocket', 'sse'] as const)('@apollo/client with a split link, subscriptions over %s', (transport) => {
  let stack: Stack;
  let client: ApolloClient;
  let token: string;
  let dispose: () => void;

  beforeAll(async () => {
    stack = await startStack({ emulator: { moderation: { mode: 'manual' } }, env: { SUBSCRIPTION_POLL_INTERVAL_MS: '150' } });
    token = await newPartner(stack, 'store');
    const authorization = `Bearer ${token}`;
    let live: ApolloLink;
    if (transport === 'websocket') {
      const ws = createWsClient({ url: wsUrl(stack.bffUrl), webSocketImpl: WebSocket, connectionParams: { authorization } });
      live = new GraphQLWsLink(ws);
      dispose = () => void ws.dispose();
    } else {
      const sse = createSseClient({ url: streamUrl(stack.bffUrl), headers: { authorization } });
      live = new SseLink(sse);
      dispose = () => sse.dispose();
    }
    client = new ApolloClient({
      link: ApolloLink.split(({ query }) => isSubscriptionOperation(query), live, new HttpLink({ uri: stack.bffUrl, headers: { authorization } })),
      cache: new InMemoryCache(),
    });
  });
  afterAll(async () => {
    client?.stop();
    dispose?.();
    await stack?.close();
  });

  it('keeps the cached campaign current through a whole journey', async () => {
    const events: any[] = [];
    const subscription = client.subscribe<any>({ query: CHANGED }).subscribe({ next: (result) => events.push(result.data?.campaignChanged) });
    await nextPoll(stack.metricsUrl);

    const start = new Date(Date.now() + 86_400_000).toISOString();
    const created = await client.mutate<any>({
      mutation: gql`
        mutation Create($input: CreateCampaignInput!) {
          createCampaign(input: $input) { campaign { id status } userErrors { message } }
        }
      `,
      variables: { input: oneOffInput(801, { startsAt: start }) },
    });
    const id = created.data.createCampaign.campaign.id as string;
    await client.query({ query: DETAIL, variables: { id } });
    const cached = () => (client.cache.extract() as Record<string, any>)[`Campaign:${id}`]?.status;
    const watched: string[] = [];
    const watcher = client.watchQuery({ query: DETAIL, variables: { id }, fetchPolicy: 'cache-only' }).subscribe({
      next: (result: any) => {
        const status = result.data?.campaign?.status;
        if (status && status !== watched.at(-1)) watched.push(status);
      },
    });

    const step = async (count: number, status: string) => {
      await until(`event ${count} (${status})`, () => events.length >= count);
      expect(events[count - 1]).toMatchObject({ campaign: { id, status }, status });
      // The subscription result alone moved the normalized campaign.
      expect(cached()).toBe(status);
    };
    await step(1, 'MODERATION');
    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'approve' });
    await step(2, 'PAUSED');
    await client.mutate({
      mutation: gql`mutation Pins($input: AddPinsInput!) { addPins(input: $input) { campaign { id } userErrors { message } } }`,
      variables: { input: { campaignId: id, pins: ['LASTONE'] } },
    });
    await stack.admin('clock', { advanceMs: 86_400_000 + 60_000 });
    await step(3, 'STARTED');
    await stack.admin('accept', { ymCampaignId: numberOf(id) });
    await step(4, 'PIN_REQUIRED');
    await client.mutate({ mutation: gql`mutation Stop($id: ID!) { stopCampaign(id: $id) { campaign { id status } } }`, variables: { id } });
    await step(5, 'PAUSED');

    await until('the watched query to see every status', () => watched.at(-1) === 'PAUSED');
    expect(watched).toEqual(['MODERATION', 'PAUSED', 'STARTED', 'PIN_REQUIRED', 'PAUSED']);
    expect(events.map((e) => e.previousStatus)).toEqual([null, 'MODERATION', 'PAUSED', 'STARTED', 'PIN_REQUIRED']);
    watcher.unsubscribe();
    subscription.unsubscribe();
  });
});
