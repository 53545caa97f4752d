import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from 'autocannon';
import { restCampaignBody } from './campaign-samples.js';
import { CARD_FIELDS, graphqlBody, graphqlHeaders, PAGE_SIZE, type Scenario } from './scenarios.js';

/**
 * The feed scenarios: a mobile app's feed open (GET by trusted document id with an
 * app key) against a bare node:http server answering the same bytes, and against what the same
 * screen costs through the partner `campaigns(status: STARTED)` query.
 *
 * Two aggregator partners of their own, each with PAGE_SIZE running campaigns (an aggregator's
 * campaign runs from upload, and moderation is manual, so nothing changes during the runs): one
 * read by the warm runs, one kept cold for the stampede.
 */
export const FEED_TOKEN = 'bench-feed-partner-token';
export const COLD_TOKEN = 'bench-cold-feed-partner-token';
export const FEED_APP_KEY = 'bench-feed-app-key';
export const COLD_APP_KEY = 'bench-cold-app-key';

export const FEED_DOCUMENT = `query OfferFeed($first: Int) { offerFeed(first: $first) { totalCount nodes { id card { ${CARD_FIELDS} } category { id name } } pageInfo { hasNextPage endCursor } } }`;
export const PARTNER_FEED_DOCUMENT = `query PartnerFeed { campaigns(first: ${PAGE_SIZE}, status: STARTED) { totalCount nodes { id card { ${CARD_FIELDS} } category { id name } } } }`;
export const feedDocumentId = `sha256:${createHash('sha256').update(FEED_DOCUMENT).digest('hex')}`;
export const feedPath = `/graphql?${new URLSearchParams({ documentId: feedDocumentId, variables: JSON.stringify({ first: PAGE_SIZE }) })}`;

/** The app keys file and the trusted documents manifest the BFF is started with. */
export function writeFeedFiles(): { appKeysFile: string; trustedDocuments: string } {
  const dir = mkdtempSync(join(tmpdir(), 'campaign-bff-bench-feed-'));
  const appKeysFile = join(dir, 'app-keys.json');
  const trustedDocuments = join(dir, 'persisted-documents.json');
  writeFileSync(
    appKeysFile,
    JSON.stringify({
      [FEED_APP_KEY]: { name: 'Bench app', partnerToken: FEED_TOKEN },
      [COLD_APP_KEY]: { name: 'Bench cold app', partnerToken: COLD_TOKEN },
    }),
  );
  writeFileSync(trustedDocuments, JSON.stringify({ [feedDocumentId.slice(7)]: FEED_DOCUMENT }));
  return { appKeysFile, trustedDocuments };
}

async function rest(origin: string, path: string, body: unknown, token?: string): Promise<void> {
  const response = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`feed seeding: POST ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
}

/** Registers both feed partners and gives each PAGE_SIZE running campaigns. */
export async function seedFeedPartners(emulatorOrigin: string): Promise<void> {
  for (const [token, first] of [
    [FEED_TOKEN, 800_001],
    [COLD_TOKEN, 900_001],
  ] as const) {
    await rest(emulatorOrigin, '/_emulator/partners', { token, kind: 'aggregator' });
    for (let i = 0; i < PAGE_SIZE; i++) await rest(emulatorOrigin, '/v1/campaigns/create', restCampaignBody(first + i), token);
  }
}

export const appHeaders = (key: string): Record<string, string> => ({ 'x-app-key': key, accept: 'application/json' });

/** The warm feed's exact bytes (the floor answers them too); checks there are PAGE_SIZE cards. */
export async function warmFeedBody(bffOrigin: string): Promise<string> {
  let body = '';
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${bffOrigin}${feedPath}`, { headers: appHeaders(FEED_APP_KEY), signal: AbortSignal.timeout(10_000) });
    body = await response.text();
    if (response.status !== 200 || !body.startsWith('{"data":{"offerFeed":{"totalCount":')) {
      throw new Error(`the BFF should answer the feed with data, got HTTP ${response.status}: ${body.slice(0, 500)}`);
    }
  }
  const cards = (JSON.parse(body) as { data: { offerFeed: { nodes: unknown[] } } }).data.offerFeed.nodes.length;
  if (cards !== PAGE_SIZE) throw new Error(`the bench feed should have ${PAGE_SIZE} cards, it has ${cards}`);
  return body;
}

export function feedScenarios(feedBody: string): Scenario[] {
  const get = (headers: Record<string, string>): RequestSpec => ({ method: 'GET', path: feedPath, headers });
  return [
    {
      key: 'feed-floor',
      label: `feed floor (bare node:http, same bytes)`,
      target: 'feed-floor',
      requests: [get(appHeaders(FEED_APP_KEY))],
      verify: (body) => body === feedBody,
    },
    {
      key: 'feed',
      label: `app feed (${PAGE_SIZE} cards, warm)`,
      target: 'bff',
      requests: [get(appHeaders(FEED_APP_KEY))],
      verify: (body) => body === feedBody,
      // A rebuild per freshness window, when the run crosses one: counted per minute instead.
    },
    {
      key: 'feed-partner',
      label: `same screen via campaigns(STARTED)`,
      target: 'bff',
      requests: [{ method: 'POST', path: '/graphql', headers: graphqlHeaders(FEED_TOKEN), body: graphqlBody(PARTNER_FEED_DOCUMENT) }],
      verify: (body) => body.startsWith('{"data"') && !body.includes('"errors"'),
      expectedCalls: { 'campaigns/get-all-campaigns': 1, 'campaigns/get': PAGE_SIZE },
    },
  ];
}

export interface StampedeResult {
  requests: number;
  /** Answers with status 200 and data. */
  ok: number;
  calls: Record<string, number>;
  builds: number;
  ms: number;
  /** The first other answer, if any. */
  firstWrongAnswer?: string;
}

/** `count` app opens at once on a cold feed; the backend calls they caused. */
export async function stampede(
  bffOrigin: string,
  count: number,
  calls: () => Promise<Record<string, number>>,
  resetCalls: () => Promise<void>,
): Promise<StampedeResult> {
  await resetCalls();
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      fetch(`${bffOrigin}${feedPath}`, { headers: appHeaders(COLD_APP_KEY), signal: AbortSignal.timeout(30_000) }).then(async (r) => ({
        status: r.status,
        text: await r.text(),
      })),
    ),
  );
  const ms = performance.now() - started;
  const counted = await calls();
  const wrong = answers.filter((a) => a.status !== 200 || !a.text.startsWith('{"data"'));
  return {
    requests: count,
    ok: count - wrong.length,
    calls: counted,
    // One list read per build of a partner under 100 campaigns.
    builds: counted['campaigns/get-all-campaigns'] ?? 0,
    ms: Math.round(ms),
    ...(wrong[0] ? { firstWrongAnswer: `HTTP ${wrong[0].status}: ${wrong[0].text.slice(0, 600)}` } : {}),
  };
}
