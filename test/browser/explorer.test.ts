import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The explorer at /graphql in development: GraphiQL served by the BFF itself (page, script,
 * styles, fonts, editor workers), opened in a real headless Chromium that may reach nothing but
 * the BFF's origin. It opens with the first query and the demo token, runs it, and shows the
 * answer.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let stack: Stack;
let origin: string;

/** Same-origin references of a page or stylesheet: every `src`/`href`/`url()` it names. */
function references(text: string): string[] {
  return [...text.matchAll(/(?:src|href)="([^"]+)"|url\(\s*["']?([^"')]+)["']?\s*\)/g)].map((m) => (m[1] ?? m[2])!).filter((ref) => !ref.startsWith('data:'));
}

beforeAll(async () => {
  // As `npm start` runs on the embedded emulator: development, requests without a token act as the demo store.
  stack = await startStack({ fallbackToken: DEMO_TOKENS.store });
  origin = new URL(stack.bffUrl).origin;
});
afterAll(() => stack?.close());

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

describe('the explorer in Chromium, offline', () => {
  let context: BrowserContext;
  let profile: string;
  const elsewhere: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: install it (Debian/Ubuntu: sudo apt-get install chromium), or set CHROMIUM_PATH.`);
    }
    profile = mkdtempSync(join(tmpdir(), 'explorer-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1200, height: 800 },
    });
    // As if offline: only the BFF's origin answers; anything else is recorded and refused.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      elsewhere.push(url);
      return route.abort('internetdisconnected');
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('opens with the first query and the demo token, runs it, and shows the answer', async () => {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).host !== new URL(origin).host) elsewhere.push(socket.url());
    });
    const sent: Array<{ url: string; authorization: string | undefined; body: string | null }> = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') sent.push({ url: request.url(), authorization: request.headers().authorization, body: request.postData() });
    });

    await page.goto(stack.bffUrl);
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
    expect(run?.url).toBe(stack.bffUrl);
    expect(run?.authorization).toBe(`Bearer ${DEMO_TOKENS.store}`);
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
