import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleServer, type ExampleServer } from '../../client/example/serve.js';
import { DEMO_APP, DEMO_APP_KEY } from '../apps/support.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid } from '../helpers/ids.js';

/**
 * The browser example in a real headless Chromium against the real server: the card feed is
 * drawn from the kit's cache, and stopping a campaign changes its status on the page and in the
 * feed without a reload.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-output');

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
  // The demo app key as `npm start` configures it, for the example's ?appKey= mode.
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } }, appKeys: DEMO_APP });
  example = await startExampleServer({ bffUrl: stack.bffUrl });
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

describe('browser example', () => {
  it('draws the card feed, stops a campaign and shows the new status without a reload', async () => {
    // What the page asks the BFF for: the feed is the kit's OfferCards document over offerFeed.
    const sent: { operationName?: string; query?: string }[] = [];
    context.on('request', (request) => {
      if (request.url() === stack.bffUrl && request.method() === 'POST') sent.push(JSON.parse(request.postData() ?? '{}'));
    });
    const page = await open();
    const cards = page.locator('[data-testid=feed] a.card');
    await cards.first().waitFor({ timeout: 15_000 });
    // The demo store's running campaigns, as its offer feed has them (newest first): 3 and 1.
    const served = await stack.gql(`{ offerFeed(first: 12) { totalCount nodes { id } categories { category { name } offerCount } } }`);
    expect(served.body.data.offerFeed.nodes.map((n: { id: string }) => n.id)).toEqual([3, 1].map(cid));
    expect(await cards.evaluateAll((els) => els.map((e: any) => e.dataset.id))).toEqual([3, 1].map(cid));
    const feedRequest = sent.find((s) => s.operationName === 'OfferCards');
    expect(feedRequest?.query).toMatch(/feed: offerFeed\(/);
    // The feed's tabs: its categories with their offer counts.
    const tabs = served.body.data.offerFeed.categories.map((t: { category: { name: string }; offerCount: number }) => `${t.category.name} · ${t.offerCount}`);
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
    const { body } = await stack.gql(`{ campaign(id: "3") { card { title discountLabel backgroundColor fontColor } } }`);
    const card = body.data.campaign.card;
    expect(drawn).toMatchObject({ title: card.title, discount: card.discountLabel, logo: true });
    expect(drawn.background).toBe(rgb(card.backgroundColor));
    expect(drawn.color).toBe(rgb(card.fontColor));

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'browser-example-feed.png'), fullPage: true });

    // The campaign page, then stop: the status changes in place.
    await first.click();
    const status = page.locator('[data-testid=status]');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('STARTED');
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await page.locator('button[data-action=stop]').click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('PAUSED');
    expect(await page.locator('button[data-action=start]').isEnabled()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'browser-example.png'), fullPage: true });

    // Back to the feed (a hash change, no reload): the stopped campaign has left it (the BFF
    // rebuilt the feed on the stop, and the screen reads it again over its cached copy).
    await page.evaluate(() => {
      (globalThis as any).location.hash = '#/';
    });
    await expect.poll(() => cards.evaluateAll((els) => els.map((e: any) => e.dataset.id)), { timeout: 10_000 }).toEqual([1].map(cid));
    expect(navigations.filter((url) => !url.includes('#'))).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'browser-example-feed-after-stop.png'), fullPage: true });

    // The server agrees.
    const after = await stack.gql(`{ campaign(id: "3") { status } }`);
    expect(after.body.data.campaign.status).toBe('PAUSED');
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
    const served = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-key': DEMO_APP_KEY },
      body: JSON.stringify({ query: '{ offerFeed(first: 12) { nodes { id } } }' }),
    }).then((r) => r.json() as Promise<any>);
    const expected = served.data.offerFeed.nodes.map((n: { id: string }) => n.id);
    const cards = page.locator('[data-testid=feed] a.card');
    await expect.poll(() => cards.evaluateAll((els) => els.map((e: any) => e.dataset.id)), { timeout: 15_000 }).toEqual(expected);
    // Both demo partners' offers: more than the store's own feed.
    const own = await stack.gql(`{ offerFeed(first: 12) { totalCount } }`);
    expect(expected.length).toBeGreaterThan(own.body.data.offerFeed.totalCount);
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
