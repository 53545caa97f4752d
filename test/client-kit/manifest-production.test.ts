import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS, startEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { metric, until } from '../subscriptions/support.js';
import { cid } from '../helpers/ids.js';

/**
 * The kit's manifest (client/src/gql/persisted-documents.json, as `npm run client:codegen` writes
 * it) deployed as the server's TRUSTED_DOCUMENTS: the built entry in production (NODE_ENV=production,
 * a separate campaign API, app keys from APP_KEYS_FILE) runs every document of the manifest by
 * `documentId` and by APQ hash with the credentials its screen has (the app key for the card feed,
 * the partner token for the others; the subscription over WebSocket), with no errors; and an app
 * key is refused a document that is not in the manifest.
 */
const MANIFEST_FILE = fileURLToPath(new URL('../../client/src/gql/persisted-documents.json', import.meta.url));
const manifest: Record<string, string> = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8'));
const APP_KEY = 'ios-kit-test';

const dir = mkdtempSync(join(tmpdir(), 'kit-manifest-'));
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let bff: BuiltEntry;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
  const keysFile = join(dir, 'app-keys.json');
  writeFileSync(keysFile, JSON.stringify({ [APP_KEY]: { name: 'Kit test app', partnerTokens: [DEMO_TOKENS.store] } }));
  bff = await startBuiltEntry({
    env: { NODE_ENV: 'production', CAMPAIGN_API_URL: emulator.url, APP_KEYS_FILE: keysFile, TRUSTED_DOCUMENTS: MANIFEST_FILE },
  });
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

const operationOf = (text: string) => /\b(query|mutation|subscription) (\w+)/.exec(text)!.slice(1) as [string, string];

/** What each document is run with: its screen's credentials and variables. */
const RUNS: Record<string, { as: 'app' | 'partner'; variables: Record<string, unknown>; check(data: any): void }> = {
  OfferCards: { as: 'app', variables: { first: 20 }, check: (d) => expect(d.feed.nodes.length).toBeGreaterThan(0) },
  Categories: { as: 'partner', variables: {}, check: (d) => expect(d.categories.length).toBeGreaterThan(0) },
  CampaignList: { as: 'partner', variables: { first: 5 }, check: (d) => expect(d.campaigns.edges.length).toBeGreaterThan(0) },
  CampaignDetail: { as: 'partner', variables: { id: '1' }, check: (d) => expect(d.campaign.id).toBe(cid(1)) },
  CampaignPins: { as: 'partner', variables: { id: '1', status: 'NEW_UNUSED', first: 5 }, check: (d) => expect(d.campaign.pins.totalCount).toBeGreaterThanOrEqual(0) },
  // Campaign 1 runs: stopped, then started again (each way of naming the document does both).
  StopCampaign: { as: 'partner', variables: { id: '1' }, check: (d) => expect(d.stopCampaign).toMatchObject({ userErrors: [], campaign: { id: cid(1), status: 'PAUSED' } }) },
  StartCampaign: { as: 'partner', variables: { id: '1' }, check: (d) => expect(d.startCampaign).toMatchObject({ userErrors: [], campaign: { id: cid(1), status: 'STARTED' } }) },
};
const ORDER = ['OfferCards', 'Categories', 'CampaignList', 'CampaignDetail', 'CampaignPins', 'StopCampaign', 'StartCampaign'];

const credentials = (as: 'app' | 'partner'): Record<string, string> => (as === 'app' ? { 'x-app-key': APP_KEY } : { authorization: `Bearer ${DEMO_TOKENS.store}` });

async function post(headers: Record<string, string>, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(bff.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** The subscription, over WebSocket: accepted (it waits for events), then a stop through the API delivers one. */
async function subscribeAndStop(payload: Record<string, unknown>): Promise<any> {
  const client = createClient({ url: bff.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${DEMO_TOKENS.store}` }, retryAttempts: 0 });
  try {
    const before = await metric(bff.metricsUrl, 'bff_live_subscriptions');
    const iterator = client.iterate({ query: '', variables: { ids: ['1'] }, ...payload } as any);
    let ended: unknown;
    const first = iterator.next();
    // A refused subscription ends at once (the iterator throws the errors); an accepted one is counted.
    first.catch((error: unknown) => (ended = error));
    await until('the subscription', async () => ended !== undefined || (await metric(bff.metricsUrl, 'bff_live_subscriptions')) > before);
    if (ended !== undefined) throw new Error(`the subscription was refused: ${JSON.stringify(ended)}`);
    const stopped = await post(credentials('partner'), { documentId: idOf('StopCampaign'), variables: { id: '1' } });
    expect(stopped.body.errors).toBeUndefined();
    const { value } = await first;
    await post(credentials('partner'), { documentId: idOf('StartCampaign'), variables: { id: '1' } });
    await iterator.return?.();
    return value;
  } finally {
    await client.dispose();
  }
}

const idOf = (name: string) => Object.entries(manifest).find(([, text]) => operationOf(text)[1] === name)![0];

describe("the kit's manifest as the server's TRUSTED_DOCUMENTS (production, built entry)", () => {
  it('lists exactly the documents run here', () => {
    const names = Object.values(manifest).map((text) => operationOf(text)[1]).sort();
    expect(names).toEqual([...ORDER, 'CampaignChanged'].sort());
    expect(bff.logs()).toContainEqual(expect.objectContaining({ msg: 'started', mode: 'production' }));
  });

  it.each([
    ['documentId', (key: string) => ({ documentId: key })],
    ['APQ hash', (key: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: key.slice('sha256:'.length) } } })],
  ] as const)('runs every query and mutation of the manifest by %s with no errors', async (_how, naming) => {
    for (const name of ORDER) {
      const run = RUNS[name]!;
      const answer = await post(credentials(run.as), { ...naming(idOf(name)), variables: run.variables });
      expect(answer.body.errors, `${name}: ${JSON.stringify(answer.body.errors)}`).toBeUndefined();
      expect(answer.status, name).toBe(200);
      run.check(answer.body.data);
    }
  });

  it.each([
    ['documentId', { documentId: idOf('CampaignChanged') }],
    ['APQ hash', { extensions: { persistedQuery: { version: 1, sha256Hash: idOf('CampaignChanged').slice('sha256:'.length) } } }],
  ] as const)('runs the subscription of the manifest by %s over WebSocket with the partner token', async (_how, payload) => {
    const event = await subscribeAndStop(payload);
    expect(event.errors).toBeUndefined();
    expect(event.data.campaignChanged).toMatchObject({ campaign: { id: cid(1), status: 'PAUSED' }, previousStatus: 'STARTED', status: 'PAUSED' });
  });

  it('an app key is refused a document outside the manifest (403 TRUSTED_DOCUMENT_REQUIRED), and an unknown id (400 PERSISTED_QUERY_NOT_FOUND)', async () => {
    const outside = await post(credentials('app'), { query: '{ offerFeed(first: 1) { totalCount } }' });
    expect(outside.status).toBe(403);
    expect(outside.body.errors[0].extensions.code).toBe('TRUSTED_DOCUMENT_REQUIRED');
    const unknown = await post(credentials('app'), { documentId: `sha256:${'0'.repeat(64)}`, variables: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    // The kit's feed document sent as its text is the manifest's document: it runs.
    const text = await post(credentials('app'), { query: manifest[idOf('OfferCards')], variables: { first: 1 } });
    expect(text.body.errors).toBeUndefined();
    expect(text.body.data.feed.nodes).toHaveLength(1);
  });
});
