import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

/**
 * Persisted queries against the product as `npm start` runs it: the esbuild output in dist/,
 * started with plain node, on the default (in-memory) cache. Kept minimal so it can move to the
 * shared built-entry helper.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface BuiltEntry {
  url: string;
  stop(): Promise<void>;
}

async function startBuiltEntry(env: Record<string, string>): Promise<BuiltEntry> {
  const port = await freePort();
  const { CACHE_URL: _cache, CAMPAIGN_API_URL: _api, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'dist/src/main.js'], {
    cwd: ROOT,
    env: { ...inherited, HOST: '127.0.0.1', PORT: String(port), EMULATOR_PORT: String(await freePort()), LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}/graphql`;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the built entry printed no ${url} within 10 s:\n${output}`)), 10_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(url)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the built entry exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

beforeAll(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`node scripts/build.mjs failed:\n${build.stderr}`);
});

describe.each(['development', 'production'] as const)('the built entry in %s', (mode) => {
  let emulator: RunningEmulator | undefined;
  let bff: BuiltEntry;

  beforeAll(async () => {
    // Production refuses the embedded emulator: it gets one started here as its "real" backend.
    if (mode === 'production') emulator = await startEmulator({ quiet: true });
    bff = await startBuiltEntry({ NODE_ENV: mode, ...(emulator ? { CAMPAIGN_API_URL: emulator.url } : {}) });
  });
  afterAll(async () => {
    await bff?.stop();
    await emulator?.close();
  });

  const post = async (body: unknown) => {
    const response = await fetch(bff.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('answers a registered persisted query by its hash alone, every time', async () => {
    const query = '{categories{name}}';
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };

    expect((await post({ extensions })).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await post({ query, extensions });
    expect(registered.body.errors).toBeUndefined();
    expect(registered.body.data.categories.length).toBeGreaterThanOrEqual(10);
    for (let i = 0; i < 3; i++) {
      const byHash = await post({ extensions });
      expect(byHash.status).toBe(200);
      expect(byHash.body).toEqual(registered.body);
    }
  });
});
