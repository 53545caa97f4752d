import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { app, DEMO_APP, FEED, post } from '../apps/support.js';
import { createCampaign, oneOffInput } from '../graphql/support.js';
import { familyOf, metricNames } from '../helpers/promql.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CAMPAIGN_CHANGED, liveClient, nextPoll, type LiveClient } from '../subscriptions/support.js';
import { DASHBOARDS, dashboardQueries, root, rules, type Dashboard, type Panel } from './support.js';
import { numberOf } from '../helpers/ids.js';
import { needs } from '../helpers/needs.js';

/** Series Prometheus makes itself for every target, which no instance exports. */
const PROMETHEUS_OWN = new Set(['up']);

describe('the Grafana dashboards', () => {
  it.each(DASHBOARDS.map((file) => [file.slice(root.length)] as const))('%s: one data source variable, used by every panel and query, and no panel over another', (relative) => {
    const dashboard = JSON.parse(readFileSync(join(root, relative), 'utf8')) as Dashboard;
    expect(dashboard.uid).toMatch(/^[a-z0-9-]{1,40}$/);
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const sources = dashboard.templating.list.filter((v) => v.type === 'datasource');
    expect(sources).toEqual([expect.objectContaining({ name: 'datasource', query: 'prometheus' })]);
    const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]).filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThan(20);
    const ids = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]).map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const ours = { type: 'prometheus', uid: '${datasource}' };
    for (const panel of panels) {
      expect(panel.datasource, panel.title).toEqual(ours);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets!) expect(target.datasource, `${panel.title} ${target.refId}`).toEqual(ours);
      expect(new Set(panel.targets!.map((t) => t.refId)).size, panel.title).toBe(panel.targets!.length);
    }
    for (const variable of dashboard.templating.list.filter((v) => v.type === 'query')) expect(variable.datasource, variable.name).toEqual(ours);
    const overlap = (a: Panel, b: Panel) =>
      a.gridPos.x < b.gridPos.x + b.gridPos.w && b.gridPos.x < a.gridPos.x + a.gridPos.w && a.gridPos.y < b.gridPos.y + b.gridPos.h && b.gridPos.y < a.gridPos.y + a.gridPos.h;
    const placed = dashboard.panels;
    for (const [i, a] of placed.entries()) for (const b of placed.slice(i + 1)) expect(overlap(a, b), `"${a.title}" and "${b.title}" overlap`).toBe(false);
    for (const panel of placed) expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
  });
});

/**
 * A running instance, exercised a little (a query, a mutation, a subscription over WebSocket with
 * an event, an app's feed read, a backend failure with retries, refused requests), is scraped: every
 * metric a dashboard query or a Prometheus rule reads is one it exports.
 */
describe.skipIf(!needs('redis-server'))('the metrics dashboards and rules read', () => {
  let redis: RunningRedis;
  let stack: Stack;
  let client: LiveClient | undefined;
  let exposition: string;

  beforeAll(async () => {
    redis = await startRedis();
    stack = await startStack({
      emulator: { moderation: { mode: 'manual' } },
      appKeys: DEMO_APP,
      env: { CACHE_URL: redis.url, SUBSCRIPTION_POLL_INTERVAL_MS: '150', MAX_ALIASES: '2' },
    });
    const token = DEMO_TOKENS.store;
    // A query, a mutation and a subscription with an event, over WebSocket.
    expect((await stack.gql('query Categories { categories { id } }')).body.errors).toBeUndefined();
    const id = await createCampaign(stack, oneOffInput(8001), token);
    client = liveClient('websocket', stack.bffUrl, token);
    const events = client.subscribe(CAMPAIGN_CHANGED, { ids: [id] });
    await nextPoll(stack.metricsUrl);
    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'decline' });
    await events.waitFor(1);
    // An app's feed read (a feed build), with its app key.
    const feed = await post(stack.bffUrl, { query: FEED, variables: { first: 3 } }, app());
    expect(feed.status).toBe(200);
    // A read the backend fails: retried, then refused.
    await stack.admin('faults', { mode: 'http500', operation: 'campaigns/get' });
    expect((await stack.gql(`query Campaign { campaign(id: "${id}") { id } }`)).body.errors?.[0]?.extensions?.code).toBe('BACKEND_UNAVAILABLE');
    await stack.admin('faults', undefined, 'DELETE');
    // Refused requests: past a query limit, an unknown app key.
    expect((await stack.gql('{ a: categories { id } b: categories { id } c: categories { id } }')).body.errors?.[0]?.extensions?.limit).toBe('aliases');
    expect((await post(stack.bffUrl, { query: FEED }, app('no-such-key'))).status).toBe(401);
    exposition = await (await fetch(stack.metricsUrl)).text();
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await stack?.close();
    await redis?.close();
  });

  const exported = () => {
    const samples = new Set<string>();
    const histograms = new Set<string>();
    for (const line of exposition.split('\n')) {
      const type = /^# TYPE (\S+) (\S+)/.exec(line);
      if (type?.[2] === 'histogram') histograms.add(type[1]!);
      if (line && !line.startsWith('#')) samples.add(/^[^{ ]+/.exec(line)![0]);
    }
    return { samples, histograms };
  };

  it('every metric of every dashboard query is exported', () => {
    const { samples } = exported();
    const missing = dashboardQueries().flatMap(({ where, expr }) =>
      [...metricNames(expr)].filter((name) => !name.includes(':') && !PROMETHEUS_OWN.has(name) && !samples.has(name)).map((name) => `${where}: ${name}`),
    );
    expect(missing).toEqual([]);
    // The dashboards read the metrics this service adds, each of them.
    const read = new Set(dashboardQueries().flatMap(({ expr }) => [...metricNames(expr)]));
    const { histograms } = exported();
    const readFamilies = new Set([...read].map((name) => familyOf(name, histograms)));
    const ours = [...samples].map((name) => familyOf(name, histograms)).filter((name) => name.startsWith('bff_'));
    expect([...new Set(ours)].filter((name) => !readFamilies.has(name))).toEqual([]);
  });

  it('every metric of every recording and alerting rule is exported', () => {
    const { samples } = exported();
    const missing = rules().flatMap((rule) =>
      [...metricNames(rule.expr)].filter((name) => !name.includes(':') && !PROMETHEUS_OWN.has(name) && !samples.has(name)).map((name) => `${rule.alert ?? rule.record}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('docs/observability.md describes every bff_ metric exported, and no other', () => {
    const { samples, histograms } = exported();
    const families = new Set([...samples].map((name) => familyOf(name, histograms)).filter((name) => name.startsWith('bff_')));
    const docs = readFileSync(join(root, 'docs/observability.md'), 'utf8');
    const documented = new Set([...docs.matchAll(/^\| `(bff_[a-z_]+)`/gm)].map((m) => m[1]!));
    expect([...families].sort()).toEqual([...documented].sort());
  });
});
