import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** A real client with its normalized cache, as a front end would use the API. */
describe('@apollo/client against the running server', () => {
  let stack: Stack;
  let client: ApolloClient;

  beforeAll(async () => {
    stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
    client = new ApolloClient({
      link: new HttpLink({ uri: stack.bffUrl, headers: { authorization: `Bearer ${DEMO_TOKENS.store}` } }),
      cache: new InMemoryCache(),
    });
  });
  afterAll(async () => {
    client?.stop();
    await stack?.close();
  });

  it('merges campaigns by id and __typename, and a mutation updates the cached campaign', async () => {
    const list = await client.query<any>({
      query: gql`
        query List {
          campaigns(first: 20, status: STARTED) {
            nodes { id status card { title discountLabel } }
          }
        }
      `,
    });
    const started = (list.data as any).campaigns.nodes[0];
    expect(started.status).toBe('STARTED');

    const detail = await client.query<any>({
      query: gql`
        query Detail($id: ID!) {
          campaign(id: $id) { id status merchant { name } }
        }
      `,
      variables: { id: started.id },
    });
    expect(detail.data!.campaign.id).toBe(started.id);
    // One normalized entry for the campaign, holding fields of both queries.
    const entry = (client.cache.extract() as Record<string, Record<string, unknown>>)[`Campaign:${started.id}`];
    expect(entry).toMatchObject({ id: started.id, status: 'STARTED' });
    expect(entry).toHaveProperty('card');
    expect(entry).toHaveProperty('merchant');

    const stopped = await client.mutate<any>({
      mutation: gql`
        mutation Stop($id: ID!) {
          stopCampaign(id: $id) { campaign { id status } userErrors { field message code } }
        }
      `,
      variables: { id: started.id },
    });
    expect(stopped.data!.stopCampaign.userErrors).toEqual([]);
    // No refetch: the payload's campaign updates the cached one in place.
    const cached = client.readQuery({
      query: gql`
        query Detail($id: ID!) {
          campaign(id: $id) { id status merchant { name } }
        }
      `,
      variables: { id: started.id },
    }) as { campaign: { status: string } };
    expect(cached.campaign.status).toBe('PAUSED');
  });
});
