import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { startHaproxy, type RunningHaproxy } from '../helpers/haproxy.js';
import { freePort, startRedis, type RunningRedis } from '../helpers/redis.js';
import { CREATE, oneOffInput } from '../graphql/support.js';
import { FEED } from '../apps/support.js';
import { CAMPAIGN_CHANGED } from '../subscriptions/support.js';
import { needs } from '../helpers/needs.js';

/**
 * Three instances of the built entry behind a real HAProxy, on one real redis-server and one
 * backend (the emulator), as an operations team runs them: steady queries and mutations through
 * the load balancer, watchers over WebSocket and SSE through it too, while Redis goes away for
 * 30 s and comes back empty, while each instance in turn is restarted, and while the backend is
 * down for longer than readiness used to allow. No request may be lost, and every watcher gets
 * every event of a mutation once.
 *
 * HAProxy checks GET /readyz every 500 ms and takes an instance out after 2 failures: each
 * instance keeps serving for SHUTDOWN_DELAY_MS = 2 s after SIGTERM, longer than that.
 * FLEET_REDIS_OUTAGE_MS shortens the Redis outage when trying the test by hand.
 */

const INTER_MS = 500;
const FALL = 2;
const DELAY_MS = 2000;
const POLL_MS = 250;
const REDIS_OUTAGE_MS = Number(process.env.FLEET_REDIS_OUTAGE_MS ?? 30_000);
/** READY_BACKEND_WINDOW_MS's old default: an outage past it took every instance out of the load balancer. */
const OLD_READY_WINDOW_MS = 30_000;
const CLIENT_RATE_LIMIT = 20;
const APP_KEY = 'fleet-app-key';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Slot {
  name: string;
  port: number;
  entry: BuiltEntry;
  /** Every process this slot ran, for its log lines. */
  past: BuiltEntry[];
}

interface Mutation {
  id: string;
  sentAt: number;
  answeredAt: number;
}

/** Requests sent one after another by `concurrency` loops until stopped; each answer is judged by `send`. */
class Load {
  answered = 0;
  readonly failures: string[] = [];
  #running = true;
  readonly #loops: Promise<void>[];

  constructor(concurrency: number, pauseMs: number, send: (n: number) => Promise<string | undefined>) {
    let n = 0;
    this.#loops = Array.from({ length: concurrency }, async () => {
      while (this.#running) {
        let failure: string | undefined;
        try {
          failure = await send(n++);
        } catch (error) {
          failure = String((error as Error).cause ?? error);
        }
        if (failure) this.failures.push(failure);
        else this.answered++;
        await sleep(pauseMs);
      }
    });
  }

  async stop(): Promise<this> {
    this.#running = false;
    await Promise.all(this.#loops);
    return this;
  }
}

interface Span {
  startedAt: number;
  /** When its first event arrived: from then on, the subscription surely receives. */
  confirmedAt?: number;
  endedAt?: number;
  why?: string;
}

interface Received {
  id: string;
  previousStatus: string | null;
  status: string;
  at: number;
  span: number;
}

/** A watcher as a resilient client is written: it subscribes again, through the load balancer, whenever its subscription ends. */
class Watcher {
  readonly spans: Span[] = [];
  readonly events: Received[] = [];
  readonly errors: string[] = [];
  #stopped = false;
  #dispose: (() => Promise<void> | void) | undefined;

  constructor(
    readonly transport: 'websocket' | 'sse',
    private readonly url: string,
    private readonly token: string,
  ) {
    this.#subscribe();
  }

  #subscribe(): void {
    if (this.#stopped) return;
    const span: Span = { startedAt: Date.now() };
    const index = this.spans.push(span) - 1;
    const headers = { authorization: `Bearer ${this.token}` };
    const client =
      this.transport === 'websocket'
        ? createWsClient({ url: this.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: headers, retryAttempts: 0, lazy: true, onNonLazyError: () => {} })
        : createSseClient({ url: `${this.url}/stream`, headers, retryAttempts: 0 });
    const end = (why?: string) => {
      if (span.endedAt !== undefined) return;
      span.endedAt = Date.now();
      span.why = why;
      void client.dispose();
      if (!this.#stopped) setTimeout(() => this.#subscribe(), 50);
    };
    client.subscribe<any>(
      { query: CAMPAIGN_CHANGED },
      {
        next: (value) => {
          const changed = value.data?.campaignChanged;
          if (!changed || value.errors) {
            this.errors.push(JSON.stringify(value));
            return;
          }
          span.confirmedAt ??= Date.now();
          this.events.push({ id: changed.campaign.id, previousStatus: changed.previousStatus, status: changed.status, at: Date.now(), span: index });
        },
        error: (error: unknown) => end(String((error as Error)?.message ?? JSON.stringify(error))),
        complete: () => end(),
      },
    );
    this.#dispose = () => client.dispose();
  }

  /** How often each campaign id arrived. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const e of this.events) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
    return counts;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#dispose?.();
  }
}

/** HAProxy's view of the instances, looked at every 250 ms: every state that was not UP. */
class StateSampler {
  readonly seen: string[] = [];
  #running = true;
  readonly #loop: Promise<void>;

  constructor(haproxy: RunningHaproxy) {
    this.#loop = (async () => {
      while (this.#running) {
        for (const [name, state] of Object.entries(await haproxy.states())) if (state !== 'UP') this.seen.push(`${name} ${state}`);
        await sleep(250);
      }
    })();
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
  }
}

/**
 * The events a watcher must have had: those of every mutation sent once one of its subscriptions
 * received, and answered before the instance holding that subscription was told to stop. A
 * subscription ends only when its instance stops (after SHUTDOWN_DELAY_MS, by when the load
 * balancer sends elsewhere); its client then subscribes again through the load balancer. An
 * event published in between is one the client re-reads after subscribing again.
 */
function required(w: Watcher, log: Mutation[], signalled: number[]): { id: string; span: number }[] {
  const found: { id: string; span: number }[] = [];
  w.spans.forEach((span, index) => {
    if (span.confirmedAt === undefined) return;
    const stoppedAt = span.endedAt === undefined ? Infinity : Math.max(...signalled.filter((t) => t < span.endedAt!));
    for (const m of log) if (m.sentAt >= span.confirmedAt && m.answeredAt <= stoppedAt) found.push({ id: m.id, span: index });
  });
  return found;
}

describe.skipIf(!needs('redis-server', 'haproxy'))('three instances behind HAProxy on one Redis', () => {
  let redis: RunningRedis;
  let emulator: RunningEmulator;
  let haproxy: RunningHaproxy;
  let dir: string;
  let token: string;
  let partnerCampaignId = 50_000;
  const slots: Slot[] = [];
  const watchers: Watcher[] = [];
  let lb: string;

  const env = (port: number) => ({
    CAMPAIGN_API_URL: emulator.url,
    CACHE_URL: redis.url,
    // A fleet shares CURSOR_SECRET: what it keeps per partner or app in Redis is named by keyed hashes of it.
    CURSOR_SECRET: 'fleet-trial-cursor-secret-of-32-characters',
    TRUST_PROXY: 'loopback',
    PORT: String(port),
    SUBSCRIPTION_POLL_INTERVAL_MS: String(POLL_MS),
    SHUTDOWN_DELAY_MS: String(DELAY_MS),
    SHUTDOWN_GRACE_MS: '5000',
    APP_KEYS_FILE: join(dir, 'app-keys.json'),
    CLIENT_RATE_LIMIT: String(CLIENT_RATE_LIMIT),
    RATE_LIMIT_WINDOW_MS: '60000',
    // Stale within the backend outage below: the last good feed is what is served then.
    FEED_TTL_MS: '2000',
  });
  const direct = (slot: Slot, path: string) => `http://127.0.0.1:${slot.port}${path}`;
  const readyz = async (slot: Slot) => {
    const response = await fetch(direct(slot, '/readyz'));
    return { status: response.status, body: (await response.json()) as any };
  };
  const allUp = async () => {
    const states = await haproxy.states();
    return slots.every((slot) => states[slot.name] === 'UP');
  };
  const post = (body: unknown, headers: Record<string, string>) =>
    fetch(`${lb}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const partner = { authorization: `Bearer ${DEMO_TOKENS.store}` };

  /** Queries of a partner, each answered 200 with data and no error, or counted as a failure. */
  const queries = () =>
    new Load(3, 20, async () => {
      const response = await post({ query: '{ categories { id } campaigns(first: 3) { totalCount nodes { id status } } }' }, partner);
      const body = (await response.json()) as any;
      if (response.status !== 200 || body.errors || !body.data?.campaigns?.nodes?.length) return `${response.status} ${JSON.stringify(body).slice(0, 300)}`;
      return undefined;
    });
  /** Campaigns created one after another through the load balancer, each an event for every watcher. */
  const mutations = (log: Mutation[]) =>
    new Load(1, 100, async () => {
      const sentAt = Date.now();
      const response = await post({ query: CREATE, variables: { input: oneOffInput(++partnerCampaignId) } }, { authorization: `Bearer ${token}` });
      const body = (await response.json()) as any;
      const id = body.data?.createCampaign?.campaign?.id;
      if (response.status !== 200 || body.errors || !id) return `${response.status} ${JSON.stringify(body).slice(0, 300)}`;
      log.push({ id, sentAt, answeredAt: Date.now() });
      return undefined;
    });
  /** Every watcher has had every one of these events (or waited long enough to say which it lacks). */
  const delivered = async (log: Mutation[]) => {
    const ids = log.map((m) => m.id);
    await until('every watcher to have every event', () => watchers.every((w) => ids.every((id) => w.counts().has(id))), 20_000).catch(() => undefined);
  };

  const startSlot = (port: number): Promise<BuiltEntry> => startBuiltEntry({ env: env(port), startTimeoutMs: 30_000 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bff-fleet-'));
    redis = await startRedis();
    emulator = await startEmulator({ quiet: true, moderation: { mode: 'manual' } });
    writeFileSync(join(dir, 'app-keys.json'), JSON.stringify({ [APP_KEY]: { name: 'Fleet app', partnerTokens: [DEMO_TOKENS.store] } }));
    token = `fleet-partner-${process.pid}-${Date.now()}`;
    await fetch(`${emulator.url}/_emulator/partners`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, kind: 'store' }) });

    const ports = [await freePort(), await freePort(), await freePort()];
    const entries = await Promise.all(ports.map(startSlot));
    entries.forEach((entry, i) => slots.push({ name: `s${i}`, port: ports[i]!, entry, past: [] }));
    haproxy = await startHaproxy({ servers: slots.map(({ name, port }) => ({ name, port })), interMs: INTER_MS, fall: FALL, rise: 1 });
    lb = haproxy.url;
    await until('every instance up in HAProxy', allUp);

    for (let i = 0; i < 3; i++) watchers.push(new Watcher('websocket', `${lb}/graphql`, token), new Watcher('sse', `${lb}/graphql`, token));
    // Every watcher receives from the first event it gets on.
    const warmUp: Mutation[] = [];
    const load = mutations(warmUp);
    await until('every watcher subscribed', () => watchers.every((w) => w.spans.at(-1)?.confirmedAt !== undefined), 20_000);
    await load.stop();
    expect(load.failures).toEqual([]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(watchers.map((w) => w.stop()));
    await Promise.all(slots.map((slot) => slot.entry.stop()));
    await haproxy?.close();
    await emulator?.close();
    await redis?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('counts the per-client rate limit for each client the load balancer forwards, not for the load balancer', async () => {
    // The test client is on loopback, a trusted proxy too: the address it adds stands for a client behind it.
    const feedFrom = (client?: string) => post({ query: FEED, variables: { first: 5 } }, { 'x-app-key': APP_KEY, ...(client ? { 'x-forwarded-for': client } : {}) });
    const statuses = [];
    for (let i = 0; i <= CLIENT_RATE_LIMIT; i++) statuses.push((await feedFrom('198.51.100.10')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CLIENT_RATE_LIMIT);
    expect(statuses.at(-1)).toBe(429);
    expect((await feedFrom('198.51.100.11')).status).toBe(200);
    // Without a forwarded client, the client is the test's own address, counted on its own.
    expect((await feedFrom()).status).toBe(200);
  });

  it('a 30 s Redis outage under steady load: no instance leaves the load balancer, every request is answered with data, every event reaches every watcher once', async () => {
    const log: Mutation[] = [];
    const load = queries();
    const writes = mutations(log);
    const states = new StateSampler(haproxy);
    let down = false;
    try {
      await sleep(1000);
      await redis.stop(true);
      down = true;
      const outageEnds = Date.now() + REDIS_OUTAGE_MS;
      await until('every instance to see Redis down', async () => (await Promise.all(slots.map(readyz))).every((r) => r.body.checks.cache.ok === false));
      for (const answer of await Promise.all(slots.map(readyz))) {
        expect(answer).toEqual({ status: 200, body: { status: 'ready', checks: { backend: expect.objectContaining({ ok: true }), cache: { ok: false, detail: 'redis cache does not answer' } } } });
      }
      await sleep(outageEnds - Date.now());
      await redis.restart();
      down = false;
      await until('every instance to see Redis back', async () => (await Promise.all(slots.map(readyz))).every((r) => r.body.checks.cache.ok), 20_000);
      // Reads by the fleet after the return: the shared record is rebuilt and caught up with.
      await sleep(POLL_MS * 8);
    } finally {
      // The tests after this one need Redis and a quiet fleet, whatever happened here.
      if (down) await redis.restart();
      await Promise.all([states.stop(), writes.stop(), load.stop()]);
    }
    await delivered(log);

    expect(states.seen).toEqual([]);
    expect(load.failures).toEqual([]);
    expect(writes.failures).toEqual([]);
    expect(load.answered).toBeGreaterThan(100);
    expect(log.length).toBeGreaterThan(REDIS_OUTAGE_MS / 1000);
    const ids = log.map((m) => m.id);
    for (const w of watchers) {
      // No watcher had to subscribe again, and each got each event once.
      expect({ transport: w.transport, spans: w.spans.length, errors: w.errors }).toEqual({ transport: w.transport, spans: 1, errors: [] });
      const counts = w.counts();
      expect({ transport: w.transport, missing: ids.filter((id) => !counts.has(id)), twice: [...counts].filter(([, n]) => n > 1).map(([id]) => id) }).toEqual({
        transport: w.transport,
        missing: [],
        twice: [],
      });
    }
    for (const slot of slots) {
      const messages = slot.entry.logs().map((line) => line.msg);
      expect(messages).toContain('dependency down: redis; still serving what does not need it');
      expect(messages).toContain('dependency up again: redis');
    }
  }, REDIS_OUTAGE_MS + 90_000);

  it('a rolling restart under steady load: every request is answered with data, every watcher is back and gets every event once', async () => {
    const log: Mutation[] = [];
    const load = queries();
    const writes = mutations(log);
    const signalled: number[] = [];
    try {
      await sleep(500);
      for (const slot of slots) {
        signalled.push(Date.now());
        slot.entry.child.kill('SIGTERM');
        expect(await slot.entry.exited).toEqual({ code: 0, signal: null });
        slot.past.push(slot.entry);
        slot.entry = await startSlot(slot.port);
        await until(`${slot.name} back in HAProxy`, allUp);
        await sleep(500);
      }
      await sleep(1000);
    } finally {
      await Promise.all([writes.stop(), load.stop()]);
      // The test after this one needs every instance.
      for (const slot of slots) if (slot.entry.child.exitCode !== null || slot.entry.child.signalCode !== null) slot.entry = await startSlot(slot.port);
    }
    const done = () => watchers.every((w) => required(w, log, signalled).every((r) => w.events.some((e) => e.id === r.id && e.span === r.span)));
    await until('every watcher to have every event it must have', done, 20_000).catch(() => undefined);

    expect(load.failures).toEqual([]);
    expect(writes.failures).toEqual([]);
    expect(load.answered).toBeGreaterThan(100);
    for (const stopped of slots.flatMap((s) => s.past)) {
      expect(stopped.logs().map((line) => line.msg)).toContain('stopped');
      expect(stopped.output()).not.toMatch(/"level":50/);
    }
    for (const w of watchers) {
      expect({ transport: w.transport, errors: w.errors }).toEqual({ transport: w.transport, errors: [] });
      // Back: its latest subscription receives.
      expect(w.spans.at(-1)).toMatchObject({ confirmedAt: expect.any(Number) });
      expect(w.spans.at(-1)!.endedAt).toBeUndefined();
      // Subscriptions ended only when their instance stopped.
      expect(w.spans.filter((span) => span.endedAt !== undefined && !signalled.some((t) => t < span.endedAt!))).toEqual([]);
      const counts = w.counts();
      expect([...counts].filter(([, n]) => n > 1).map(([id]) => id)).toEqual([]);
      const missing = required(w, log, signalled).filter((r) => !w.events.some((e) => e.id === r.id && e.span === r.span));
      expect({ transport: w.transport, missing }).toEqual({ transport: w.transport, missing: [] });
    }
  }, 120_000);

  it('a backend outage longer than readiness used to allow: every instance stays in the load balancer and serves the last good feed and the cached categories', async () => {
    let client = 0;
    // Many app users, each its own address behind the load balancer.
    const feed = new Load(2, 50, async () => {
      const response = await post({ query: FEED, variables: { first: 5 } }, { 'x-app-key': APP_KEY, 'x-forwarded-for': `10.77.${(client >> 8) & 255}.${client++ & 255}` });
      const body = (await response.json()) as any;
      if (response.status !== 200 || body.errors || !body.data?.offerFeed?.nodes?.length) return `${response.status} ${JSON.stringify(body).slice(0, 300)}`;
      return undefined;
    });
    const categories = new Load(1, 50, async () => {
      const response = await post({ query: '{ categories { id name } }' }, partner);
      const body = (await response.json()) as any;
      if (response.status !== 200 || body.errors || !body.data?.categories?.length) return `${response.status} ${JSON.stringify(body).slice(0, 300)}`;
      return undefined;
    });
    // Reads that need the backend fail during the outage; they tell each instance it is down.
    const reads = new Load(1, 100, async () => {
      await post({ query: '{ campaign(id: "1") { id } }' }, partner);
      return undefined;
    });
    const states = new StateSampler(haproxy);
    const faults = `${emulator.url}/_emulator/faults`;
    const seen: string[] = [];
    let stale: any;
    try {
      await until('the feed served', () => feed.answered > 5);
      await fetch(faults, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'http500' }) });
      const started = Date.now();
      await until('every instance to see the backend down', async () => (await Promise.all(slots.map(readyz))).every((r) => r.body.checks.backend.ok === false), 20_000);
      // Past the old window, and the load balancer's checks after it.
      while (Date.now() - started < OLD_READY_WINDOW_MS + 3 * INTER_MS * FALL) {
        (await Promise.all(slots.map(readyz))).forEach(({ status, body }, i) => {
          if (status !== 200 || body.checks.backend.ok !== false) seen.push(`${slots[i]!.name} ${status} ${JSON.stringify(body)}`);
        });
        await sleep(250);
      }
      stale = await (await post({ query: FEED, variables: { first: 5 } }, { 'x-app-key': APP_KEY, 'x-forwarded-for': '10.78.0.1' })).json();
      await fetch(faults, { method: 'DELETE' });
      await until('every instance to see the backend back', async () => (await Promise.all(slots.map(readyz))).every((r) => r.body.checks.backend.ok), 30_000);
    } finally {
      await fetch(faults, { method: 'DELETE' });
      await Promise.all([states.stop(), feed.stop(), categories.stop(), reads.stop()]);
    }

    expect(seen).toEqual([]);
    expect(states.seen).toEqual([]);
    expect(feed.failures).toEqual([]);
    expect(categories.failures).toEqual([]);
    expect(stale).toMatchObject({ data: { offerFeed: { nodes: expect.any(Array) } }, extensions: { feed: { stale: true } } });
    for (const slot of slots) {
      const messages = slot.entry.logs().map((line) => line.msg);
      expect(messages).toContain('dependency down: backend; still serving what does not need it');
      expect(messages).toContain('dependency up again: backend');
    }
  }, OLD_READY_WINDOW_MS + 90_000);
});
