import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { restCampaignBody } from './campaign-samples.js';
import type { EmulatorAdmin } from './emulator-admin.js';
import { rssMb } from './proc-stats.js';

/**
 * The live-status scenario: thousands of WebSocket subscribers (graphql-ws's own
 * client) watching the campaigns of a few partners. Measures the backend calls per poll
 * interval, the latency from a moderation decision at the emulator to the event at every
 * subscriber, and the BFF's memory per idle subscriber and after all disconnect.
 */

export interface SubscriptionsProfile {
  subscribers: number;
  partners: number;
  campaignsPerPartner: number;
  /** Moderation decisions whose delivery is timed. */
  rounds: number;
  /** Poll intervals over which backend calls are counted. */
  countIntervals: number;
  /** Connect and disconnect everyone this many times; RSS after each disconnect is compared. */
  cycles: number;
}

export interface SubscriptionsResult {
  subscribers: number;
  partners: number;
  campaigns: number;
  pollIntervalMs: number;
  connectSeconds: number;
  backendCallsPerInterval: Record<string, number>;
  expectedCallsPerInterval: number;
  latencyMs: { samples: number; p50: number; p90: number; p99: number; max: number };
  latencyTargetMs: number;
  /** Events each subscriber got per decision of its partner: always 1 when delivery is exactly once. */
  deliveries: { expected: number; received: number; duplicates: number; missing: number };
  rss: {
    idleBeforeMb: number;
    withSubscribersMb: number;
    perSubscriberKb: number;
    afterDisconnectMb: number[];
  };
  freed: { subscriptions: number; partners: number; backendCallsAfter: number };
}

const SUBSCRIPTION = 'subscription Live { campaignChanged { campaign { id ymCampaignId status } previousStatus status at } }';

async function rest(origin: string, token: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${origin}/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  const parsed = (await response.json()) as any;
  if (parsed.status !== 'success') throw new Error(`POST /v1/${path} failed: ${JSON.stringify(parsed).slice(0, 300)}`);
  return parsed;
}

async function metric(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`subscriptions bench: timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Median of a few RSS samples a second apart: RSS moves with every GC. */
async function steadyRss(pid: number, samples = 5): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < samples; i++) {
    values.push(rssMb(pid));
    await sleep(1000);
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0);

interface Subscriber {
  client: Client;
  partner: number;
  /** Arrival time (performance.now) of each event, by campaign id. */
  arrivals: Map<string, number[]>;
}

export async function measureSubscriptions(options: {
  bffOrigin: string;
  /** Where the BFF serves `/metrics` (its METRICS_PORT). */
  bffMetricsUrl: string;
  bffPid: number;
  emulatorOrigin: string;
  admin: EmulatorAdmin;
  pollIntervalMs: number;
  profile: SubscriptionsProfile;
  log: (message: string) => void;
}): Promise<SubscriptionsResult> {
  const { bffOrigin, bffMetricsUrl, bffPid, emulatorOrigin, admin, pollIntervalMs, profile, log } = options;
  const run = Date.now();
  const tokens = Array.from({ length: profile.partners }, (_, i) => `bench-live-${run}-${i}`);
  const campaigns: number[][] = [];
  for (const [i, token] of tokens.entries()) {
    await fetch(`${emulatorOrigin}/_emulator/partners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, kind: 'store' }),
    });
    const ids: number[] = [];
    for (let c = 0; c < profile.campaignsPerPartner; c++) {
      ids.push((await rest(emulatorOrigin, token, 'campaigns/create', restCampaignBody(800_000 + i * 1000 + c))).result.ymCampaignId);
    }
    campaigns.push(ids);
  }
  log(`live: ${profile.partners} partners with ${profile.campaignsPerPartner} campaigns each (in moderation)`);

  const wsUrl = `${bffOrigin.replace(/^http/, 'ws')}/graphql`;
  const connect = async (): Promise<Subscriber[]> => {
    const subscribers: Subscriber[] = [];
    const started = performance.now();
    const batch = 250;
    for (let i = 0; i < profile.subscribers; i += batch) {
      for (let j = i; j < Math.min(i + batch, profile.subscribers); j++) {
        const partner = j % profile.partners;
        const client = createClient({
          url: wsUrl,
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${tokens[partner]}` },
          retryAttempts: 0,
          lazy: true,
        });
        const subscriber: Subscriber = { client, partner, arrivals: new Map() };
        client.subscribe(
          { query: SUBSCRIPTION },
          {
            next: (result: any) => {
              const at = performance.now();
              const number = result.data?.campaignChanged?.campaign?.ymCampaignId;
              if (!number) return;
              const id = String(number);
              const list = subscriber.arrivals.get(id);
              if (list) list.push(at);
              else subscriber.arrivals.set(id, [at]);
            },
            error: () => {},
            complete: () => {},
          },
        );
        subscribers.push(subscriber);
      }
      await until(`${Math.min(i + batch, profile.subscribers)} subscriptions`, async () => (await metric(bffMetricsUrl, 'bff_live_subscriptions')) >= Math.min(i + batch, profile.subscribers), 60_000);
    }
    log(`live: ${profile.subscribers} WebSocket subscribers in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return subscribers;
  };
  const disconnect = async (subscribers: Subscriber[]) => {
    await Promise.all(subscribers.map((s) => s.client.dispose()));
    await until('every subscription to be freed', async () => (await metric(bffMetricsUrl, 'bff_live_subscriptions')) === 0, 60_000);
  };

  const idleBeforeMb = await steadyRss(bffPid);
  const connectStarted = performance.now();
  let subscribers = await connect();
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  // Two intervals: every partner's first read is in.
  await sleep(2 * pollIntervalMs);
  const withSubscribersMb = await steadyRss(bffPid);

  await admin.resetCalls();
  const countStarted = performance.now();
  await sleep(profile.countIntervals * pollIntervalMs);
  const calls = await admin.calls();
  const intervals = (performance.now() - countStarted) / pollIntervalMs;
  const backendCallsPerInterval = Object.fromEntries(Object.entries(calls).map(([op, n]) => [op, Math.round((n / intervals) * 100) / 100]));
  log(`live: backend calls per ${pollIntervalMs} ms interval: ${JSON.stringify(backendCallsPerInterval)}`);

  // Decisions at random phases of the poll interval, one partner after another.
  const latencies: number[] = [];
  /** Per decision: from its first subscriber's event to its last's. */
  const fanOuts: number[] = [];
  let received = 0;
  let duplicates = 0;
  let missing = 0;
  let expected = 0;
  for (let round = 0; round < profile.rounds; round++) {
    const partner = round % profile.partners;
    const id = campaigns[partner]![Math.floor(round / profile.partners)]!;
    await sleep(Math.random() * pollIntervalMs);
    const watching = subscribers.filter((s) => s.partner === partner);
    const t0 = performance.now();
    await admin.moderate(id, 'approve');
    const key = String(id);
    const deadline = performance.now() + 3 * pollIntervalMs + 5000;
    while (performance.now() < deadline && watching.some((s) => !s.arrivals.has(key))) await sleep(20);
    await sleep(200);
    expected += watching.length;
    const firsts = watching.flatMap((s) => s.arrivals.get(key)?.slice(0, 1) ?? []);
    if (firsts.length > 0) fanOuts.push(Math.max(...firsts) - Math.min(...firsts));
    for (const s of watching) {
      const arrivals = s.arrivals.get(key) ?? [];
      if (arrivals.length === 0) missing++;
      else {
        received++;
        duplicates += arrivals.length - 1;
        latencies.push(arrivals[0]! - t0);
      }
    }
    // Other partners' subscribers must not have heard of it.
    for (const s of subscribers) if (s.partner !== partner && s.arrivals.has(key)) duplicates++;
  }
  latencies.sort((a, b) => a - b);
  const round1 = (n: number) => Math.round(n * 10) / 10;
  const latencyMs = {
    samples: latencies.length,
    p50: round1(percentile(latencies, 50)),
    p90: round1(percentile(latencies, 90)),
    p99: round1(percentile(latencies, 99)),
    max: round1(latencies.at(-1) ?? 0),
  };
  log(`live: decision → event at every subscriber: ${JSON.stringify(latencyMs)}; ${missing} missing, ${duplicates} duplicate or foreign`);
  fanOuts.sort((a, b) => a - b);
  log(`live: fan-out, first to last subscriber of a decision (ms): p50 ${round1(percentile(fanOuts, 50))}, max ${round1(fanOuts.at(-1) ?? 0)}`);

  const afterDisconnectMb: number[] = [];
  for (let cycle = 0; cycle < profile.cycles; cycle++) {
    if (cycle > 0) subscribers = await connect();
    await disconnect(subscribers);
    afterDisconnectMb.push(await steadyRss(bffPid));
  }
  const freed = { subscriptions: await metric(bffMetricsUrl, 'bff_live_subscriptions'), partners: await metric(bffMetricsUrl, 'bff_live_partners'), backendCallsAfter: 0 };
  await admin.resetCalls();
  await sleep(2 * pollIntervalMs);
  freed.backendCallsAfter = (await admin.calls())['campaigns/get-all-campaigns'] ?? 0;

  return {
    subscribers: profile.subscribers,
    partners: profile.partners,
    campaigns: profile.partners * profile.campaignsPerPartner,
    pollIntervalMs,
    connectSeconds: round1(connectSeconds),
    backendCallsPerInterval,
    expectedCallsPerInterval: profile.partners * Math.ceil(profile.campaignsPerPartner / 100),
    latencyMs,
    latencyTargetMs: pollIntervalMs + 100,
    deliveries: { expected, received, duplicates, missing },
    rss: {
      idleBeforeMb: round1(idleBeforeMb),
      withSubscribersMb: round1(withSubscribersMb),
      perSubscriberKb: round1(((withSubscribersMb - idleBeforeMb) * 1024) / profile.subscribers),
      afterDisconnectMb: afterDisconnectMb.map(round1),
    },
    freed,
  };
}

export function formatSubscriptions(r: SubscriptionsResult): string {
  const calls = r.backendCallsPerInterval['campaigns/get-all-campaigns'] ?? 0;
  return [
    `Live status: ${r.subscribers} WebSocket subscribers (graphql-ws) of ${r.partners} partners watching ${r.campaigns} campaigns, poll interval ${r.pollIntervalMs} ms`,
    `  connected in ${r.connectSeconds} s`,
    `  backend calls per interval: get-all-campaigns ${calls} (the pollers' pages: ${r.expectedCallsPerInterval})${Object.keys(r.backendCallsPerInterval).length > 1 ? `, all: ${JSON.stringify(r.backendCallsPerInterval)}` : ''}`,
    `  moderation decision → event at every subscriber (${r.latencyMs.samples} deliveries): p50 ${r.latencyMs.p50} ms, p90 ${r.latencyMs.p90} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms (target p99 ≤ ${r.latencyTargetMs} ms: ${r.latencyMs.p99 <= r.latencyTargetMs ? 'met' : 'missed'})`,
    `  deliveries: ${r.deliveries.received} of ${r.deliveries.expected}, ${r.deliveries.missing} missing, ${r.deliveries.duplicates} duplicate or to another partner`,
    `  BFF RSS: idle ${r.rss.idleBeforeMb} MB, with subscribers ${r.rss.withSubscribersMb} MB → ${r.rss.perSubscriberKb} KB per idle subscriber; after all disconnect ${r.rss.afterDisconnectMb.join(' MB, then ')} MB`,
    `  after disconnect: ${r.freed.subscriptions} subscriptions, ${r.freed.partners} partners watched, ${r.freed.backendCallsAfter} status reads over 2 intervals`,
  ].join('\n');
}
