import { createHash } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { DEMO_APP, FEED, post, startedIds, type Answer } from '../apps/support.js';
import { oneOffInput } from '../graphql/support.js';
import { campaignOf } from './ids.js';
import { CAMPAIGN_CHANGED, liveClient, metric, type LiveClient, type Subscription } from '../subscriptions/support.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';

/**
 * Two BFF instances sharing one CACHE_URL (one server, a Sentinel group or a Cluster) in front
 * of one emulator, as a fleet runs them, and the checks of each feature they share through Redis.
 * Every check uses names of its own (a fresh token, query or address), so it can be repeated.
 */
export interface SharedFleet {
  emulator: RunningEmulator;
  a: RunningBff;
  b: RunningBff;
  /** What each instance logged (warnings and worse). */
  logs: [CapturedLogs, CapturedLogs];
  admin(path: string, body?: unknown, method?: string): Promise<any>;
  close(): Promise<void>;
}

/** The requests per window each client address may make (a check spends them all). */
export const CLIENT_RATE_LIMIT = 12;

export async function startSharedFleet(cacheUrl: string, env: Record<string, string> = {}): Promise<SharedFleet> {
  const emulator = await startEmulator({ quiet: true, moderation: { mode: 'manual' } });
  const logs: [CapturedLogs, CapturedLogs] = [captureLogs('warn'), captureLogs('warn')];
  const config = () =>
    loadConfig({
      LOG_LEVEL: 'warn',
      PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      SHUTDOWN_GRACE_MS: '1000',
      CACHE_URL: cacheUrl,
      // A fleet shares CURSOR_SECRET: the instances then share what the API said of tokens too.
      CURSOR_SECRET: 'shared-fleet-cursor-secret-of-32-characters',
      // Each check names its client with X-Forwarded-For, so that its count is its own.
      TRUST_PROXY: 'loopback',
      CLIENT_RATE_LIMIT: String(CLIENT_RATE_LIMIT),
      RATE_LIMIT_WINDOW_MS: '60000',
      // Long enough that only a message from the other instance changes what one serves.
      FEED_TTL_MS: '60000',
      SUBSCRIPTION_POLL_INTERVAL_MS: '300',
      ...env,
    });
  const [a, b] = await Promise.all(logs.map((log) => startBff(config(), { campaignApiUrl: emulator.url, appKeys: DEMO_APP, logger: log.logger })));
  const admin = async (path: string, body?: unknown, method?: string) => {
    const response = await fetch(`${emulator.url}/_emulator/${path}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as any;
  };
  return {
    emulator,
    a: a!,
    b: b!,
    logs,
    admin,
    async close() {
      await Promise.all([a!.close(), b!.close()]);
      await emulator.close();
    },
  };
}

let serial = 0;
/** A client address of its own, so that no other request counts against its limit. */
export const freshClient = () => {
  const n = ++serial;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};
const appHeaders = (client = freshClient()) => ({ 'x-app-key': Object.keys(DEMO_APP)[0]!, 'x-forwarded-for': client });
const partnerHeaders = (token: string) => ({ authorization: `Bearer ${token}` });

export async function newPartner(fleet: SharedFleet): Promise<string> {
  const token = `shared-${process.pid}-${++serial}-${Date.now()}`;
  await fleet.admin('partners', { token, kind: 'store' });
  return token;
}

/** `/readyz`'s account of the cache, `bff_dependency_up{dependency="redis"}`, and `bff_redis_connected` by client. */
export async function redisState(bff: RunningBff): Promise<{ cache: { ok: boolean; detail: string }; up: number; connected: Record<string, number> }> {
  const ready = (await (await fetch(bff.url.replace('/graphql', '/readyz'))).json()) as any;
  const text = await (await fetch(bff.metricsUrl!)).text();
  const connected: Record<string, number> = {};
  for (const [, client, value] of text.matchAll(/^bff_redis_connected\{client="([^"]+)"\} (\d)$/gm)) connected[client!] = Number(value);
  return { cache: ready.checks.cache, up: Number(/^bff_dependency_up\{dependency="redis"\} (\d)$/m.exec(text)?.[1]), connected };
}

/**
 * A token neither instance has seen, checked through A, then used on B: the calls to the API
 * both made (one between them when the verdict and the category directory are shared).
 */
export async function categoryCalls(fleet: SharedFleet): Promise<{ calls: number; same: boolean }> {
  const token = await newPartner(fleet);
  const before = (await fleet.admin('calls')).calls['categories/get'] ?? 0;
  const query = '{ categories { id name } }';
  const first = await post(fleet.a.url, { query }, partnerHeaders(token));
  const second = await post(fleet.b.url, { query }, partnerHeaders(token));
  const after = (await fleet.admin('calls')).calls['categories/get'] ?? 0;
  return { calls: after - before, same: first.body?.data?.categories?.length >= 10 && second.text === first.text };
}

/** A query registered by its hash on A, then asked by the hash alone on B. */
export async function persistedQueryShared(fleet: SharedFleet): Promise<boolean> {
  const query = `{ shared${++serial}: categories { id } }`;
  const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
  const registered = await post(fleet.a.url, { query, extensions }, partnerHeaders(DEMO_TOKENS.store));
  if (registered.body?.errors) return false;
  const byHash = await post(fleet.b.url, { extensions }, partnerHeaders(DEMO_TOKENS.store));
  return byHash.text === registered.text;
}

const feedIds = (answer: Answer): string[] | undefined => answer.body?.data?.offerFeed?.nodes?.map((n: { id: string }) => campaignOf(n.id));
/** The offer feed's ids as `bff` serves it. */
export const feed = async (bff: RunningBff) => feedIds(await post(bff.url, { query: FEED, variables: { first: 100 } }, appHeaders()));

/** A cold feed asked of both instances at once: the list reads it cost (one per partner when built once for the fleet). */
export async function coldFeedBuilds(fleet: SharedFleet, requests = 40): Promise<{ lists: number; statuses: number[]; answers: number }> {
  const before = (await fleet.admin('calls')).calls['campaigns/get-all-campaigns'] ?? 0;
  const answers = await Promise.all(Array.from({ length: requests }, (_, i) => post(i % 2 ? fleet.a.url : fleet.b.url, { query: FEED, variables: { first: 100 } }, appHeaders())));
  const after = (await fleet.admin('calls')).calls['campaigns/get-all-campaigns'] ?? 0;
  return { lists: after - before, statuses: [...new Set(answers.map((x) => x.status))], answers: new Set(answers.map((x) => JSON.stringify(feedIds(x)))).size };
}

/**
 * A write through A that changes what the feed shows, and whether B's feed follows within
 * `withinMs` (only a message from A tells B before its copy's freshness ends). A running campaign
 * in B's feed is stopped (and started again after); one missing from it (a message lost earlier)
 * is stopped and started, which B must then show.
 */
export async function feedChangeShared(fleet: SharedFleet, withinMs: number): Promise<boolean> {
  const target = (await startedIds(fleet.a.url, DEMO_TOKENS.store))[0]!;
  const shown = (await feed(fleet.b))?.includes(target);
  const mutate = (verb: 'stop' | 'start') => post(fleet.a.url, { query: `mutation { ${verb}Campaign(id: "${target}") { campaign { status } } }` }, partnerHeaders(DEMO_TOKENS.store));
  await mutate('stop');
  try {
    if (!shown) await mutate('start');
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline) {
      if ((await feed(fleet.b))?.includes(target) !== shown) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  } finally {
    if (shown) await mutate('start');
  }
}

/** One client address's requests, alternating between the instances, up to one past the limit: the statuses. */
export async function rateLimitStatuses(fleet: SharedFleet): Promise<number[]> {
  const client = freshClient();
  const statuses: number[] = [];
  for (let i = 0; i <= CLIENT_RATE_LIMIT; i++) {
    statuses.push((await post(i % 2 ? fleet.a.url : fleet.b.url, { query: '{ categories { id } }' }, appHeaders(client))).status);
  }
  return statuses;
}

/** A watcher of `token` on `bff`, by WebSocket. */
export function watch(bff: RunningBff, token: string, clients: LiveClient[]): Subscription {
  const client = liveClient('websocket', bff.url, token);
  clients.push(client);
  return client.subscribe(CAMPAIGN_CHANGED);
}

/** Creates a campaign of `token` through `bff`; its id. */
export async function createThrough(bff: RunningBff, token: string): Promise<string> {
  const { body } = await post(
    bff.url,
    { query: 'mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id } } }', variables: { input: oneOffInput(1000 + ++serial) } },
    partnerHeaders(token),
  );
  return body.data.createCampaign.campaign.id;
}

/** The partners the fleet's instances read for the whole fleet (their reader leases), summed. */
export const leases = async (fleet: SharedFleet) => (await metric(fleet.a.metricsUrl, 'bff_live_reader_leases')) + (await metric(fleet.b.metricsUrl, 'bff_live_reader_leases'));
export const subscriptions = async (fleet: SharedFleet) => (await metric(fleet.a.metricsUrl, 'bff_live_subscriptions')) + (await metric(fleet.b.metricsUrl, 'bff_live_subscriptions'));

/** Waits for `count` more successful status reads by the fleet (by whichever instance holds the lease). */
export async function fleetReads(fleet: SharedFleet, count: number): Promise<void> {
  const sum = async () =>
    (await metric(fleet.a.metricsUrl, 'bff_live_polls_total', 'outcome="success"')) + (await metric(fleet.b.metricsUrl, 'bff_live_polls_total', 'outcome="success"'));
  const before = await sum();
  const deadline = Date.now() + 20_000;
  while ((await sum()) < before + count) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} reads by the fleet`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
