import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/**
 * Start-up of the product as the README runs it (the built entry, a process of its own): what it
 * says when a setting is wrong, and what it writes where.
 */

/** Each start loads the whole product: a few seconds apiece on a busy machine, and some tests start several. */
const STARTS = { timeout: 90_000 };

/** The output of a start that must fail before the banner. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  return startBuiltEntry({ env }).then(
    async (entry) => {
      await entry.stop();
      throw new Error(`started although it should not have: ${entry.output()}`);
    },
    (error: Error) => error.message,
  );
}

/** The one line a refused start writes: its message and exit code, and no stack trace. */
function expectOneClearLine(output: string, line: RegExp): void {
  expect(output).toMatch(/exited \(1\) before printing its banner/);
  const written = output.slice(output.indexOf('its output:\n') + 'its output:\n'.length).trim();
  expect(written).toMatch(line);
  expect(written).not.toMatch(/^\s+at /m);
  expect(written.split('\n')).toHaveLength(1);
}

describe('a start-up that cannot listen says why in one line and exits 1', STARTS, () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('a PORT in use', async () => {
    expectOneClearLine(
      await refusedStart({ PORT: String(busyPort) }),
      new RegExp(`^campaign-bff: PORT=${busyPort}: 127\\.0\\.0\\.1:${busyPort} is already in use by another process \\(EADDRINUSE\\); stop it or choose another PORT$`),
    );
  });

  it('a METRICS_PORT or an EMULATOR_PORT in use', async () => {
    expectOneClearLine(await refusedStart({ METRICS_PORT: String(busyPort) }), new RegExp(`^campaign-bff: METRICS_PORT=${busyPort}: .* already in use .*\\(EADDRINUSE\\)`));
    expectOneClearLine(await refusedStart({ EMULATOR_PORT: String(busyPort) }), new RegExp(`^campaign-bff: EMULATOR_PORT=${busyPort}: .* already in use .*\\(EADDRINUSE\\)`));
  });

  it('a HOST that is no name or no address of this machine', async () => {
    expectOneClearLine(await refusedStart({ HOST: 'no-such-host.invalid' }), /^campaign-bff: HOST="no-such-host\.invalid": no such host name \(ENOTFOUND\)/);
    expectOneClearLine(await refusedStart({ HOST: '192.0.2.1' }), /^campaign-bff: HOST="192\.0\.2\.1": not an address of this machine \(EADDRNOTAVAIL\)/);
  });
});

describe('numbers in settings', STARTS, () => {
  it('are decimal only: 0x3e8 or 1e4 stop the start, naming the variable', async () => {
    expectOneClearLine(await refusedStart({ PORT: '0x3e8' }), /^campaign-bff: invalid configuration: PORT="0x3e8": must be a whole number from 0 to 65535$/);
    expectOneClearLine(await refusedStart({ SHUTDOWN_GRACE_MS: '1e4' }), /^campaign-bff: invalid configuration: SHUTDOWN_GRACE_MS="1e4": must be a whole number from 0 to 600000$/);
  });
});

describe('APP_KEYS_FILE at start-up', STARTS, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bff-startup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('unreadable: the start fails, naming the variable and the cause, instead of an instance without its keys', async () => {
    const missing = join(dir, 'no-such-keys.json');
    expectOneClearLine(
      await refusedStart({ APP_KEYS_FILE: missing }),
      new RegExp(`^campaign-bff: invalid configuration: APP_KEYS_FILE="${missing.replace(/[.]/g, '\\.')}": cannot be read \\(ENOENT: no such file or directory\\)$`),
    );
    expect(await refusedStart({ APP_KEYS_FILE: dir })).toMatch(/APP_KEYS_FILE=".*": cannot be read \(EISDIR/);
  });

  it('not usable: the start fails too, saying what is wrong where', async () => {
    const bad = join(dir, 'bad-keys.json');
    writeFileSync(bad, '{ "ios-app-key-1": ');
    expect(await refusedStart({ APP_KEYS_FILE: bad })).toMatch(/APP_KEYS_FILE=".*bad-keys\.json": not valid JSON/);
    writeFileSync(bad, JSON.stringify({ 'ios-app-key-1': { name: 'iOS' } }));
    expect(await refusedStart({ APP_KEYS_FILE: bad })).toMatch(/APP_KEYS_FILE=".*bad-keys\.json": ios-app-key-1: needs exactly one of "partnerToken"/);
  });
});

describe('a misspelt variable', STARTS, () => {
  let entry: BuiltEntry | undefined;
  afterEach(async () => entry?.stop());

  it('is named with the setting it meant, in one warning; the ordinary environment gets none', async () => {
    entry = await startBuiltEntry({
      env: {
        SHUTDOWN_GRACE: '5000',
        // What Kubernetes links into a pod for services named like setting families, and other programs' settings.
        BACKEND_PORT: 'tcp://10.96.3.4:8080',
        BACKEND_SERVICE_HOST: '10.96.3.4',
        FEED_PORT_80_TCP_ADDR: '10.96.3.5',
        APP_VERSION: '1.4.2',
        REDIS_URL: 'redis://cache:6379',
      },
    });
    const warnings = entry.logs().filter((line) => line.level === 40);
    expect(warnings).toEqual([
      expect.objectContaining({
        variable: 'SHUTDOWN_GRACE',
        meant: 'SHUTDOWN_GRACE_MS',
        msg: 'SHUTDOWN_GRACE is not a setting of this service and is ignored: did you mean SHUTDOWN_GRACE_MS?',
      }),
    ]);
    expect(entry.output()).not.toContain('5000');
  });
});

describe('standard output in production', STARTS, () => {
  let emulator: RunningEmulator;
  let entry: BuiltEntry | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
  });
  afterEach(async () => entry?.stop());
  afterAll(() => emulator?.close());

  it('carries JSON lines only: the start-up facts are one of them', async () => {
    entry = await startBuiltEntry({ env: { NODE_ENV: 'production', CAMPAIGN_API_URL: emulator.url } });
    await fetch(entry.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    entry.child.kill('SIGTERM');
    expect(await entry.exited).toEqual({ code: 0, signal: null });
    const lines = entry.stdout().split('\n').filter((line) => line !== '');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['started', 'graphql request', 'shutting down: finishing in-flight requests', 'stopped']);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 30,
      msg: 'started',
      mode: 'production',
      graphql: entry.url,
      health: expect.stringMatching(/\/healthz .*\/readyz$/),
      metrics: entry.metricsUrl,
      backend: emulator.url,
      cache: 'in memory',
      tracing: expect.stringMatching(/^off/),
    });
  });

  it('in development, the banner stays text for people', async () => {
    entry = await startBuiltEntry();
    expect(entry.stdout()).toMatch(/^Campaign GraphQL BFF \(development\)$/m);
    expect(entry.stdout()).not.toContain('"msg":"started"');
  });
});

describe('credentials in URLs', STARTS, () => {
  let entry: BuiltEntry | undefined;
  afterEach(async () => entry?.stop());
  const PASSWORD = 'pa55-w0rd-in-url';

  it('never appear: not in configuration errors', async () => {
    const cases: Record<string, string>[] = [
      { CACHE_URL: `redis://cache-user:${PASSWORD}@127.0.0.1:6379x` },
      { NODE_ENV: 'production', CAMPAIGN_API_URL: `ftp://api-user:${PASSWORD}@api.example.com` },
    ];
    for (const env of cases) {
      const refused = await refusedStart(env);
      expect(refused).toMatch(/exited \(1\)/);
      expect(refused).toContain('[redacted]@');
      expect(refused).not.toContain(PASSWORD);
    }
  });

  it('never appear: not in the start-up line, nor in the logs of a backend and a Redis that refuse', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    entry = await startBuiltEntry({
      env: {
        NODE_ENV: 'production',
        CAMPAIGN_API_URL: `http://api-user:${PASSWORD}@127.0.0.1:${port}/api`,
        CACHE_URL: `redis://cache-user:${PASSWORD}@127.0.0.1:${port}`,
        CURSOR_SECRET: 'built-entry-startup-cursor-secret-32-characters',
        BACKEND_MAX_ATTEMPTS: '1',
      },
    });
    const answer = await fetch(entry.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer some-partner-token' },
      body: JSON.stringify({ query: '{ categories { id } }' }),
    });
    expect(((await answer.json()) as any).errors[0].extensions.code).toBe('BACKEND_UNAVAILABLE');
    const logs = () => entry!.logs().map((line) => line.msg);
    for (let i = 0; i < 100 && !logs().includes('cache unavailable; serving from the backend'); i++) await new Promise((r) => setTimeout(r, 50));

    const started = entry.logs().find((line) => line.msg === 'started')!;
    expect(started.backend).toBe(`http://[redacted]@127.0.0.1:${port}/api`);
    expect(started.cache).toBe(`Redis redis://[redacted]@127.0.0.1:${port}`);
    expect(logs()).toEqual(expect.arrayContaining(['campaign API unavailable; requests that need it fail until it answers', 'cache unavailable; serving from the backend']));
    expect(entry.output()).not.toContain(PASSWORD);
  });
});
