import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { launchChromium, type Browser } from '../helpers/chromium.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The explorer at /graphql in development: GraphiQL served by the BFF itself (page, script,
 * styles, fonts, editor workers), opened in a real headless Chromium that may reach nothing but
 * the BFF's origin. It opens with the first query and the demo token, runs it, and shows the
 * answer. Apollo Sandbox, the default page, loads from Apollo's CDN, which this machine cannot
 * reach: the page turns to the bundled GraphiQL by itself, offline and behind a proxy that
 * refuses the CDN alike.
 */

let stack: Stack;
let origin: string;
/** `npm start`'s default: Apollo Sandbox. */
let sandbox: Stack;

/** Same-origin references of a page or stylesheet: every `src`/`href`/`url()` it names. */
function references(text: string): string[] {
  return [...text.matchAll(/(?:src|href)="([^"]+)"|url\(\s*["']?([^"')]+)["']?\s*\)/g)].map((m) => (m[1] ?? m[2])!).filter((ref) => !ref.startsWith('data:'));
}

beforeAll(async () => {
  // As `npm start` runs on the embedded emulator: development, requests without a token act as the demo store.
  stack = await startStack({ fallbackToken: DEMO_TOKENS.store, env: { EXPLORER: 'graphiql' } });
  origin = new URL(stack.bffUrl).origin;
  sandbox = await startStack({ fallbackToken: DEMO_TOKENS.store });
});
afterAll(async () => {
  await stack?.close();
  await sandbox?.close();
});

describe('the explorer over HTTP', () => {
  it('serves a page whose every file comes from the same origin, under a policy that allows nothing else', async () => {
    const page = await fetch(stack.bffUrl, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    const html = await page.text();
    expect(html).toContain('Bearer ' + DEMO_TOKENS.store);
    expect(html).toContain('query FirstLook');
    expect(html).not.toMatch(/https?:\/\//);
    // No inline script runs (the policy would refuse it): the page's settings are data.
    expect(html).not.toMatch(/<script(?![^>]*(?:type="application\/json"|src=))/);

    const files = references(html);
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    const types = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', ttf: 'font/ttf' } as const;
    for (const file of files) {
      const url = new URL(file, stack.bffUrl);
      expect(url.origin).toBe(origin);
      const asset = await fetch(url);
      expect([file, asset.status]).toEqual([file, 200]);
      expect(asset.headers.get('content-type')).toBe(types[file.split('.').pop() as keyof typeof types]);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const text = await asset.text();
      if (file.endsWith('.css')) {
        // The stylesheet's fonts are files beside it.
        for (const ref of references(text)) {
          expect(new URL(ref, url).origin).toBe(origin);
          expect((await fetch(new URL(ref, url))).headers.get('content-type')).toBe(types.ttf);
        }
        expect(text).not.toMatch(/@import/);
      } else {
        // Nothing is loaded from elsewhere by the script itself.
        expect(text).not.toMatch(/(?:import\s*\(|importScripts\s*\(|new Worker\s*\()\s*["'`]https?:/);
        expect(text).not.toMatch(/esm\.sh|unpkg\.com|jsdelivr|cdn\.apollographql|embeddable-sandbox/);
      }
    }
  });

  it('sends the explorer\'s files compressed, with an ETag per coding and a 304', async () => {
    const html = await (await fetch(stack.bffUrl, { headers: { accept: 'text/html' } })).text();
    const script = new URL(references(html).find((f) => f.endsWith('.js'))!, stack.bffUrl);
    const plain = await fetch(script, { headers: { 'accept-encoding': 'identity' } });
    const length = Number(plain.headers.get('content-length'));
    expect(length).toBe((await plain.arrayBuffer()).byteLength);
    const br = await fetch(script, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    expect((await br.arrayBuffer()).byteLength).toBe(length); // fetch decodes it
    const again = await fetch(script, { headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(new URL('/graphql/explorer/nothing.js', stack.bffUrl))).status).toBe(404);
  });
});

/** Opens the explorer at `url`, runs the first query with the editor's button and returns what was sent. */
async function runFirstQuery(page: Page, url: string) {
  const sent: Array<{ url: string; authorization: string | undefined; body: string | null }> = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') sent.push({ url: request.url(), authorization: request.headers().authorization, body: request.postData() });
  });
  // Not waiting for the load event: a held script holds it back.
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator('.graphiql-query-editor').getByText('FirstLook').first().waitFor({ timeout: 30_000 });
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && (r.request().postData() ?? '').includes('"FirstLook"'));
  await page.locator('.graphiql-execute-button').click();
  const answer = (await (await answered).json()) as { data?: { campaigns: { totalCount: number } }; errors?: unknown };
  expect(answer.errors).toBeUndefined();
  expect(answer.data!.campaigns.totalCount).toBeGreaterThan(0);
  // The answer is shown (the editor draws only the lines in view: the first ones).
  const response = page.locator('.graphiql-response');
  await response.getByText('"categories"').first().waitFor({ timeout: 30_000 });
  expect(await response.innerText()).toContain('"data"');
  const run = sent.find((request) => request.body?.includes('FirstLook'));
  expect(run?.url).toBe(url);
  expect(run?.authorization).toBe(`Bearer ${DEMO_TOKENS.store}`);
}

describe('the explorer in Chromium, offline', () => {
  let browser: Browser;
  let context: BrowserContext;
  const elsewhere: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium({ viewport: { width: 1200, height: 800 } });
    context = browser.context;
    // As if offline: only the BFF's origin answers; anything else is recorded and refused.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      elsewhere.push(url);
      return route.abort('internetdisconnected');
    });
  }, 60_000);

  afterAll(() => browser?.close());

  it('opens with the first query and the demo token, runs it, and shows the answer', async () => {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).host !== new URL(origin).host) elsewhere.push(socket.url());
    });
    await runFirstQuery(page, stack.bffUrl);
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});

describe('Apollo Sandbox, the default page, when Sandbox cannot load', () => {
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchChromium({ viewport: { width: 1200, height: 800 } });
    context = browser.context;
  }, 60_000);
  afterAll(() => browser?.close());

  /** Opens the default page, with `cdn` answering Sandbox's script; GraphiQL must take its place and run the first query. */
  async function fallsBackToGraphiQL(cdn?: (route: Route) => Promise<void> | void) {
    const page = await context.newPage();
    const problems: string[] = [];
    const asked: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The failed script's own line is the browser's; anything else is a problem.
      if (message.type() === 'error' && !(message.text().startsWith('Failed to load resource') && asked.length > 0)) problems.push(`console: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== new URL(sandbox.bffUrl).origin) asked.push(request.url());
    });
    if (cdn) await page.route('https://embeddable-sandbox.cdn.apollographql.com/**', cdn);
    await runFirstQuery(page, sandbox.bffUrl);
    expect(await page.title()).toBe('Campaign GraphQL BFF · GraphiQL');
    expect(await page.locator('#sandbox').count()).toBe(0);
    // The one request elsewhere was Sandbox's script.
    expect(asked).toEqual(['https://embeddable-sandbox.cdn.apollographql.com/_latest/embeddable-sandbox.umd.production.min.js']);
    // The icon a browser asks for is there.
    expect((await page.request.get(new URL('/favicon.ico', sandbox.bffUrl).href)).status()).toBe(200);
    expect(problems).toEqual([]);
    await page.close();
  }

  it("offline (this machine reaches no CDN): opens the bundled GraphiQL by itself, which runs the first query with the demo token", async () => {
    await fallsBackToGraphiQL();
  }, 90_000);

  it('behind a proxy that refuses the CDN: the same', async () => {
    await fallsBackToGraphiQL((route) => route.fulfill({ status: 403, contentType: 'text/html', body: '<html><body>Blocked by the proxy.</body></html>' }));
  }, 90_000);

  it('where the CDN answers, embeds Sandbox on this endpoint with the first query and the demo token, and loads no GraphiQL', async () => {
    const page = await context.newPage();
    const fromOrigin: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin === new URL(sandbox.bffUrl).origin) fromOrigin.push(new URL(request.url()).pathname);
    });
    // Sandbox's script as the CDN would serve it, reduced to what the page calls.
    await page.route('https://embeddable-sandbox.cdn.apollographql.com/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: 'window.EmbeddedSandbox = function (options) { window.embedded = options; document.querySelector(options.target).textContent = "Sandbox"; };' }),
    );
    await page.goto(sandbox.bffUrl);
    await page.locator('#sandbox', { hasText: 'Sandbox' }).waitFor({ timeout: 30_000 });
    const options = await page.evaluate(() => (globalThis as any).embedded);
    expect(options).toMatchObject({ target: '#sandbox', initialEndpoint: sandbox.bffUrl, endpointIsEditable: false, initialState: { includeCookies: false, sharedHeaders: { Authorization: `Bearer ${DEMO_TOKENS.store}` } } });
    expect(options.initialState.document).toContain('query FirstLook');
    expect(await page.title()).toBe('Campaign GraphQL BFF · Apollo Sandbox');
    expect(await page.locator('#explorer').count()).toBe(0);
    expect(fromOrigin.filter((path) => path.includes('/explorer-') && path.endsWith('.js'))).toEqual([]);
    await page.close();
  }, 90_000);

  it('behind a proxy that holds the request: the same, once Sandbox has taken too long', async () => {
    await fallsBackToGraphiQL(() => {});
  }, 90_000);
});
