import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { launchChromium, type Browser } from '../helpers/chromium.js';
import { installKitApp, ROOT, run, type KitApp } from '../helpers/kit-app.js';
import { codeBlocks } from './markdown.js';

/**
 * docs/react-quickstart.md as a team follows it: every file it shows (a fence with
 * `file=<path>`) is written as it stands into a new app with the kit installed as a package
 * (test/helpers/kit-app.ts), with the tsconfig Vite's react-ts template makes; codegen runs
 * with the kit's settings, tsc type-checks it, `vite build` builds it, and headless Chromium
 * drives it against `npm start`: the list, load more, a create. The client guide's TypeScript
 * snippets are type-checked in the same app, each on its own: they import from the package and
 * declare what they use.
 */
const QUICKSTART = 'docs/react-quickstart.md';
const files = codeBlocks(QUICKSTART).flatMap((block) => {
  const path = /^file=(\S+)$/.exec(block.info)?.[1];
  return path ? [{ path, code: `${block.code}\n` }] : [];
});
const snippets = ['client/README.md', QUICKSTART].flatMap((file) => codeBlocks(file).filter((b) => b.lang === 'ts' || b.lang === 'tsx').map((b) => ({ ...b, where: `${b.file}:${b.line}` })));
/** What Vite's react-ts template sets (its tsconfig.app.json, in one file). */
const TEMPLATE_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'bundler',
    jsx: 'react-jsx',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
  include: ['src', 'snippets'],
};

let kit: KitApp;
let bff: BuiltEntry;
let site: { url: string; close(): Promise<void> };
let browser: Browser;

/** Serves the built app (dist/, read on each request) as a static site. */
async function serveStatic(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css' };
  const server: Server = createServer((req, res) => {
    const path = join(dir, new URL(req.url ?? '/', 'http://x').pathname);
    const file = existsSync(path) && statSync(path).isFile() ? path : join(dir, 'index.html');
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  kit = await installKitApp({ also: ['react', 'react-dom', '@types/react', '@types/react-dom', 'vite', '@vitejs/plugin-react', 'typescript'] });
  kit.write(Object.fromEntries(files.map((f) => [f.path, f.code])));
  kit.write({ 'tsconfig.json': JSON.stringify(TEMPLATE_TSCONFIG, null, 2) });
  kit.write(Object.fromEntries(snippets.filter((s) => s.file === 'client/README.md').map((s, i) => [`snippets/readme-${i}.${s.lang}`, `${s.code}\nexport {};\n`])));
  // The built app calls npm start from its own origin.
  site = await serveStatic(join(kit.app, 'dist'));
  bff = await startBuiltEntry({ env: { CORS_ORIGINS: new URL(site.url).origin } });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await bff?.stop();
  kit?.close();
});

describe('the React quickstart, as written', () => {
  it('shows every file the app needs, and every snippet imports the kit as a package', () => {
    expect(files.map((f) => f.path).sort()).toEqual(['codegen.ts', 'index.html', 'src/CampaignList.tsx', 'src/documents.ts', 'src/env.d.ts', 'src/main.tsx', 'vite.config.ts']);
    const fromSources = snippets.filter((s) => /from '(?:\.\.?\/)+(?:client\/)?src\//.test(s.code)).map((s) => s.where);
    expect(fromSources).toEqual([]);
    const readme = snippets.filter((s) => s.file === 'client/README.md');
    expect(readme.length).toBeGreaterThan(4);
    for (const snippet of readme) expect(snippet.code, snippet.where).toMatch(/from '@campaign-bff\/client-kit(?:\/[\w.-]+)?'/);
  });

  it('generates, type-checks (the guide’s snippets too) and builds with Vite', async () => {
    await kit.codegen();
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: kit.app }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(tsc).toBe('');
    await run(process.execPath, [join(kit.app, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: kit.app, env: { ...process.env, VITE_BFF_URL: bff.url } });
    expect(readFileSync(join(kit.app, 'dist/index.html'), 'utf8')).toMatch(/<script type="module"[^>]* src="\/assets\/index-[\w-]+\.js"/);
  }, 120_000);

  it('draws the list in Chromium against npm start; load more twice, then create: the pages stay and the new campaign comes', async () => {
    browser = await launchChromium();
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/favicon/.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    const rows = page.locator('li');
    await page.goto(site.url);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    await expect.poll(() => page.locator('h1').textContent()).toBe('8 campaigns');
    for (const count of [6, 8]) {
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(count);
    }
    expect(await page.getByRole('button', { name: 'Load more' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(9);
    expect(await rows.last().textContent()).toMatch(/^#\d+ Магазин: MODERATION$/);
    await expect.poll(() => page.locator('h1').textContent()).toBe('9 campaigns');
    expect(problems).toEqual([]);
  }, 120_000);
});
