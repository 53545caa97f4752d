import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { cid } from '../helpers/ids.js';

/**
 * The process as `npm start` runs it (the built entry, NODE_ENV not "test"), stopped by a signal
 * while a query and a mutation wait on a slow backend.
 */

const GRACE_MS = 5000;
const LATENCY_MS = 1500;

let entry: BuiltEntry | undefined;
let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await entry?.stop();
  await emulator?.close();
  entry = emulator = undefined;
});

async function admin(emulatorUrl: string, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<any> {
  const response = await fetch(`${emulatorUrl}/_emulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`admin ${path} answered ${response.status}`);
  return response.json();
}

/** The answer, or what went wrong as `failure`, so a failed request fails the assertions rather than the run. */
async function gql(
  url: string,
  query: string,
): Promise<{ status?: number; connection?: string | null; retryAfter?: string | null; body?: any; failure?: string; at: number }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-store-token' },
      body: JSON.stringify({ query }),
    });
    return {
      status: response.status,
      connection: response.headers.get('connection'),
      retryAfter: response.headers.get('retry-after'),
      body: await response.json(),
      at: Date.now(),
    };
  } catch (error) {
    return { failure: String((error as Error).cause ?? error), at: Date.now() };
  }
}

/** Resolves with the error code of a fresh TCP connection to the BFF's port, or 'connected'. */
function tryConnect(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends a query and a mutation the backend answers after `latencyMs`, and resolves once both wait on it. */
async function queryAndMutationInFlight(running: BuiltEntry, emulatorUrl: string, latencyMs: number): Promise<[ReturnType<typeof gql>, ReturnType<typeof gql>]> {
  // A token the campaign API has judged lately, so both calls go at once (a token's first call tells the others).
  await gql(running.url, '{ campaign(id: "1") { id } }');
  for (const operation of ['campaigns/get', 'campaigns/stop']) {
    await admin(emulatorUrl, 'faults', { mode: 'latency', latencyMs, operation });
  }
  await admin(emulatorUrl, 'calls', undefined, 'DELETE');

  const query = gql(running.url, '{ campaign(id: "1") { id card { title } } }');
  const mutation = gql(running.url, 'mutation { stopCampaign(id: "1") { campaign { id status } userErrors { code } } }');
  await until(async () => {
    const { calls } = await admin(emulatorUrl, 'calls');
    return calls['campaigns/get'] >= 1 && calls['campaigns/stop'] >= 1;
  }, 'both operations to reach the backend');
  return [query, mutation];
}

/** Sends a query and a mutation, signals once both wait on the backend, and checks the whole shutdown. */
async function shutdownWithRequestsInFlight(running: BuiltEntry, emulatorUrl: string, signal: NodeJS.Signals): Promise<void> {
  const [query, mutation] = await queryAndMutationInFlight(running, emulatorUrl, LATENCY_MS);

  const signalledAt = Date.now();
  running.child.kill(signal);

  await until(async () => (await tryConnect(running.url)) === 'ECONNREFUSED', 'new connections to be refused');
  const refusedAt = Date.now();

  const [queried, mutated] = await Promise.all([query, mutation]);
  // Refused while both were still waiting on the backend, not after they were done.
  expect(refusedAt).toBeLessThan(Math.min(queried.at, mutated.at));
  // Answered, and told not to reuse the connection: the server is about to close it.
  expect(queried).toMatchObject({ status: 200, connection: 'close' });
  expect(mutated).toMatchObject({ status: 200, connection: 'close' });
  expect(queried.body.errors).toBeUndefined();
  expect(queried.body.data.campaign).toMatchObject({ id: cid(1), card: { title: expect.any(String) } });
  expect(mutated.body.errors).toBeUndefined();
  expect(mutated.body.data.stopCampaign).toEqual({ campaign: { id: cid(1), status: 'PAUSED' }, userErrors: [] });

  expect(await running.exited).toEqual({ code: 0, signal: null });
  expect(Date.now() - signalledAt).toBeLessThan(GRACE_MS);
  const messages = running.logs().map((line) => line.msg);
  expect(messages).toContain('shutting down: finishing in-flight requests');
  expect(messages).toContain('stopped');
  expect(running.output()).not.toMatch(/second signal|level":50/);
}

describe('graceful shutdown of the built entry', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'development (embedded emulator): on %s answers the query and the mutation in flight, refuses new connections and exits 0',
    async (signal) => {
      entry = await startBuiltEntry({ env: { SHUTDOWN_GRACE_MS: String(GRACE_MS) } });
      expect(entry.output()).toContain('Campaign GraphQL BFF (development)');
      await shutdownWithRequestsInFlight(entry, entry.emulatorUrl!, signal);
    },
  );

  it('production (separate backend): on SIGTERM answers the query and the mutation in flight, refuses new connections and exits 0', async () => {
    emulator = await startEmulator({ quiet: true });
    entry = await startBuiltEntry({
      // No load balancer in front to wait for (the next test has the delay).
      env: { NODE_ENV: 'production', CAMPAIGN_API_URL: emulator.url, SHUTDOWN_GRACE_MS: String(GRACE_MS), SHUTDOWN_DELAY_MS: '0' },
    });
    expect(entry.logs()).toContainEqual(expect.objectContaining({ msg: 'started', mode: 'production' }));
    expect(entry.emulatorUrl).toBeUndefined();
    await shutdownWithRequestsInFlight(entry, emulator.url, 'SIGTERM');
  });

  it('production: on SIGTERM /readyz answers 503 at once, requests are still served for SHUTDOWN_DELAY_MS, then the port closes', async () => {
    const delayMs = 4000;
    emulator = await startEmulator({ quiet: true });
    entry = await startBuiltEntry({ env: { NODE_ENV: 'production', CAMPAIGN_API_URL: emulator.url, SHUTDOWN_DELAY_MS: String(delayMs) } });
    const readyz = async () => {
      const response = await fetch(entry!.url.replace('/graphql', '/readyz'));
      return { status: response.status, body: (await response.json()) as any };
    };
    expect((await readyz()).status).toBe(200);

    const signalledAt = Date.now();
    entry.child.kill('SIGTERM');
    await until(async () => (await readyz()).status === 503, '/readyz to answer 503');
    expect((await readyz()).body).toMatchObject({ status: 'draining', checks: { backend: { ok: true }, cache: { ok: true } } });
    // The load balancer still sends until it has seen enough failed checks: those requests are
    // answered, each closing its connection so the next one is sent on a new connection.
    const served = await gql(entry.url, '{ campaign(id: "1") { id } }');
    expect(served).toMatchObject({ status: 200, connection: 'close', body: { data: { campaign: { id: cid(1) } } } });
    expect(await tryConnect(entry.url)).toBe('connected');

    await until(async () => (await tryConnect(entry!.url)) === 'ECONNREFUSED', 'new connections to be refused', delayMs + 3000);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(delayMs - 50);
    expect(await entry.exited).toEqual({ code: 0, signal: null });
    expect(entry.logs()).toContainEqual(expect.objectContaining({ signal: 'SIGTERM', delayMs, msg: 'shutting down: finishing in-flight requests' }));
  });

  it('answers the requests still at work when the grace period ends 503 SHUTTING_DOWN, instead of cutting their connections', async () => {
    const graceMs = 1000;
    entry = await startBuiltEntry({ env: { SHUTDOWN_GRACE_MS: String(graceMs) } });
    const [query, mutation] = await queryAndMutationInFlight(entry, entry.emulatorUrl!, 30_000);

    const signalledAt = Date.now();
    entry.child.kill('SIGTERM');
    const [queried, mutated] = await Promise.all([query, mutation]);
    for (const answered of [queried, mutated]) {
      expect(answered).toMatchObject({ status: 503, connection: 'close', retryAfter: '0' });
      expect(answered.body).toEqual({
        errors: [{ message: expect.stringMatching(/shut down before this request finished.*mutation may or may not have taken effect/), extensions: { code: 'SHUTTING_DOWN' } }],
      });
      // At the end of the grace period, not before it.
      expect(answered.at - signalledAt).toBeGreaterThanOrEqual(graceMs - 50);
    }

    expect(await entry.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(graceMs + 2000);
    expect(entry.logs()).toContainEqual(
      expect.objectContaining({ level: 40, interrupted: 2, graceMs, msg: 'shutdown grace period over: requests still at work answered 503 SHUTTING_DOWN' }),
    );
    expect(entry.output()).not.toMatch(/level":50/);
  });

  it('keeps serving /metrics on its own port while the API drains, and closes it last', async () => {
    entry = await startBuiltEntry({ env: { SHUTDOWN_GRACE_MS: '2000' } });
    const [query, mutation] = await queryAndMutationInFlight(entry, entry.emulatorUrl!, 30_000);
    entry.child.kill('SIGTERM');
    await until(async () => (await tryConnect(entry!.url)) === 'ECONNREFUSED', 'the API port to close');

    // A last scrape sees the drain: both requests still at work.
    const scrape = await fetch(entry.metricsUrl!);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^bff_admission_active 2$/m);

    expect((await Promise.all([query, mutation])).map((answered) => answered.status)).toEqual([503, 503]);
    expect(await entry.exited).toEqual({ code: 0, signal: null });
    expect(await tryConnect(entry.metricsUrl!)).toBe('ECONNREFUSED');
  });

  it('the same signal twice at once (a Ctrl-C under npm start: from the terminal, and again from npm) is one request to stop', async () => {
    entry = await startBuiltEntry({ env: { SHUTDOWN_GRACE_MS: String(GRACE_MS) } });
    const [query, mutation] = await queryAndMutationInFlight(entry, entry.emulatorUrl!, LATENCY_MS);
    entry.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 20));
    entry.child.kill('SIGINT');
    expect((await Promise.all([query, mutation])).map((answered) => answered.status)).toEqual([200, 200]);
    expect(await entry.exited).toEqual({ code: 0, signal: null });
    expect(entry.logs().map((line) => line.msg)).not.toContain('second signal: exiting now');
  });

  it('a second signal from outside forces the exit', async () => {
    entry = await startBuiltEntry({ env: { SHUTDOWN_GRACE_MS: '60000' } });
    await admin(entry.emulatorUrl!, 'faults', { mode: 'latency', latencyMs: 30_000, operation: 'campaigns/get' });
    const pending = gql(entry.url, '{ campaign(id: "1") { id } }');
    await until(async () => (await admin(entry!.emulatorUrl!, 'calls')).calls['campaigns/get'] >= 1, 'the query to reach the backend');

    entry.child.kill('SIGTERM');
    // The first signal alone leaves the process waiting on the request in flight.
    const first = await Promise.race([entry.exited, new Promise((r) => setTimeout(() => r('still running'), 500))]);
    expect(first).toBe('still running');

    const secondAt = Date.now();
    entry.child.kill('SIGTERM');
    expect(await entry.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - secondAt).toBeLessThan(2000);
    expect(entry.logs().map((line) => line.msg)).toContain('second signal: exiting now');
    expect(await pending).toMatchObject({ failure: expect.stringMatching(/other side closed|ECONNRESET/) });
  });
});
