import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { startCommand } from '../helpers/start-command.js';
import { runtimeCopiesFromBuild } from './support.js';

/**
 * What the Dockerfile's runtime stage holds, made here without a container runtime: package.json,
 * the lock, `npm ci --omit=dev --ignore-scripts` and what it copies of dist/, in a fresh directory with
 * no node_modules above it. Started with the image's command, it serves, answers a partner's
 * query, exports metrics and stops cleanly on SIGTERM; it writes nothing, and no dev dependency
 * is there to be loaded.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL_TIMEOUT_MS = 240_000;

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
};
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

let image: string;
let home: string;
let temp: string;
let emulator: RunningEmulator | undefined;
let entry: BuiltEntry | undefined;

/** Every file under `dir` with its inode, size and modification time. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true }).map((file) => {
      const path = join(file.parentPath, file.name);
      const stat = statSync(path);
      return [relative(dir, path), `${stat.ino}:${stat.size}:${stat.mtimeMs}`];
    }),
  );
}

beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), 'bff-image-'));
  image = join(base, 'app');
  home = join(base, 'home');
  temp = join(base, 'tmp');
  for (const dir of [image, home, temp]) mkdirSync(dir);
  // As the runtime stage: the manifest and the lock, the production install, then dist/.
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(image, file));
  await promisify(execFile)('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: image,
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 16 * 1024 * 1024,
  });
  // What the runtime stage copies from the build stage, from this run's build.
  for (const { from, to } of runtimeCopiesFromBuild()) cpSync(join(root, from), join(image, to), { recursive: true });
  emulator = await startEmulator({ quiet: true });
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await entry?.stop();
  await emulator?.close();
  if (image) rmSync(dirname(image), { recursive: true, force: true });
});

describe('the production install (the image runtime stage, without a container)', () => {
  it('holds no package that only the dev dependencies need, and nothing above it to load one from', () => {
    const devOnly = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.dev === true)
      .map(([path]) => path);
    // The lock marks the packages that only dev dependencies need (a dev dependency that a
    // production package needs too, as ajv, is not among them).
    // esbuild only builds: the image runs what it built.
    for (const name of ['vitest', 'typescript', 'tsx', 'dockerfile-ast', 'esbuild']) {
      expect(manifest.devDependencies[name], name).toBeDefined();
      expect(devOnly).toContain(`node_modules/${name}`);
    }
    expect(devOnly.filter((path) => existsSync(join(image, path)))).toEqual([]);
    // Node's module resolution walks up from dist/: no node_modules there could lend a dev package.
    for (let dir = dirname(image); dir !== dirname(dir); dir = dirname(dir)) expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    expect(existsSync(join('/', 'node_modules'))).toBe(false);
    // What production needs is there.
    expect(existsSync(join(image, 'node_modules/@apollo/server/package.json'))).toBe(true);
  });

  it(
    'starts with the image’s command, is ready, answers a partner query and metrics, writes nothing, and stops cleanly on SIGTERM',
    async () => {
      const before = snapshot(image);
      entry = await startBuiltEntry({
        command: { file: process.execPath, args: [...startCommand().nodeOptions, startCommand().entry], cwd: image },
        env: {
          NODE_ENV: 'production',
          CAMPAIGN_API_URL: emulator!.url,
          SHUTDOWN_DELAY_MS: '200',
          // Nothing of this machine's: no module path, and a home and temp directory to watch.
          NODE_PATH: '',
          HOME: home,
          TMPDIR: temp,
        },
      });
      expect(entry.logs()).toContainEqual(expect.objectContaining({ msg: 'started', mode: 'production' }));

      const readyz = await fetch(entry.url.replace(/\/graphql$/, '/readyz'));
      expect(readyz.status).toBe(200);
      expect(await readyz.json()).toMatchObject({ status: 'ready' });

      const response = await fetch(entry.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
        body: JSON.stringify({ query: '{ categories { id name } campaigns(first: 2) { totalCount nodes { id status } } }' }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data?: any; errors?: unknown };
      expect(body.errors).toBeUndefined();
      expect(body.data.categories.length).toBeGreaterThan(0);
      expect(body.data.campaigns.nodes.length).toBeGreaterThan(0);

      expect(entry.metricsUrl).toBeDefined();
      const metrics = await fetch(entry.metricsUrl!);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^bff_graphql_requests_total\{.*\} 1$/m);

      entry.child.kill('SIGTERM');
      expect(await entry.exited).toEqual({ code: 0, signal: null });
      expect(entry.logs().map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down: finishing in-flight requests', 'stopped']));
      // Standard output carried JSON lines only.
      expect(entry.stdout().trim().split('\n').filter((line) => !line.startsWith('{'))).toEqual([]);

      // A read-only root filesystem holds: nothing under the install changed, nothing in $HOME or $TMPDIR.
      expect(snapshot(image)).toEqual(before);
      expect(readdirSync(home)).toEqual([]);
      expect(readdirSync(temp)).toEqual([]);
    },
    60_000,
  );
});
