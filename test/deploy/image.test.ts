import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { needs } from '../helpers/needs.js';
import { freePort } from '../helpers/redis.js';
import { where } from '../helpers/system-programs.js';
import { root } from './support.js';

/**
 * The image, built from the Dockerfile and run as an operator runs it: a read-only root, the
 * image's own non-root user, `--stop-timeout` as the Dockerfile's header shows it, and `docker
 * stop` while a request waits on the backend. The build gets an .npmrc as the `npmrc` BuildKit
 * secret holding a token made for the test, which no layer may hold; the CA this machine's node
 * trusts, if any, is the `npm_ca` secret, as a builder behind a TLS-inspecting proxy passes it.
 */

const run = promisify(execFile);
const BUILD_TIMEOUT_MS = 20 * 60_000;
/** The stop timeout the Dockerfile's header and the runbook give `docker run`. */
const STOP_TIMEOUT_S = 30;
const DOCKER_DEFAULT_STOP_TIMEOUT_MS = 10_000;
/** How long the backend takes to answer the request in flight at the stop. */
const BACKEND_LATENCY_MS = 12_000;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

const docker = (...args: string[]) =>
  run(where('docker')!, args, { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, DOCKER_BUILDKIT: '1' } }).then((r) => r.stdout.trim());

describe.skipIf(!needs('docker'))('the image, built and run', () => {
  const tag = `campaign-bff-test:${process.pid}-${Date.now()}`;
  const token = `npm-token-${randomBytes(12).toString('hex')}`;
  const commit = '3f2c1ab0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4';
  let work: string;
  let emulator: RunningEmulator | undefined;
  let container: string | undefined;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'bff-image-build-'));
    const registry = (await run('npm', ['config', 'get', 'registry'])).stdout.trim();
    // The registry this machine uses, and a token for a host nothing calls: it must reach npm ci
    // and nothing else.
    writeFileSync(join(work, 'npmrc'), `registry=${registry}\n//npm.example.invalid/:_authToken=${token}\n`);
    const ca = process.env.NODE_EXTRA_CA_CERTS;
    await docker(
      'build',
      '--secret',
      `id=npmrc,src=${join(work, 'npmrc')}`,
      ...(ca ? ['--secret', `id=npm_ca,src=${ca}`] : []),
      '--build-arg',
      `BUILD_COMMIT=${commit}`,
      '--tag',
      tag,
      root,
    );
    emulator = await startEmulator({ quiet: true });
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    if (container) await docker('rm', '--force', container).catch(() => undefined);
    await docker('rmi', '--force', tag).catch(() => undefined);
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('holds the npm credentials in no layer and nowhere in its configuration or history', async () => {
    const archive = join(work, 'image.tar');
    await docker('save', '--output', archive, tag);
    // `docker save` writes each layer as an uncompressed tar inside this one.
    expect(readFileSync(archive).includes(token)).toBe(false);
    expect(await docker('history', '--no-trunc', tag)).not.toContain(token);
    expect(await docker('image', 'inspect', tag)).not.toContain(token);
  });

  it('carries the release and the commit as labels, runs as a numeric non-root user, and ships neither the explorer nor the build tools', async () => {
    const [inspected] = JSON.parse(await docker('image', 'inspect', tag)) as [{ Config: { User: string; Labels: Record<string, string> } }];
    expect(inspected.Config.Labels).toMatchObject({ 'org.opencontainers.image.version': version, 'org.opencontainers.image.revision': commit });
    expect(inspected.Config.User).toBe('1000:1000');
    const listing = await docker('run', '--rm', '--entrypoint', 'sh', tag, '-c', 'ls dist; echo --; ls node_modules; echo --; id -u');
    const [dist, modules, uid] = listing.split('\n--\n').map((part) => part.trim().split('\n'));
    expect(dist).toEqual(['schema', 'src']);
    expect(modules).toContain('@apollo');
    expect(modules).not.toContain('esbuild');
    expect(uid).toEqual(['1000']);
  });

  it(`serves on a read-only root; docker stop drains a request in flight and exits 0 within --stop-timeout ${STOP_TIMEOUT_S}`, async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    container = await docker(
      'run',
      '--detach',
      '--read-only',
      `--stop-timeout=${STOP_TIMEOUT_S}`,
      // The host's network: the emulator this test started listens on its loopback address.
      '--network=host',
      '--env',
      `PORT=${port}`,
      '--env',
      `METRICS_PORT=${metricsPort}`,
      '--env',
      'HOST=127.0.0.1',
      '--env',
      `CAMPAIGN_API_URL=${emulator!.url}`,
      // Room for one slow backend answer: the request below waits on it past Docker's default stop timeout.
      '--env',
      `BACKEND_ATTEMPT_TIMEOUT_MS=${BACKEND_LATENCY_MS + 3000}`,
      '--env',
      `BACKEND_BUDGET_MS=${BACKEND_LATENCY_MS + 3000}`,
      tag,
    );
    const url = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, 'the container to be ready', 60_000);

    // A query the backend answers after SHUTDOWN_DELAY_MS (6 s in production), and after Docker's
    // default stop timeout: still in flight when the port closes.
    await fetch(`${emulator!.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'latency', latencyMs: BACKEND_LATENCY_MS, operation: 'campaigns/get' }),
    });
    const answer = fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
      body: JSON.stringify({ query: '{ campaign(id: "1") { id card { title } } }' }),
    });
    await until(async () => ((await (await fetch(`${emulator!.url}/_emulator/calls`)).json()) as { calls: Record<string, number> }).calls['campaigns/get']! >= 1, 'the query to reach the backend', 10_000);

    const stopped = new Promise<number>((resolve, reject) => {
      const started = Date.now();
      // No --time: the container's own stop timeout, as `docker run --stop-timeout` set it.
      const stop = spawn(where('docker')!, ['stop', container!], { stdio: 'ignore' });
      stop.once('error', reject);
      stop.once('exit', () => resolve(Date.now() - started));
    });
    const response = await answer;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    const tookMs = await stopped;

    const [state] = JSON.parse(await docker('container', 'inspect', container!)) as [{ State: { ExitCode: number; OOMKilled: boolean }; HostConfig: { ReadonlyRootfs: boolean } }];
    // 0: drained and exited by itself; 137 would be Docker's SIGKILL at the stop timeout.
    expect(state.State).toMatchObject({ ExitCode: 0, OOMKilled: false });
    expect(state.HostConfig.ReadonlyRootfs).toBe(true);
    // The stop lasted as long as the request it waited for, past Docker's default of 10 s: without
    // --stop-timeout it would have ended in SIGKILL.
    expect(tookMs).toBeGreaterThan(DOCKER_DEFAULT_STOP_TIMEOUT_MS);
    expect(tookMs).toBeLessThan(STOP_TIMEOUT_S * 1000);
    const logs = (await run(where('docker')!, ['logs', container!])).stdout;
    const messages = logs
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(expect.arrayContaining(['started', 'shutting down: finishing in-flight requests', 'stopped']));
  }, 120_000);
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
