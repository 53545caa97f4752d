import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { DEMO_APP_KEY, app, get, partner, post, type Answer } from '../apps/support.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { cid } from '../helpers/ids.js';

/**
 * Trying the kit and the apps on `npm start` (the built entry, the embedded emulator, development):
 * the kit's manifest is served, so its documents run by `documentId`; an app's feed read by GET
 * gets the same HTTP caching whichever way it names its document; and a manifest in Apollo's
 * persisted-query format (what Apollo iOS and Apollo Kotlin generate) is read as well as the
 * client preset's.
 */
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const KIT_MANIFEST: Record<string, string> = JSON.parse(readFileSync(fileURLToPath(new URL('../../client/src/gql/persisted-documents.json', import.meta.url)), 'utf8'));
const kitId = (name: string) => Object.entries(KIT_MANIFEST).find(([, text]) => new RegExp(`\\b(?:query|mutation) ${name}\\b`).test(text))![0];

/** The three ways an app names its feed document in a GET, as search parameters. */
function namings(id: string, text: string): Record<'documentId' | 'APQ hash' | 'query text', Record<string, string>> {
  return {
    documentId: { documentId: id },
    'APQ hash': { extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: id.replace(/^sha256:/, '') } }) },
    'query text': { query: text },
  };
}

/** Reads the feed by GET each way and checks the answers carry the same caching: the same ETag, and 304 for another way's ETag. */
async function sameCachingEachWay(url: string, id: string, text: string, variables: Record<string, unknown>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const [how, params] of Object.entries(namings(id, text))) {
    const answer = await get(url, { ...params, variables: JSON.stringify(variables) }, app(APP_KEY));
    expect(answer.status, `${how}: ${answer.text.slice(0, 300)}`).toBe(200);
    expect(answer.body.errors, how).toBeUndefined();
    answers.push(answer);
  }
  for (const answer of answers) {
    expect(answer.headers['cache-control']).toBe('public, max-age=10, stale-while-revalidate=30');
    expect(answer.headers.vary).toMatch(/^Origin, X-App-Key, Accept(?:, Accept-Encoding)?$/);
    expect(answer.headers.etag).toBe(answers[0]!.headers.etag);
    expect(answer.text).toBe(answers[0]!.text);
  }
  for (const [how, params] of Object.entries(namings(id, text))) {
    const again = await get(url, { ...params, variables: JSON.stringify(variables) }, { ...app(APP_KEY), 'if-none-match': answers[0]!.headers.etag! });
    expect(again.status, how).toBe(304);
  }
  return answers;
}

let APP_KEY = DEMO_APP_KEY;

describe('npm start (the built entry on the embedded emulator)', () => {
  let bff: BuiltEntry;
  beforeAll(async () => {
    APP_KEY = DEMO_APP_KEY;
    bff = await startBuiltEntry();
  });
  afterAll(() => bff?.stop());

  it("serves the kit's manifest and says so: its documents run by documentId", async () => {
    expect(bff.stdout()).toMatch(new RegExp(`^ {2}documents +${Object.keys(KIT_MANIFEST).length} trusted documents from \\S+/client/src/gql/persisted-documents\\.json`, 'm'));
    const detail = await post(bff.url, { documentId: kitId('CampaignDetail'), variables: { id: cid(1) } }, partner(DEMO_TOKENS.store));
    expect(detail.body.errors).toBeUndefined();
    expect(detail.body.data.campaign.id).toBe(cid(1));
    const feed = await get(bff.url, { documentId: kitId('OfferCards'), variables: JSON.stringify({ first: 5 }) }, app(DEMO_APP_KEY));
    expect(feed.status).toBe(200);
    expect(feed.body.data.feed.nodes.length).toBeGreaterThan(0);
  });

  it("an app's feed GET gets the same HTTP caching by documentId, by APQ hash and by query text", async () => {
    const id = kitId('OfferCards');
    await sameCachingEachWay(bff.url, id, KIT_MANIFEST[id]!, { first: 3 });
  });
});

describe("Apollo's persisted-query manifest (Apollo iOS, Apollo Kotlin), in production", () => {
  const FEED = 'query Feed($first: Int, $after: String) { offerFeed(first: $first, after: $after) { totalCount nodes { id card { title discountLabel } } pageInfo { hasNextPage endCursor } } }';
  const TABS = 'query Tabs { categories { id name } }';
  const dir = mkdtempSync(join(tmpdir(), 'apollo-manifest-'));
  let emulator: RunningEmulator;
  let bff: BuiltEntry;

  const write = (name: string, content: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(content, null, 2));
    return file;
  };

  beforeAll(async () => {
    APP_KEY = 'ios-app-key';
    emulator = await startEmulator({ quiet: true });
    const manifest = write('operations.json', {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [
        { id: sha(FEED), name: 'Feed', type: 'query', body: FEED },
        { id: sha(TABS), name: 'Tabs', type: 'query', body: TABS },
      ],
    });
    const keys = write('app-keys.json', { [APP_KEY]: { name: 'iOS app', partnerTokens: [DEMO_TOKENS.store, DEMO_TOKENS.aggregator] } });
    bff = await startBuiltEntry({ env: { NODE_ENV: 'production', CAMPAIGN_API_URL: emulator.url, APP_KEYS_FILE: keys, TRUSTED_DOCUMENTS: manifest } });
  }, 30_000);
  afterAll(async () => {
    await bff?.stop();
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts with it, and an app runs its operations by APQ hash (as Apollo iOS and Kotlin send them), by id or by text, with the same HTTP caching', async () => {
    expect(bff.logs()).toContainEqual(expect.objectContaining({ msg: 'started', mode: 'production' }));
    const [answer] = await sameCachingEachWay(bff.url, `sha256:${sha(FEED)}`, FEED, { first: 2 });
    expect(answer!.body.data.offerFeed.nodes).toHaveLength(2);
    const tabs = await post(bff.url, { extensions: { persistedQuery: { version: 1, sha256Hash: sha(TABS) } } }, app(APP_KEY));
    expect(tabs.body.data.categories.length).toBeGreaterThan(0);
    // Anything else is refused: the app key runs only the manifest's operations.
    const other = await post(bff.url, { query: '{ offerFeed(first: 1) { totalCount } }' }, app(APP_KEY));
    expect(other.status).toBe(403);
    expect(other.body.errors[0].extensions.code).toBe('TRUSTED_DOCUMENT_REQUIRED');
  });

  it('a broken entry stops start-up, naming the file and the entry (the other problems: test/apps/trusted-documents.test.ts)', async () => {
    const file = write('broken.json', {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [
        { id: sha(TABS), name: 'Tabs', type: 'query', body: TABS },
        { id: sha(FEED), name: 'Feed', type: 'query' },
      ],
    });
    const refused = await startBuiltEntry({ env: { NODE_ENV: 'production', CAMPAIGN_API_URL: emulator.url, TRUSTED_DOCUMENTS: file } }).then(
      (started) => started.stop().then(() => 'started'),
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/exited \(1\) before printing its banner/);
    expect(refused).toContain(`campaign-bff: invalid configuration: TRUSTED_DOCUMENTS=${file}: the document of ${sha(FEED)} is not a string`);
  }, 60_000);
});
