import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CAMPAIGN_CHANGED, liveClient, metric, until, type LiveClient, type Received, type Transport } from './support.js';
import { cid } from '../helpers/ids.js';

/**
 * Issue 14: "production limits (depth, cost, trusted documents where on) apply to subscription
 * documents too". With the kit's manifest as TRUSTED_DOCUMENTS and TRUSTED_DOCUMENTS_ONLY=true, a
 * subscription whose text is not in the manifest is refused for that subscription with a stable
 * code (WebSocket: an `error` message; SSE: a result with the error, then the end), and the kit's
 * campaignChanged document is accepted by its text, by `documentId` and by
 * `extensions.persistedQuery.sha256Hash`, over real sockets with graphql-ws's and graphql-sse's clients.
 */
const MANIFEST_FILE = fileURLToPath(new URL('../../client/src/gql/persisted-documents.json', import.meta.url));
const manifest: Record<string, string> = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8'));
const entry = (operation: string) => {
  const found = Object.entries(manifest).find(([, text]) => text.includes(`${operation}(`));
  if (!found) throw new Error(`the kit's manifest has no ${operation}`);
  return { id: found[0], hex: found[0].slice('sha256:'.length), text: found[1] };
};
const CHANGED = entry('subscription CampaignChanged');
const STOP = entry('mutation StopCampaign');
const START = entry('mutation StartCampaign');

let stack: Stack;
const clients: LiveClient[] = [];
beforeAll(async () => {
  stack = await startStack({
    emulator: { moderation: { mode: 'manual' } },
    env: { TRUSTED_DOCUMENTS: MANIFEST_FILE, TRUSTED_DOCUMENTS_ONLY: 'true' },
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await stack?.close();
});

/** A mutation of the manifest, by documentId (the only way a partner token runs one here). */
async function run(document: { id: string }, variables: Record<string, unknown>): Promise<any> {
  const response = await fetch(stack.bffUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
    body: JSON.stringify({ documentId: document.id, variables }),
  });
  const body: any = await response.json();
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

/** What refused a subscription: graphql-ws ends it with an `error` message, graphql-sse streams a result with the errors. */
async function refusal(transport: Transport, sub: { results: Received[]; ended: Promise<{ error?: unknown }> }): Promise<any[]> {
  const { error } = await sub.ended;
  if (transport === 'websocket') {
    expect(Array.isArray(error), String(error)).toBe(true);
    expect(sub.results).toEqual([]);
    return error as any[];
  }
  expect(error).toBeUndefined();
  expect(sub.results).toHaveLength(1);
  expect(sub.results[0]!.data).toBeUndefined();
  return sub.results[0]!.errors!;
}

describe.each<Transport>(['websocket', 'sse'])('trusted documents for subscriptions over %s (TRUSTED_DOCUMENTS_ONLY=true)', (transport) => {
  it('refuses a text outside the manifest and an unknown id, each with its code, and serves the manifest document by text, documentId and persisted-query hash', async () => {
    const client = liveClient(transport, stack.bffUrl, DEMO_TOKENS.store);
    clients.push(client);

    // Not in the manifest: the same subscription in other words.
    const outside = client.subscribe(CAMPAIGN_CHANGED, { ids: ['1'] });
    const [notTrusted] = await refusal(transport, outside);
    expect(notTrusted.extensions.code).toBe('TRUSTED_DOCUMENT_REQUIRED');
    expect(notTrusted.message).toMatch(/only trusted documents/);

    const unknown = client.subscribe('', { ids: ['1'] }, { extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } });
    const [notFound] = await refusal(transport, unknown);
    expect(notFound.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

    // The kit's document, three ways; the refusals above did not close anything.
    const before = await metric(stack.metricsUrl, 'bff_live_subscriptions');
    const accepted = [
      client.subscribe(CHANGED.text, { ids: ['1'] }),
      client.subscribe('', { ids: ['1'] }, { documentId: CHANGED.id }),
      client.subscribe('', { ids: ['1'] }, { extensions: { persistedQuery: { version: 1, sha256Hash: CHANGED.hex } } }),
    ];
    await until('three subscriptions', async () => (await metric(stack.metricsUrl, 'bff_live_subscriptions')) >= before + 3);

    // Campaign 1 runs: the first transport stops it, the second starts it again.
    const [document, field, status] = transport === 'websocket' ? [STOP, 'stopCampaign', 'PAUSED'] : [START, 'startCampaign', 'STARTED'];
    const answer = (await run(document, { id: '1' }))[field];
    expect(answer).toMatchObject({ userErrors: [], campaign: { id: cid(1), status } });
    for (const sub of accepted) {
      const [event] = await sub.waitFor(1);
      expect(event!.errors, JSON.stringify(event!.errors)).toBeUndefined();
      expect(event!.data.campaignChanged).toMatchObject({ __typename: 'CampaignStatusEvent', campaign: { __typename: 'Campaign', id: cid(1), status }, status });
      sub.unsubscribe();
    }
  });
});

describe('without TRUSTED_DOCUMENTS_ONLY', () => {
  let open: Stack;
  beforeAll(async () => {
    open = await startStack({ env: { TRUSTED_DOCUMENTS: MANIFEST_FILE } });
  });
  afterAll(() => open?.close());

  it.each<Transport>(['websocket', 'sse'])('%s: any text runs, a manifest id runs its document, an unknown id is PERSISTED_QUERY_NOT_FOUND', async (transport) => {
    const client = liveClient(transport, open.bffUrl, DEMO_TOKENS.store);
    clients.push(client);
    const unknown = client.subscribe('', undefined, { documentId: `sha256:${'0'.repeat(64)}` });
    const [notFound] = await refusal(transport, unknown);
    expect(notFound.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const before = await metric(open.metricsUrl, 'bff_live_subscriptions');
    const subs = [client.subscribe(CAMPAIGN_CHANGED, { ids: ['2'] }), client.subscribe('', { ids: ['2'] }, { documentId: CHANGED.id })];
    await until('two subscriptions', async () => (await metric(open.metricsUrl, 'bff_live_subscriptions')) >= before + 2);
    for (const sub of subs) sub.unsubscribe();
  });
});
