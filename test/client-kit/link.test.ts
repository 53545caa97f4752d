import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApolloClient } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHash } from 'node:crypto';
import { printExecutableGraphQLDocument } from '@graphql-tools/documents';
import { parse } from 'graphql';
import { CampaignChanged, CampaignDetail, CampaignPins, StartCampaign, StopCampaign } from '../../client/src/documents.js';
import { createLink, type KitLink } from '../../client/src/link.js';
import { createCache } from '../../client/src/type-policies.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { partner, post } from '../apps/support.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { metric, until } from '../subscriptions/support.js';
import { cid } from '../helpers/ids.js';

/**
 * The client guide's link (client/src/link.ts): queries and mutations over HTTP, the kit's
 * CampaignChanged over GraphQLWsLink. A campaign stopped by someone else (another screen, another
 * client) changes on a watched campaign page through the subscription alone: no refetch, no poll.
 */
const kitManifest: Record<string, string> = JSON.parse(readFileSync(fileURLToPath(new URL('../../client/src/gql/persisted-documents.json', import.meta.url)), 'utf8'));
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
    const page = client.watchQuery({ query: CampaignDetail, variables: { id: cid(1) } }).subscribe(({ data }) => {
      if (data?.campaign?.status) statuses.push(data.campaign.status);
    });
    await until('the campaign page', () => statuses.length > 0);
    expect(statuses).toEqual(['STARTED']);

    const events: string[] = [];
    const live = client.subscribe({ query: CampaignChanged, variables: { ids: [cid(1)] } }).subscribe(({ data }) => {
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

describe("the kit's link on a server that runs trusted documents only", () => {
  const MANIFEST_FILE = fileURLToPath(new URL('../../client/src/gql/persisted-documents.json', import.meta.url));
  const manifest: Record<string, string> = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8'));
  const hashOf = (name: string) => Object.entries(manifest).find(([, text]) => text.includes(` ${name}(`))![0].slice('sha256:'.length);
  let strict: Stack;
  beforeAll(async () => {
    strict = await startStack({
      emulator: { moderation: { mode: 'manual' } },
      env: { NODE_ENV: 'production', CAMPAIGN_API_URL: 'http://127.0.0.1:1', TRUSTED_DOCUMENTS: MANIFEST_FILE, TRUSTED_DOCUMENTS_ONLY: 'true' },
    });
  });
  afterAll(() => strict?.close());

  /** A client on the kit's link whose HTTP request bodies are kept. */
  function kitClient(persistedDocuments?: boolean) {
    const bodies: { operationName?: string; query?: string; extensions?: { persistedQuery?: { sha256Hash?: string } } }[] = [];
    const kit = createLink({
      uri: strict.bffUrl,
      token: DEMO_TOKENS.store,
      webSocketImpl: WebSocket,
      ...(persistedDocuments === undefined ? {} : { persistedDocuments }),
      fetch: (input, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return fetch(input, init);
      },
    });
    return { kit, bodies, client: new ApolloClient({ link: kit.link, cache: createCache() }) };
  }

  it('queries and mutations go by their manifest hash alone, over HTTP', async () => {
    const { kit, bodies, client } = kitClient();
    try {
      const detail = await client.query({ query: CampaignDetail, variables: { id: cid(2) } });
      expect(detail.data!.campaign!.id).toBe(cid(2));
      const started = await client.mutate({ mutation: StartCampaign, variables: { id: cid(2) } });
      expect(started.data!.startCampaign.userErrors).toEqual([]);
      await client.mutate({ mutation: StopCampaign, variables: { id: cid(2) } });
      expect(bodies.map((b) => [b.operationName, b.query, b.extensions?.persistedQuery?.sha256Hash])).toEqual([
        ['CampaignDetail', undefined, hashOf('CampaignDetail')],
        ['StartCampaign', undefined, hashOf('StartCampaign')],
        ['StopCampaign', undefined, hashOf('StopCampaign')],
      ]);
    } finally {
      client.stop();
      await kit.ws.dispose();
    }
  });

  it('the subscription goes by its hash over the WebSocket, and its events update the cached campaign', async () => {
    const { kit, client } = kitClient();
    try {
      const statuses: string[] = [];
      const page = client.watchQuery({ query: CampaignDetail, variables: { id: cid(1) } }).subscribe(({ data }) => {
        if (data?.campaign?.status) statuses.push(data.campaign.status);
      });
      await until('the campaign page', () => statuses.length > 0);
      const events: string[] = [];
      const errors: unknown[] = [];
      const live = client.subscribe({ query: CampaignChanged, variables: { ids: [cid(1)] } }).subscribe({
        next: ({ data }) => {
          if (data) events.push(`${data.campaignChanged.previousStatus}->${data.campaignChanged.status}`);
        },
        error: (error) => errors.push(error),
      });
      await until('the subscription on the server', async () => errors.length > 0 || (await metric(strict.metricsUrl, 'bff_live_subscriptions')) > 0);
      expect(errors).toEqual([]);
      const stopped = await post(strict.bffUrl, { documentId: `sha256:${hashOf('StopCampaign')}`, variables: { id: cid(1) } }, partner(DEMO_TOKENS.store));
      expect(stopped.body.data.stopCampaign.campaign.status).toBe('PAUSED');
      await until('the event', () => events.length > 0);
      expect(events).toEqual(['STARTED->PAUSED']);
      await until('the page to redraw', () => statuses.at(-1) === 'PAUSED');
      live.unsubscribe();
      page.unsubscribe();
      await post(strict.bffUrl, { documentId: `sha256:${hashOf('StartCampaign')}`, variables: { id: cid(1) } }, partner(DEMO_TOKENS.store));
    } finally {
      client.stop();
      await kit.ws.dispose();
    }
  });

  it('sent as Apollo prints them (persistedDocuments: false), the same documents are refused on both transports', async () => {
    const { kit, client } = kitClient(false);
    try {
      const detail = await client.query({ query: CampaignDetail, variables: { id: cid(2) }, errorPolicy: 'all' });
      expect(JSON.stringify(detail.error)).toContain('TRUSTED_DOCUMENT_REQUIRED');
      const refused = await new Promise<unknown>((resolve) => {
        client.subscribe({ query: CampaignChanged, variables: { ids: [cid(1)] } }).subscribe({ next: resolve, error: resolve });
      });
      expect(JSON.stringify(refused)).toContain('TRUSTED_DOCUMENT_REQUIRED');
    } finally {
      client.stop();
      await kit.ws.dispose();
    }
  });
});

describe("the kit's link on a server without the manifest", () => {
  type Body = { operationName?: string; query?: string; extensions?: { persistedQuery?: { sha256Hash?: string } } };
  /** A client on its own link (a page load), whose HTTP request bodies are kept. */
  function pageLoad() {
    const bodies: Body[] = [];
    const own = createLink({
      uri: stack.bffUrl,
      token: DEMO_TOKENS.store,
      webSocketImpl: WebSocket,
      fetch: (input, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return fetch(input, init);
      },
    });
    const client = new ApolloClient({ link: own.link, cache: createCache() });
    const sent = () => bodies.splice(0).map((b) => `${b.query === undefined ? '' : 'text'}${b.query !== undefined && b.extensions?.persistedQuery ? '+' : ''}${b.extensions?.persistedQuery ? 'hash' : ''}`);
    const close = async () => {
      client.stop();
      await own.ws.dispose();
    };
    return { client, bodies, sent, close };
  }

  const PINS_HASH = (CampaignPins as { __meta__?: { hash: string } }).__meta__!.hash;

  it('a hash the server does not hold is sent with its manifest text once, which registers it: every later run is one request by hash', async () => {
    const first = pageLoad();
    try {
      const { data } = await first.client.query({ query: CampaignPins, variables: { id: cid(1), status: 'NEW_UNUSED', first: 1 } });
      expect(data!.campaign!.id).toBe(cid(1));
      const [miss, registered] = first.bodies;
      expect(first.sent()).toEqual(['hash', 'text+hash']);
      // The text sent with the hash is the manifest's, the one the hash names.
      expect(`sha256:${registered!.extensions!.persistedQuery!.sha256Hash}`).toBe(PINS_HASH);
      expect(registered!.query).toBe(kitManifest[PINS_HASH]);
      expect(miss!.query).toBeUndefined();
      await first.client.query({ query: CampaignPins, variables: { id: cid(1), status: 'NEW_UNUSED', first: 2 }, fetchPolicy: 'network-only' });
      expect(first.sent()).toEqual(['hash']);
    } finally {
      await first.close();
    }
    // Another page load: the server remembers it.
    const second = pageLoad();
    try {
      const { data } = await second.client.query({ query: CampaignPins, variables: { id: cid(1), status: 'NEW_UNUSED', first: 1 } });
      expect(data!.campaign!.id).toBe(cid(1));
      expect(second.sent()).toEqual(['hash']);
    } finally {
      await second.close();
    }
  });

  it('a subscription the server does not hold registers itself over the WebSocket, and its events arrive', async () => {
    const text = 'subscription TeamStatus($ids: [ID!]) { campaignChanged(ids: $ids) { __typename campaign { __typename id status } status } }';
    const normal = printExecutableGraphQLDocument(parse(text));
    const team = Object.assign(parse(text), { __meta__: { hash: `sha256:${createHash('sha256').update(normal).digest('hex')}` } });
    const page = pageLoad();
    try {
      const events: string[] = [];
      const errors: unknown[] = [];
      const live = page.client.subscribe({ query: team, variables: { ids: [cid(3)] } }).subscribe({
        next: ({ data }) => events.push((data as { campaignChanged: { status: string } }).campaignChanged.status),
        error: (error) => errors.push(error),
      });
      await until('the subscription on the server', async () => errors.length > 0 || (await metric(stack.metricsUrl, 'bff_live_subscriptions')) > 0);
      expect(errors).toEqual([]);
      expect((await stack.gql(`mutation { stopCampaign(id: "${cid(3)}") { campaign { status } } }`)).body.data.stopCampaign.campaign.status).toBe('PAUSED');
      await until('the event', () => events.length > 0);
      expect(events).toEqual(['PAUSED']);
      live.unsubscribe();
      await stack.gql(`mutation { startCampaign(id: "${cid(3)}") { campaign { status } } }`);
      // Registered: the server now knows the hash (over HTTP it answers that subscriptions are not served there).
      const byHash = await post(stack.bffUrl, { extensions: { persistedQuery: { version: 1, sha256Hash: team.__meta__.hash.slice('sha256:'.length) } } }, partner(DEMO_TOKENS.store));
      expect(byHash.body.errors[0].extensions.code).not.toBe('PERSISTED_QUERY_NOT_FOUND');
      expect(byHash.body.errors[0].message).toMatch(/^Subscriptions are served over WebSocket/);
    } finally {
      await page.close();
    }
  });

  it('a document whose text is not its hash’s goes as text alone, and from its second run as text alone at once', async () => {
    // A team's document built without the kit's codegen settings: its hash names another text.
    const elsewhere = Object.assign(parse('query Elsewhere { categories { id name } }'), { __meta__: { hash: `sha256:${'ab'.repeat(32)}` } });
    const page = pageLoad();
    try {
      const { data } = await page.client.query({ query: elsewhere });
      expect((data as { categories: unknown[] }).categories.length).toBeGreaterThan(0);
      expect(page.sent()).toEqual(['hash', 'text']);
      await page.client.query({ query: elsewhere, fetchPolicy: 'network-only' });
      expect(page.sent()).toEqual(['text']);
    } finally {
      await page.close();
    }
  });
});
