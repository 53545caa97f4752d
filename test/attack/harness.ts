import { createHash, randomBytes } from 'node:crypto';
import { subscribe as subscribeChannel, unsubscribe as unsubscribeChannel } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { MEMORY_PROBE_NODE_OPTIONS, sampleMemory } from '../helpers/memory-probe.js';
import { parseExposition } from '../helpers/scrape.js';

/**
 * The target of the attack suite: the built entry as its own process, in production (a campaign
 * API emulator in this process, app keys from a file, a manifest of trusted documents) or in
 * development as `npm start` runs it (the embedded emulator, the demo fallback, `demo-app-key`);
 * the backend calls each caller causes; and the BFF's own account of its memory, event loop and
 * breaker, read from its metrics listener.
 */

export type Mode = 'production' | 'development';

/** The app the bystander reads the feed with (for the demo aggregator), and the one the attacker holds (for the demo store). */
export const BYSTANDER_APP_KEY = 'bystander-app-key';
export const ATTACK_APP_KEY = 'attack-app-key';
/** The partner that keeps working while the attack runs; every call with its token is the bystander's. */
export const BYSTANDER_TOKEN = DEMO_TOKENS.aggregator;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const OFFER_FEED = 'query BystanderFeed($first: Int) { offerFeed(first: $first) { totalCount nodes { id card { title } } } }';
export const CAMPAIGN_CHANGED = 'subscription Watch($ids: [ID!]) { campaignChanged(ids: $ids) { campaign { id status } status at } }';
/** The trusted documents of the target: what apps run in production, and the subscription partners use. */
export const MANIFEST = { [`sha256:${sha256(OFFER_FEED)}`]: OFFER_FEED, [`sha256:${sha256(CAMPAIGN_CHANGED)}`]: CAMPAIGN_CHANGED };
export const OFFER_FEED_ID = `sha256:${sha256(OFFER_FEED)}`;
export const CAMPAIGN_CHANGED_ID = `sha256:${sha256(CAMPAIGN_CHANGED)}`;

/** A token the campaign API never issued, another each time (a refused token is remembered for a while). */
export const madeUpToken = () => `made-up-${randomBytes(16).toString('hex')}`;

export interface Target {
  mode: Mode;
  url: string;
  metricsUrl: string;
  entry: BuiltEntry;
  /** Backend calls made so far for anybody but the bystander. */
  attackCalls(): Promise<number>;
  /** Backend calls with the bystander's token so far; undefined where calls are counted by operation only (development). */
  bystanderCalls(): number | undefined;
  stop(): Promise<void>;
}

/**
 * Counts the emulator's calls by the partner token they carry, from node's own diagnostics channel
 * for incoming requests: the emulator's counters hold no token, and the bystander calls it all along.
 */
function countCallsByToken(emulator: RunningEmulator): { byToken: Map<string, number>; stop(): void } {
  const byToken = new Map<string, number>();
  const listener = (message: unknown) => {
    const { request, server } = message as { request: IncomingMessage; server: Server };
    if ((server.address() as AddressInfo | null)?.port !== emulator.port) return;
    if (request.method !== 'POST' || !request.url?.startsWith('/v1/')) return;
    const token = /^Bearer (.*)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    byToken.set(token, (byToken.get(token) ?? 0) + 1);
  };
  subscribeChannel('http.server.request.start', listener);
  return { byToken, stop: () => unsubscribeChannel('http.server.request.start', listener) };
}

/**
 * The operations the bystander's requests call (its partner's list, the feed's builds): in
 * development the embedded emulator counts calls by operation only, and these are left to the
 * bystander. What a hostile input could make the BFF call in numbers (reads by id, the
 * directory for each made-up token, pins, status reads) is counted in full.
 */
const BYSTANDER_OPERATIONS = new Set(['campaigns/get-all-campaigns']);

export async function startTarget(mode: Mode): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'attack-'));
  const keys = join(dir, 'app-keys.json');
  writeFileSync(
    keys,
    JSON.stringify({
      [BYSTANDER_APP_KEY]: { name: 'Bystander app', partnerTokens: [BYSTANDER_TOKEN] },
      [ATTACK_APP_KEY]: { name: 'Attacker app', partnerTokens: [DEMO_TOKENS.store] },
    }),
  );
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, JSON.stringify(MANIFEST));
  const common = { APP_KEYS_FILE: keys, TRUSTED_DOCUMENTS: manifest, NODE_OPTIONS: MEMORY_PROBE_NODE_OPTIONS };

  if (mode === 'production') {
    const emulator = await startEmulator({ quiet: true });
    const counted = countCallsByToken(emulator);
    const entry = await startBuiltEntry({ env: { ...common, NODE_ENV: 'production', LOG_LEVEL: 'info', CAMPAIGN_API_URL: emulator.url } });
    return {
      mode,
      url: entry.url,
      metricsUrl: entry.metricsUrl!,
      entry,
      attackCalls: async () => [...counted.byToken].reduce((sum, [token, n]) => (token === BYSTANDER_TOKEN ? sum : sum + n), 0),
      bystanderCalls: () => counted.byToken.get(BYSTANDER_TOKEN) ?? 0,
      async stop() {
        counted.stop();
        await entry.stop();
        await emulator.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const entry = await startBuiltEntry({ env: { ...common, LOG_LEVEL: 'warn' } });
  const calls = async () => {
    const answer = (await (await fetch(`${entry.emulatorUrl}/_emulator/calls`)).json()) as { calls: Record<string, number> };
    return Object.entries(answer.calls).reduce((sum, [operation, n]) => (BYSTANDER_OPERATIONS.has(operation) ? sum : sum + n), 0);
  };
  return {
    mode,
    url: entry.url,
    metricsUrl: entry.metricsUrl!,
    entry,
    attackCalls: calls,
    bystanderCalls: () => undefined,
    async stop() {
      await entry.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What the BFF says of itself at one scrape of its metrics listener. */
export interface Reading {
  heapUsedBytes: number;
  rssBytes: number;
  /** The event loop's longest delay since the previous scrape: prom-client resets its histogram at each. */
  eventLoopLagMaxMs: number;
  /** 0 closed, 1 half-open, 2 open. */
  breaker: number;
  /** CPU time the process has used, user and system, all its threads. */
  cpuSeconds: number;
}

export async function read(target: Target): Promise<Reading> {
  const answer = await fetch(target.metricsUrl);
  const samples = parseExposition(await answer.text());
  const value = (name: string) => {
    const sample = samples.find((s) => s.name === name);
    if (!sample) throw new Error(`the metrics hold no ${name}`);
    return sample.value;
  };
  return {
    heapUsedBytes: value('nodejs_heap_size_used_bytes'),
    rssBytes: value('process_resident_memory_bytes'),
    eventLoopLagMaxMs: value('nodejs_eventloop_lag_max_seconds') * 1000,
    breaker: value('bff_backend_breaker_state'),
    cpuSeconds: value('process_cpu_seconds_total'),
  };
}

/** What a stretch of the attack did to the BFF. */
export interface Footprint {
  /** After a full garbage collection, before and after: what the BFF kept. */
  before: Reading;
  after: Reading;
  /** The longest event-loop delay over the stretch. */
  eventLoopLagMaxMs: number;
  /** The most RSS seen over the stretch. */
  rssPeakBytes: number;
}

/**
 * Runs `work` between two readings taken after a full garbage collection (the memory probe,
 * SIGUSR2); `work` scrapes the metrics whenever it likes with `probe` (after each request: each
 * scrape tells the event loop's longest delay since the one before). The scrape right after each
 * collection also resets that histogram, so the collection's own pause is not counted.
 */
export async function measure<T>(target: Target, work: (probe: () => Promise<Reading>) => Promise<T>): Promise<{ result: T; footprint: Footprint }> {
  const settled = async () => {
    await sampleMemory(target.entry);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return read(target);
  };
  const before = await settled();
  const readings: Reading[] = [];
  const result = await work(async () => {
    const reading = await read(target);
    readings.push(reading);
    return reading;
  });
  readings.push(await read(target));
  const after = await settled();
  return {
    result,
    footprint: {
      before,
      after,
      eventLoopLagMaxMs: Math.max(...readings.map((r) => r.eventLoopLagMaxMs)),
      rssPeakBytes: Math.max(...readings.map((r) => r.rssBytes)),
    },
  };
}
