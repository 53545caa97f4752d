import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleServer, type ExampleServer } from '../../client/example/serve.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { DEMO_APP, DEMO_APP_KEY, app, partner, post } from '../apps/support.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { oid } from '../helpers/ids.js';
import { metric } from '../subscriptions/support.js';

/**
 * The browser example in a real headless Chromium against a production instance that runs
 * trusted documents only (NODE_ENV=production, the kit's manifest as TRUSTED_DOCUMENTS,
 * TRUSTED_DOCUMENTS_ONLY=true): the kit's link sends each document by its manifest hash over HTTP
 * and over the WebSocket; the card feed is drawn from the kit's cache, and a campaign stopped on
 * its page, or elsewhere, changes its status on the page and in the feed without a reload.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-output');
const MANIFEST_FILE = fileURLToPath(new URL('../../client/src/gql/persisted-documents.json', import.meta.url));
const manifest: Record<string, string> = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8'));
const idOf = (name: string) => Object.entries(manifest).find(([, text]) => new RegExp(`\\b(?:query|mutation|subscription) ${name}\\b`).test(text))![0];
/** A kit document run by its id, as only trusted documents run on this instance. */
const run = (name: string, variables: Record<string, unknown>, headers: Record<string, string> = partner(DEMO_TOKENS.store)) =>
  post(stack.bffUrl, { documentId: idOf(name), variables }, headers);

let stack: Stack;
let example: ExampleServer;
let context: BrowserContext;
let profile: string;
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: the browser test needs it. Install it (Debian/Ubuntu: sudo apt-get install chromium), or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
    );
  }
  example = await startExampleServer({ bffUrl: () => stack.bffUrl });
  stack = await startStack({
    emulator: { moderation: { mode: 'manual' } },
    // The demo app key as `npm start` configures it, for the example's ?appKey= mode.
    appKeys: DEMO_APP,
    env: {
      NODE_ENV: 'production',
      CAMPAIGN_API_URL: 'http://127.0.0.1:1', // replaced by the stack's emulator
      TRUSTED_DOCUMENTS: MANIFEST_FILE,
      TRUSTED_DOCUMENTS_ONLY: 'true',
      CORS_ORIGINS: new URL(example.url).origin,
    },
  });
  profile = mkdtempSync(join(tmpdir(), 'example-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1000, height: 700 },
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await example?.close();
  await stack?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function open(path = ''): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${example.url}${path}`);
  return page;
}

interface SentRequest {
  operationName?: string;
  query?: string;
  extensions?: { persistedQuery?: { sha256Hash?: string } };
}

describe('browser example', () => {
  it('draws the card feed, stops a campaign and shows the new status without a reload; a stop elsewhere arrives over the WebSocket', async () => {
    // What the page asks the BFF for: the kit's documents, each by its manifest hash alone.
    const sent: SentRequest[] = [];
    context.on('request', (request) => {
      if (request.url() === stack.bffUrl && request.method() === 'POST') sent.push(JSON.parse(request.postData() ?? '{}'));
    });
    const page = await open();
    const cards = page.locator('[data-testid=feed] a.card');
    await cards.first().waitFor({ timeout: 15_000 });
    // The demo store's running campaigns, as its offer feed has them (newest first): 3 and 1,
    // each offer with an id of its own that opens its campaign.
    const served = await run('OfferCards', { first: 12 });
    expect(served.body.data.feed.nodes.map((n: { id: string }) => n.id)).toEqual([3, 1].map(oid));
    expect(await cards.evaluateAll((els) => els.map((e: any) => e.dataset.id))).toEqual([3, 1].map(oid));
    const feedRequest = sent.find((s) => s.operationName === 'OfferCards');
    expect(feedRequest?.extensions?.persistedQuery?.sha256Hash).toBe(idOf('OfferCards').slice('sha256:'.length));
    expect(feedRequest?.query).toBeUndefined();
    // The feed's tabs: its categories with their offer counts.
    const tabs = served.body.data.feed.categories.map((t: { category: { name: string }; offerCount: number }) => `${t.category.name} · ${t.offerCount}`);
    expect(tabs.length).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=tabs] .tab').allTextContents()).toEqual(tabs);
    const first = cards.first();
    // (In the page: this project's types have no DOM, so the page's globals are reached untyped.)
    const drawn = await first.evaluate((card: any) => {
      const style = (globalThis as any).getComputedStyle(card);
      return {
        background: style.backgroundColor,
        color: style.color,
        title: card.querySelector('.title')?.textContent,
        discount: card.querySelector('.discount')?.textContent,
        logo: !!card.querySelector('.logo'),
      };
    });
    const { body } = await run('CampaignDetail', { id: '3' });
    const card = body.data.campaign.card;
    expect(drawn).toMatchObject({ title: card.title, discount: card.discountLabel, logo: true });
    expect(drawn.background).toBe(rgb(card.backgroundColor));
    expect(drawn.color).toBe(rgb(card.fontColor));

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'browser-example-feed.png'), fullPage: true });

    // The campaign page; stopped elsewhere (not by this page), the status changes through the
    // page's CampaignChanged subscription alone: the page sends no request for it.
    await first.click();
    const status = page.locator('[data-testid=status]');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('STARTED');
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await expect.poll(() => metric(stack.metricsUrl, 'bff_live_subscriptions'), { timeout: 10_000 }).toBe(1);
    const before = sent.length;
    expect((await run('StopCampaign', { id: '3' })).body.data.stopCampaign.campaign.status).toBe('PAUSED');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('PAUSED');
    expect(sent.slice(before)).toEqual([]);

    // Started and stopped on the page: the status changes in place. Every drawing of the page
    // is kept (each redraw makes new nodes, so a drawing keeps its state once replaced). A click
    // disables both buttons at once (a second click sends no second mutation) until the answer;
    // the live event may show the new status before the answer comes, so the test waits for
    // what a user waits for: the other button enabled.
    await page.evaluate(() => {
      const g = globalThis as any;
      g.drawings = [];
      new g.MutationObserver((records: any[]) => {
        for (const record of records)
          for (const node of record.addedNodes) {
            const shown = node.querySelector?.('[data-testid=status]');
            const off = (action: string) => (node.querySelector(`[data-action=${action}]`).disabled ? 'off' : 'on');
            if (shown) g.drawings.push(`${shown.textContent} start:${off('start')} stop:${off('stop')}`);
          }
      }).observe(g.document.getElementById('app'), { childList: true });
    });
    const drawings = (): Promise<string[]> => page.evaluate(() => (globalThis as any).drawings.splice(0));
    const start = page.locator('button[data-action=start]');
    const stop = page.locator('button[data-action=stop]');
    await start.click();
    await expect.poll(() => stop.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await status.textContent()).toBe('STARTED');
    const started = await drawings();
    expect(started[0]).toBe('PAUSED start:off stop:off');
    expect(started.at(-1)).toBe('STARTED start:off stop:on');
    await stop.click();
    await expect.poll(() => start.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await status.textContent()).toBe('PAUSED');
    const stopped = await drawings();
    expect(stopped[0]).toBe('STARTED start:off stop:off');
    expect(stopped.at(-1)).toBe('PAUSED start:on stop:off');
    await page.screenshot({ path: join(SCREENSHOTS, 'browser-example.png'), fullPage: true });

    // Back to the feed (a hash change, no reload): the stopped campaign has left it (the BFF
    // rebuilt the feed on the stop, and the screen reads it again over its cached copy).
    await page.evaluate(() => {
      (globalThis as any).location.hash = '#/';
    });
    await expect.poll(() => cards.evaluateAll((els) => els.map((e: any) => e.dataset.id)), { timeout: 10_000 }).toEqual([1].map(oid));
    expect(navigations.filter((url) => !url.includes('#'))).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'browser-example-feed-after-stop.png'), fullPage: true });

    // The server agrees; and every request of the page named its document by hash, never by text.
    const after = await run('CampaignDetail', { id: '3' });
    expect(after.body.data.campaign.status).toBe('PAUSED');
    expect(sent.map((s) => s.operationName)).toEqual(expect.arrayContaining(['OfferCards', 'CampaignDetail', 'StartCampaign', 'StopCampaign']));
    for (const request of sent) {
      expect(request.query, request.operationName).toBeUndefined();
      expect(request.extensions?.persistedQuery?.sha256Hash, request.operationName).toBe(idOf(request.operationName!).slice('sha256:'.length));
    }
    expect(problems).toEqual([]);
  });
});

describe('browser example with ?appKey=', () => {
  it('reads the feed as a mobile app does: X-App-Key, no token, the offers of every partner of the key', async () => {
    const headers: Record<string, string>[] = [];
    context.on('request', (request) => {
      if (request.url() === stack.bffUrl && request.method() === 'POST' && /OfferCards/.test(request.postData() ?? '')) headers.push(request.headers());
    });
    const page = await open(`?appKey=${DEMO_APP_KEY}`);
    const served = await run('OfferCards', { first: 12 }, app());
    const expected = served.body.data.feed.nodes.map((n: { id: string }) => n.id);
    const cards = page.locator('[data-testid=feed] a.card');
    await expect.poll(() => cards.evaluateAll((els) => els.map((e: any) => e.dataset.id)), { timeout: 15_000 }).toEqual(expected);
    // Both demo partners' offers: more than the store's own feed.
    const own = await run('OfferCards', { first: 12 });
    expect(expected.length).toBeGreaterThan(own.body.data.feed.totalCount);
    expect(headers.length).toBeGreaterThan(0);
    expect(headers[0]).toMatchObject({ 'x-app-key': DEMO_APP_KEY });
    expect(headers[0]!.authorization).toBeUndefined();
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'browser-example-app-key-feed.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});

function rgb(hex: string): string {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
