import { ApolloClient, HttpLink, gql, type InMemoryCache } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignList, StartCampaign, StopCampaign } from '../../client/src/documents.js';
import { createLink } from '../../client/src/link.js';
import { keepCampaignLists } from '../../client/src/list-updates.js';
import { createCache } from '../../client/src/type-policies.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { promoInput } from '../graphql/support.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid } from '../helpers/ids.js';
import { until } from '../subscriptions/support.js';
import WebSocket from 'ws';

/**
 * Lists after a create, a start and a stop, through a real InMemoryCache fed by the real server:
 * each cached list (unfiltered, and per status) reads what the server answers for it right after
 * the mutation, with no request but the mutation's.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
});
afterAll(() => stack?.close());

const LIST = gql`
  query Campaigns($first: Int, $after: String, $status: CampaignStatus) {
    campaigns(first: $first, after: $after, status: $status) { totalCount nodes { id ymCampaignId status } pageInfo { hasNextPage endCursor } }
  }
`;
const CREATE = gql`
  mutation CreateCampaign($input: CreateCampaignInput!) {
    createCampaign(input: $input) { campaign { id ymCampaignId status } userErrors { field message code } }
  }
`;

interface ListData {
  campaigns: { totalCount: number; nodes: { id: string; status: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } | null;
}

/** A client on the kit's cache whose requests are counted by operation name. */
function kitClient(): { client: ApolloClient; cache: InMemoryCache; sent: string[] } {
  const cache = createCache();
  const sent: string[] = [];
  const client = new ApolloClient({
    cache,
    link: new HttpLink({
      uri: stack.bffUrl,
      headers: { authorization: `Bearer ${DEMO_TOKENS.store}` },
      fetch: (input, init) => {
        sent.push(JSON.parse(String(init?.body)).operationName);
        return fetch(input, init);
      },
    }),
  });
  return { client, cache, sent };
}

/** What the server answers for a list now, as `{ totalCount, ids }`. */
async function served(status?: string): Promise<{ totalCount: number; ids: string[] }> {
  const { body } = await stack.gql<ListData>(
    `query ($status: CampaignStatus) { campaigns(first: 100, status: $status) { totalCount nodes { id } } }`,
    status ? { status } : {},
  );
  return { totalCount: body.data!.campaigns!.totalCount, ids: body.data!.campaigns!.nodes.map((n) => n.id) };
}

function cached(cache: InMemoryCache, status?: string): { totalCount: number; ids: string[] } | undefined {
  const data = cache.readQuery<ListData>({ query: LIST, variables: { first: 100, ...(status ? { status } : {}) } });
  return data?.campaigns ? { totalCount: data.campaigns.totalCount, ids: data.campaigns.nodes.map((n) => n.id) } : undefined;
}

const FILTERS = [undefined, 'STARTED', 'PAUSED', 'MODERATION'] as const;

describe('lists after a start and a stop', () => {
  it('a stopped campaign leaves the STARTED list and joins the PAUSED one at its place, totals included; started again, it goes back', async () => {
    const { client, cache, sent } = kitClient();
    try {
      for (const status of FILTERS) await client.query({ query: LIST, variables: { first: 100, ...(status ? { status } : {}) } });
      expect(cached(cache, 'STARTED')!.ids).toContain(cid(1));
      expect(cached(cache, 'PAUSED')!.ids).not.toContain(cid(1));

      sent.length = 0;
      const stopped = await client.mutate({ mutation: StopCampaign, variables: { id: cid(1) }, update: keepCampaignLists });
      expect(stopped.data!.stopCampaign.campaign!.status).toBe('PAUSED');
      for (const status of FILTERS) expect(cached(cache, status), status ?? 'all').toEqual(await served(status));
      expect(cached(cache, 'PAUSED')!.ids[0]).toBe(cid(1)); // oldest first, by ymCampaignId

      await client.mutate({ mutation: StartCampaign, variables: { id: cid(1) }, update: keepCampaignLists });
      for (const status of FILTERS) expect(cached(cache, status), status ?? 'all').toEqual(await served(status));
      // Both answered from the cache: the mutations were the only requests.
      for (const status of FILTERS) await client.query({ query: LIST, variables: { first: 100, ...(status ? { status } : {}) } });
      expect(sent).toEqual(['StopCampaign', 'StartCampaign']);
    } finally {
      client.stop();
    }
  });

  it('a status changed by a subscription event (written to Campaign:<id>) leaves the lists of the old status with no update at all', async () => {
    const { client, cache } = kitClient();
    try {
      await client.query({ query: LIST, variables: { first: 100, status: 'STARTED' } });
      const before = cached(cache, 'STARTED')!;
      expect(before.ids).toContain(cid(3));
      // What GraphQLWsLink writes for a campaignChanged event selecting campaign { id status }.
      cache.writeFragment({ id: cache.identify({ __typename: 'Campaign', id: cid(3) }), fragment: gql`fragment Status on Campaign { status }`, data: { status: 'PAUSED' } });
      expect(cached(cache, 'STARTED')).toEqual({ totalCount: before.totalCount - 1, ids: before.ids.filter((id) => id !== cid(3)) });
      cache.writeFragment({ id: cache.identify({ __typename: 'Campaign', id: cid(3) }), fragment: gql`fragment Status on Campaign { status }`, data: { status: 'STARTED' } });
      expect(cached(cache, 'STARTED')).toEqual(before);
    } finally {
      client.stop();
    }
  });

  it("a list read through edges with cursors (the kit's CampaignList) is read again from the server once a campaign joins it", async () => {
    const { client, sent } = kitClient();
    try {
      const before = await client.query({ query: CampaignList, variables: { first: 100, status: 'PAUSED' } });
      expect(before.data!.campaigns!.edges.map((e) => e.node?.id)).not.toContain(cid(3));
      await client.mutate({ mutation: StopCampaign, variables: { id: cid(3) }, update: keepCampaignLists });
      sent.length = 0;
      const after = await client.query({ query: CampaignList, variables: { first: 100, status: 'PAUSED' } });
      expect(sent).toEqual(['CampaignList']);
      expect(after.data!.campaigns!.edges.map((e) => e.node?.id)).toEqual((await served('PAUSED')).ids);
      expect(after.data!.campaigns!.totalCount).toBe((await served('PAUSED')).totalCount);
      await client.mutate({ mutation: StartCampaign, variables: { id: cid(3) }, update: keepCampaignLists });
    } finally {
      client.stop();
    }
  });
});

describe('lists after a create', () => {
  it('the new campaign joins the unfiltered list and the list of its status, totals included', async () => {
    const { client, cache, sent } = kitClient();
    try {
      for (const status of FILTERS) await client.query({ query: LIST, variables: { first: 100, ...(status ? { status } : {}) } });
      sent.length = 0;
      const created = await client.mutate({ mutation: CREATE, variables: { input: promoInput(91_001) }, update: keepCampaignLists });
      const campaign = (created.data as { createCampaign: { campaign: { id: string; status: string } } }).createCampaign.campaign;
      expect(campaign.status).toBe('MODERATION');
      for (const status of FILTERS) expect(cached(cache, status), status ?? 'all').toEqual(await served(status));
      expect(cached(cache)!.ids.at(-1)).toBe(campaign.id);
      expect(cached(cache, 'MODERATION')!.ids).toContain(campaign.id);
      expect(sent).toEqual(['CreateCampaign']);
    } finally {
      client.stop();
    }
  });

  it('a list paged part of the way counts the new campaign, and paging on reaches it once', async () => {
    const { client, cache } = kitClient();
    try {
      const first = await client.query<ListData>({ query: LIST, variables: { first: 3 } });
      expect(first.data!.campaigns!.pageInfo.hasNextPage).toBe(true);
      const created = await client.mutate({ mutation: CREATE, variables: { input: promoInput(91_002) }, update: keepCampaignLists });
      const id = (created.data as { createCampaign: { campaign: { id: string } } }).createCampaign.campaign.id;
      const read = () => cache.readQuery<ListData>({ query: LIST, variables: { first: 3 } })!.campaigns!;
      expect(read().totalCount).toBe((await served()).totalCount);
      expect(read().nodes.map((n) => n.id)).toEqual(first.data!.campaigns!.nodes.map((n) => n.id));
      const watched = client.watchQuery({ query: LIST, variables: { first: 3 } });
      while (read().pageInfo.hasNextPage) await watched.fetchMore({ variables: { after: read().pageInfo.endCursor } });
      expect(read().nodes.map((n) => n.id)).toEqual((await served()).ids);
      expect(read().nodes.filter((n) => n.id === id)).toHaveLength(1);
    } finally {
      client.stop();
    }
  });
});

describe("a create on a list paged part of the way, with the kit's link", () => {
  /** A team's dashboard list: more of each campaign than a create's payload selects. */
  const TEAM_LIST = gql`
    query TeamList($first: Int, $after: String) {
      campaigns(first: $first, after: $after) { totalCount nodes { id ymCampaignId status merchant { name } } pageInfo { hasNextPage endCursor } }
    }
  `;
  const CREATE_WITH_MERCHANT = gql`
    mutation CreateWithMerchant($input: CreateCampaignInput!) {
      createCampaign(input: $input) { campaign { id ymCampaignId status merchant { name } } userErrors { field message code } }
    }
  `;

  function linkedClient() {
    const sent: string[] = [];
    const kit = createLink({
      uri: stack.bffUrl,
      token: DEMO_TOKENS.store,
      webSocketImpl: WebSocket,
      fetch: (input, init) => {
        const body = JSON.parse(String(init?.body));
        sent.push(body.operationName);
        return fetch(input, init);
      },
    });
    const client = new ApolloClient({ cache: createCache(), link: kit.link });
    return { client, sent, close: async () => (client.stop(), await kit.ws.dispose()) };
  }

  /** Watches `query` with `first: 3`, loads more until every page is there, and keeps what the screen draws after each change. */
  async function loadedAll<T>(client: ApolloClient, query: typeof TEAM_LIST, ids: (data: T) => string[], endOf: (data: T) => { hasNextPage: boolean; endCursor: string | null }) {
    const drawn: string[][] = [];
    const watch = client.watchQuery<T>({ query, variables: { first: 3 } });
    const subscription = watch.subscribe(({ data }) => {
      if (data) drawn.push(ids(data as T));
    });
    await until('the first page', () => drawn.length > 0);
    // Loads more until every page is there (8 campaigns on a fresh server: load more twice).
    while (endOf(watch.getCurrentResult().data as T).hasNextPage) {
      const rows = drawn.at(-1)!.length;
      await watch.fetchMore({ variables: { after: endOf(watch.getCurrentResult().data as T).endCursor } });
      await until('the next page on the screen', () => drawn.at(-1)!.length > rows);
    }
    return { drawn, watch, subscription };
  }

  it('a payload with id, number and status keeps the loaded pages and adds the new campaign, reading only its fields', async () => {
    const { client, sent, close } = linkedClient();
    type Data = { campaigns: { nodes: { id: string; merchant: { name: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
    try {
      const { drawn, subscription } = await loadedAll<Data>(client, TEAM_LIST, (d) => d.campaigns.nodes.map((n) => n.id), (d) => d.campaigns.pageInfo);
      expect(drawn.at(-1)).toEqual((await served()).ids);
      sent.length = 0;
      const created = await client.mutate({ mutation: CREATE, variables: { input: promoInput(91_101) }, update: keepCampaignLists });
      const id = (created.data as { createCampaign: { campaign: { id: string } } }).createCampaign.campaign.id;
      await until('the new campaign on the screen', () => drawn.at(-1)!.includes(id));
      expect(drawn.at(-1)).toEqual((await served()).ids);
      // Never fewer rows than loaded: no page was thrown away.
      const loaded = drawn.at(-2)!.length;
      expect(Math.min(...drawn.slice(drawn.findIndex((d) => d.length === loaded)).map((d) => d.length))).toBe(loaded);
      expect(sent).toEqual(['CreateCampaign', 'KitPlacedCampaignNode']);
      subscription.unsubscribe();
    } finally {
      await close();
    }
  });

  it("the kit's CampaignList (edges with cursors) keeps its pages too, and the new edge gets its cursor from the server", async () => {
    const { client, sent, close } = linkedClient();
    type Data = { campaigns: { edges: { cursor: string; node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
    try {
      const { drawn, watch, subscription } = await loadedAll<Data>(client, CampaignList as never, (d) => d.campaigns.edges.map((e) => e.node.id), (d) => d.campaigns.pageInfo);
      expect(drawn.at(-1)).toEqual((await served()).ids);
      sent.length = 0;
      const created = await client.mutate({ mutation: CREATE_WITH_MERCHANT, variables: { input: promoInput(91_102) }, update: keepCampaignLists });
      const id = (created.data as { createCampaign: { campaign: { id: string } } }).createCampaign.campaign.id;
      await until('the new campaign on the screen', () => drawn.at(-1)!.includes(id));
      expect(drawn.at(-1)).toEqual((await served()).ids);
      expect(sent).toEqual(['CreateWithMerchant', 'KitPlacedCampaign']);
      const edges = (watch.getCurrentResult().data as Data).campaigns.edges;
      const served1 = await stack.gql(`{ campaigns(first: 100) { edges { cursor node { id } } } }`);
      expect(edges.at(-1)!.cursor).toBe(served1.body.data.campaigns.edges.at(-1).cursor);
      subscription.unsubscribe();
    } finally {
      await close();
    }
  });
});
