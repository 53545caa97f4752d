import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApolloClient } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CampaignChanged, CampaignDetail, StartCampaign, StopCampaign } from '../../client/src/documents.js';
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
  it('a hash the server does not hold is sent again as text, once', async () => {
    const bodies: { operationName?: string; query?: string; extensions?: { persistedQuery?: unknown } }[] = [];
    const own = createLink({
      uri: stack.bffUrl,
      token: DEMO_TOKENS.store,
      webSocketImpl: WebSocket,
      fetch: (input, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return fetch(input, init);
      },
    });
    const other = new ApolloClient({ link: own.link, cache: createCache() });
    try {
      const { data } = await other.query({ query: CampaignDetail, variables: { id: cid(2) } });
      expect(data!.campaign!.id).toBe(cid(2));
      expect(bodies.map((b) => [b.query === undefined ? 'hash' : 'text', b.extensions?.persistedQuery === undefined ? 'no hash' : 'hash'])).toEqual([
        ['hash', 'hash'],
        ['text', 'no hash'],
      ]);
    } finally {
      other.stop();
      await own.ws.dispose();
    }
  });
});
