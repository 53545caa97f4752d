import { ApolloClient, HttpLink, InMemoryCache, gql, type TypePolicies } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignList, CampaignPins, OfferCards } from '../../client/src/documents.js';
import { createCache, typePolicies } from '../../client/src/type-policies.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid } from '../helpers/ids.js';

/**
 * The kit's cache policies with a real @apollo/client InMemoryCache, fed by the real server:
 * each case first shows what a cache without the policies does, then that the kit's cache keeps
 * the data.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
});
afterAll(() => stack?.close());

function clientWith(cache: InMemoryCache): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri: stack.bffUrl, headers: { authorization: `Bearer ${DEMO_TOKENS.store}` } }),
    cache,
  });
}

const DETAIL = gql`
  query Detail($id: ID!) {
    campaign(id: $id) {
      id
      merchant { name domain logoPngUrl }
      card { title description backgroundColor }
      discount { type amount label }
      appearance { backgroundColor fontColor }
      stats { shows accepts }
    }
  }
`;
const LIST = gql`
  query List {
    campaigns(first: 5) {
      nodes {
        id
        merchant { name }
        card { title }
        discount { label }
        appearance { fontColor }
        stats { redeems }
      }
    }
  }
`;

describe('id-less value types', () => {
  async function detailAfterList(cache: InMemoryCache) {
    const client = clientWith(cache);
    try {
      await client.query({ query: DETAIL, variables: { id: cid(1) } });
      await client.query({ query: LIST, fetchPolicy: 'network-only' });
      return cache.readQuery<any>({ query: DETAIL, variables: { id: cid(1) } });
    } finally {
      client.stop();
    }
  }

  it('without the kit, a list asking less of merchant, card, stats... makes the detail unreadable', async () => {
    expect(await detailAfterList(new InMemoryCache())).toBeNull();
  });

  it('with the kit, both answers merge and the detail is still read from the cache', async () => {
    const detail = await detailAfterList(createCache());
    expect(detail?.campaign).toMatchObject({
      id: cid(1),
      merchant: { name: expect.any(String), domain: expect.any(String), logoPngUrl: expect.stringMatching(/^https:/) },
      card: { title: expect.any(String), description: expect.any(String), backgroundColor: expect.stringMatching(/^#/) },
      discount: { type: expect.any(String), amount: expect.any(String), label: expect.any(String) },
      appearance: { backgroundColor: expect.any(String), fontColor: expect.any(String) },
      stats: { shows: expect.any(Number), accepts: expect.any(Number) },
    });
  });

  it('names every object type of the schema that has no id', async () => {
    const { body } = await stack.gql(`{ __schema { types { name kind fields { name } } } }`);
    const idLess = body.data.__schema.types
      .filter((t: any) => t.kind === 'OBJECT' && !t.name.startsWith('__') && !t.fields.some((f: any) => f.name === 'id'))
      .map((t: any) => t.name as string)
      .filter((name: string) => !['Query', 'Mutation', 'Subscription', 'PageInfo', 'UserError', 'Pin', 'Lead'].includes(name))
      .filter((name: string) => !/(Connection|Edge|Payload)$/.test(name));
    expect(Object.keys(typePolicies).filter((name) => (typePolicies[name] as { merge?: boolean }).merge === true).sort()).toEqual(
      expect.arrayContaining(idLess.sort()),
    );
  });
});

describe('connections read with nodes or edges', () => {
  async function twoPages<T>(cache: InMemoryCache, query: any, variables: Record<string, unknown>, endCursor: (data: any) => string) {
    const client = clientWith(cache);
    try {
      const first = await client.query<any>({ query, variables: { ...variables, first: 3 } });
      await client.query<any>({ query, variables: { ...variables, first: 3, after: endCursor(first.data) }, fetchPolicy: 'network-only' });
      return cache.readQuery<any>({ query, variables: { ...variables, first: 3 } }) as T;
    } finally {
      client.stop();
    }
  }
  const ids = (nodes: ({ id: string } | null)[]) => nodes.map((n) => n?.id);

  const BOTH = gql`
    query Both($first: Int, $after: String) {
      campaigns(first: $first, after: $after) { totalCount nodes { id status } edges { cursor node { id } } pageInfo { hasNextPage endCursor } }
    }`;

  it("Apollo's relayStylePagination merges edges but keeps only the last page of nodes", async () => {
    const relay: TypePolicies = { Query: { fields: { campaigns: relayStylePagination(['status']) } } };
    const data: any = await twoPages(new InMemoryCache({ typePolicies: relay }), BOTH, {}, (d) => d.campaigns.pageInfo.endCursor);
    expect(data.campaigns.edges.map((e: any) => e.node.id)).toEqual([1, 2, 3, 4, 5, 6].map(cid));
    expect(ids(data.campaigns.nodes)).toEqual([4, 5, 6].map(cid));
  });

  it('the kit appends pages to nodes and edges alike', async () => {
    const data: any = await twoPages(createCache(), BOTH, {}, (d) => d.campaigns.pageInfo.endCursor);
    expect(ids(data.campaigns.nodes)).toEqual([1, 2, 3, 4, 5, 6].map(cid));
    expect(data.campaigns.edges.map((e: any) => e.node.id)).toEqual([1, 2, 3, 4, 5, 6].map(cid));
  });

  it('the kit appends pages for a screen that reads nodes only', async () => {
    const data: any = await twoPages(createCache(), gql`
      query Nodes($first: Int, $after: String) {
        campaigns(first: $first, after: $after) { totalCount nodes { id status } pageInfo { hasNextPage endCursor } }
      }`, {}, (d) => d.campaigns.pageInfo.endCursor);
    expect(ids(data.campaigns.nodes)).toEqual([1, 2, 3, 4, 5, 6].map(cid));
    expect(data.campaigns.pageInfo.hasNextPage).toBe(true);
    expect(data.campaigns.totalCount).toBe(8);
  });

  it('the kit appends pages for a screen that reads edges, and keeps filters apart', async () => {
    const cache = createCache();
    const data: any = await twoPages(cache, CampaignList, {}, (d) => d.campaigns.pageInfo.endCursor);
    expect(data.campaigns.edges.map((e: any) => e.node.id)).toEqual([1, 2, 3, 4, 5, 6].map(cid));
    expect(new Set(data.campaigns.edges.map((e: any) => e.cursor)).size).toBe(6);

    const client = clientWith(cache);
    try {
      const started = await client.query<any>({ query: CampaignList, variables: { first: 3, status: 'STARTED' } });
      expect(started.data.campaigns.edges.map((e: any) => e.node.id)).toEqual([1, 3].map(cid));
    } finally {
      client.stop();
    }
    // The unfiltered list is untouched by the filtered one.
    const again = cache.readQuery<any>({ query: CampaignList, variables: { first: 3 } });
    expect(again.campaigns.edges).toHaveLength(6);
  });

  it('a screen reading edges after another paged nodes is answered by the server, never with an empty list', async () => {
    const cache = createCache();
    const sent: string[] = [];
    const client = new ApolloClient({
      link: new HttpLink({
        uri: stack.bffUrl,
        headers: { authorization: `Bearer ${DEMO_TOKENS.store}` },
        fetch: (input, init) => {
          sent.push(JSON.parse(String(init?.body)).operationName);
          return fetch(input, init);
        },
      }),
      cache,
    });
    try {
      const NODES = gql`
        query Nodes($first: Int, $after: String) {
          campaigns(first: $first, after: $after) { totalCount nodes { id status merchant { name } } pageInfo { hasNextPage endCursor } }
        }`;
      const first = await client.query<any>({ query: NODES, variables: { first: 3 } });
      await client.query({ query: NODES, variables: { first: 3, after: first.data.campaigns.pageInfo.endCursor }, fetchPolicy: 'network-only' });
      // The cache holds six campaigns without a cursor each: the edges shape is not there to serve.
      expect(cache.readQuery({ query: CampaignList, variables: { first: 3 } })).toBeNull();

      sent.length = 0;
      const list = await client.query({ query: CampaignList, variables: { first: 3 } });
      expect(sent).toEqual(['CampaignList']);
      expect(list.data!.campaigns!.totalCount).toBe(8);
      expect(list.data!.campaigns!.edges.map((e) => e.node?.id)).toEqual([1, 2, 3].map(cid));
      expect(list.data!.campaigns!.edges.every((e) => e.cursor.length > 0)).toBe(true);
      // Now the cache has the edges shape: the same screen again needs no request.
      sent.length = 0;
      await client.query({ query: CampaignList, variables: { first: 3 } });
      expect(sent).toEqual([]);
    } finally {
      client.stop();
    }
  });

  it('Campaign.pins pages the same way', async () => {
    const data: any = await twoPages(createCache(), CampaignPins, { id: cid(1), status: 'NEW_UNUSED' }, (d) => d.campaign.pins.pageInfo.endCursor);
    expect(data.campaign.pins.nodes).toHaveLength(6);
    expect(new Set(data.campaign.pins.nodes.map((p: any) => p.code)).size).toBe(6);
    expect(data.campaign.pins.totalCount).toBe(15);
  });

  it('a page read again without after starts the list again', async () => {
    const cache = createCache();
    const query = gql`query P($first: Int, $after: String) { campaigns(first: $first, after: $after) { nodes { id } pageInfo { endCursor hasNextPage } } }`;
    await twoPages(cache, query, {}, (d) => d.campaigns.pageInfo.endCursor);
    const client = clientWith(cache);
    try {
      await client.query({ query, variables: { first: 3 }, fetchPolicy: 'network-only' });
    } finally {
      client.stop();
    }
    expect(ids(cache.readQuery<any>({ query, variables: { first: 3 } }).campaigns.nodes)).toEqual([1, 2, 3].map(cid));
  });

  it('is generic: another connection field (offerFeed) is keyed by its own arguments', () => {
    const cache = createCache();
    const FEED = gql`query Feed($first: Int, $after: String, $categoryId: ID) {
      offerFeed(first: $first, after: $after, categoryId: $categoryId) { nodes { id } pageInfo { endCursor hasNextPage } } }`;
    const page = (ids: string[], endCursor: string) => ({
      offerFeed: { __typename: 'OfferConnection', nodes: ids.map((id) => ({ __typename: 'Offer', id })), pageInfo: { __typename: 'PageInfo', endCursor, hasNextPage: true } },
    });
    cache.writeQuery({ query: FEED, variables: { first: 2, categoryId: '1' }, data: page(['a', 'b'], 'c2') });
    cache.writeQuery({ query: FEED, variables: { first: 2, after: 'c2', categoryId: '1' }, data: page(['c', 'd'], 'c4') });
    cache.writeQuery({ query: FEED, variables: { first: 2, categoryId: '2' }, data: page(['x'], 'c1') });
    expect(ids(cache.readQuery<any>({ query: FEED, variables: { first: 2, categoryId: '1' } }).offerFeed.nodes)).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(cache.readQuery<any>({ query: FEED, variables: { first: 2, categoryId: '2' } }).offerFeed.nodes)).toEqual(['x']);
  });

  it("the kit's card feed (OfferCards, offerFeed) pages with fetchMore from the real server: the next page is appended", async () => {
    const cache = createCache();
    const client = clientWith(cache);
    try {
      const all = await stack.gql(`{ offerFeed(first: 100) { nodes { id } } }`);
      const everyId = all.body.data.offerFeed.nodes.map((n: { id: string }) => n.id);
      expect(everyId.length).toBeGreaterThanOrEqual(2);
      const first = await client.query({ query: OfferCards, variables: { first: 1 } });
      expect(first.data!.feed!.nodes.map((n) => n.id)).toEqual(everyId.slice(0, 1));
      const watched = client.watchQuery({ query: OfferCards, variables: { first: 1 } });
      await watched.fetchMore({ variables: { after: first.data!.feed!.pageInfo.endCursor } });
      const read = cache.readQuery({ query: OfferCards, variables: { first: 1 } });
      expect(read!.feed!.nodes.map((n) => n.id)).toEqual(everyId.slice(0, 2));
      expect(read!.feed!.categories.length).toBeGreaterThan(0);
    } finally {
      client.stop();
    }
  });
});

describe('campaign(id) from a list', () => {
  it('reads a campaign a list already cached without a request', async () => {
    const cache = createCache();
    const client = clientWith(cache);
    try {
      await client.query({ query: gql`{ campaigns(first: 3) { nodes { id status merchant { name } } } }` });
      await stack.resetCalls();
      const { data } = await client.query<any>({ query: gql`query One($id: ID!) { campaign(id: $id) { id status merchant { name } } }`, variables: { id: cid(2) } });
      expect(data.campaign).toMatchObject({ id: cid(2), status: 'PAUSED' });
      expect(await stack.calls()).toEqual({});
    } finally {
      client.stop();
    }
  });
});
