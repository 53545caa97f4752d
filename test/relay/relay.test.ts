import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Environment, Network, RecordSource, Store, createOperationDescriptor, fetchQuery, getRequest, getSelector, type GraphQLResponse, type GraphQLTaggedNode } from 'relay-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid, oid } from '../helpers/ids.js';

/**
 * Relay as a client of this API: relay-compiler (from npm: its binary ships in the package)
 * compiles test/relay/Dashboard.js against the schema the kit publishes (client/schema.graphql),
 * and what it generates runs against the server through relay-runtime's store: the campaigns and
 * the offer feed as pagination fragments (`@connection`, paged by their generated queries), a
 * campaign refetched through `node(id:)`, its pins paged through `node(id:)` too. The campaigns
 * and the feed in one store keep their records apart: each type has ids of its own.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = [
  'DashboardQuery',
  'DashboardCampaignsPaginationQuery',
  'DashboardFeedPaginationQuery',
  'DashboardCampaignQuery',
  'DashboardCampaignRefetchQuery',
  'DashboardPinsPaginationQuery',
  'Dashboard_campaigns',
  'Dashboard_feed',
  'Dashboard_campaign',
  'Dashboard_pins',
] as const;

let dir: string;
let stack: Stack;
let compiled: string;
const artifact = {} as Record<(typeof ARTIFACTS)[number], any>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relay-app-'));
  copyFileSync(join(ROOT, 'test/relay/Dashboard.js'), join(dir, 'Dashboard.js'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'a-relay-app', private: true, type: 'module' }));
  writeFileSync(join(dir, 'relay.config.json'), JSON.stringify({ src: '.', schema: join(ROOT, 'client/schema.graphql'), language: 'javascript', eagerEsModules: true }));
  const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'node_modules/relay-compiler/cli.js')], { cwd: dir });
  compiled = stdout + stderr;
  for (const name of ARTIFACTS) artifact[name] = ((await import(pathToFileURL(join(dir, '__generated__', `${name}.graphql.js`)).href)) as { default: unknown }).default;
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A Relay environment whose network posts each operation's generated text to the server, with the demo store's token. */
function relayEnvironment() {
  const sent: string[] = [];
  const network = Network.create(async (operation, variables) => {
    sent.push(operation.name);
    const response = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
      body: JSON.stringify({ query: operation.text, variables }),
    });
    return (await response.json()) as GraphQLResponse;
  });
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), sent };
}

/** What Relay warns of while `work` runs (relay-runtime warns through console.error in development). */
async function warnings(work: () => Promise<void>): Promise<string[]> {
  const said: string[] = [];
  const { error, warn } = console;
  console.error = (...args: unknown[]) => said.push(args.map(String).join(' '));
  console.warn = console.error;
  try {
    await work();
  } finally {
    console.error = error;
    console.warn = warn;
  }
  return said;
}

const load = (environment: Environment, query: GraphQLTaggedNode, variables: Record<string, unknown>) => fetchQuery(environment, query, variables).toPromise();

/** The data of a fragment as Relay reads it from the store, for a fragment reference. */
function read(environment: Environment, fragment: unknown, reference: unknown): any {
  return environment.lookup(getSelector(fragment as never, reference) as never).data;
}

describe('relay-compiler and relay-runtime against the server', () => {
  it('compiles the pagination and refetchable fragments against the kit’s schema, with nothing downloaded', () => {
    expect(compiled).toMatch(/Compilation completed/);
    expect(readdirSync(join(dir, '__generated__')).sort()).toEqual(ARTIFACTS.map((name) => `${name}.graphql.js`).sort());
    expect(artifact.DashboardCampaignRefetchQuery.params.text).toMatch(/node\(id: \$id\)/);
    expect(artifact.DashboardPinsPaginationQuery.params.text).toMatch(/node\(id: \$id\)/);
  });

  it('pages the campaigns and the offer feed in one store; offers and campaigns keep records of their own', async () => {
    const { environment, sent } = relayEnvironment();
    const operation = createOperationDescriptor(getRequest(artifact.DashboardQuery), { count: 3 });
    const said = await warnings(async () => {
      await load(environment, artifact.DashboardQuery, { count: 3 });
      const root = environment.lookup(operation.fragment).data;
      const first = read(environment, artifact.Dashboard_campaigns, root);
      await load(environment, artifact.DashboardCampaignsPaginationQuery, { count: 3, cursor: first.campaigns.pageInfo.endCursor });
      const feed = read(environment, artifact.Dashboard_feed, root);
      await load(environment, artifact.DashboardFeedPaginationQuery, { count: 3, cursor: feed.offerFeed.pageInfo.endCursor });
    });
    expect(said).toEqual([]);
    expect(sent).toEqual(['DashboardQuery', 'DashboardCampaignsPaginationQuery', 'DashboardFeedPaginationQuery']);

    const root = environment.lookup(operation.fragment).data;
    const campaigns = read(environment, artifact.Dashboard_campaigns, root).campaigns;
    expect(campaigns.totalCount).toBe(8);
    expect(campaigns.edges.map((e: any) => e.node.id)).toEqual([1, 2, 3, 4, 5, 6].map(cid));
    expect(campaigns.pageInfo.hasNextPage).toBe(true);
    // The demo store's running campaigns (3 and 1) are in both lists, as a campaign and as an offer.
    const offers = read(environment, artifact.Dashboard_feed, root).offerFeed;
    expect(offers.edges.map((e: any) => e.node.id)).toEqual([3, 1].map(oid));
    const records = environment.getStore().getSource();
    for (const n of [1, 3]) {
      expect(records.get(cid(n))).toMatchObject({ __typename: 'Campaign', status: 'STARTED', ymCampaignId: n });
      expect(records.get(oid(n))).toMatchObject({ __typename: 'Offer', ymCampaignId: n });
      expect(records.get(oid(n))).not.toHaveProperty('status');
    }
  });

  it('refetches a campaign through node(id:) and pages its pins through node(id:)', async () => {
    const { environment, sent } = relayEnvironment();
    const direct = await stack.gql(`{ campaign(id: "${cid(1)}") { pins(first: 4, status: NEW_UNUSED) { totalCount nodes { code } } } }`);
    const codes: string[] = direct.body.data.campaign.pins.nodes.map((p: { code: string }) => p.code);
    expect(codes).toHaveLength(4);
    const operation = createOperationDescriptor(getRequest(artifact.DashboardCampaignQuery), { id: cid(1) });
    const said = await warnings(async () => {
      await load(environment, artifact.DashboardCampaignQuery, { id: cid(1) });
      // Stopped elsewhere: the refetch through node(id:) brings the new status into the same record.
      expect((await stack.gql(`mutation { stopCampaign(id: "${cid(1)}") { campaign { status } } }`)).body.data.stopCampaign.campaign.status).toBe('PAUSED');
      await load(environment, artifact.DashboardCampaignRefetchQuery, { id: cid(1) });
      const campaign = environment.lookup(operation.fragment).data as any;
      const pins = read(environment, artifact.Dashboard_pins, campaign.campaign);
      await load(environment, artifact.DashboardPinsPaginationQuery, { id: cid(1), count: 2, cursor: pins.pins.pageInfo.endCursor });
    });
    await stack.gql(`mutation { startCampaign(id: "${cid(1)}") { campaign { status } } }`);
    expect(said).toEqual([]);
    expect(sent).toEqual(['DashboardCampaignQuery', 'DashboardCampaignRefetchQuery', 'DashboardPinsPaginationQuery']);
    const reference = (environment.lookup(operation.fragment).data as any).campaign;
    expect(read(environment, artifact.Dashboard_campaign, reference)).toMatchObject({ id: cid(1), status: 'PAUSED', rawStatus: 'paused', merchant: { name: expect.any(String) } });
    const pins = read(environment, artifact.Dashboard_pins, reference).pins;
    expect(pins.edges.map((e: any) => e.node.code)).toEqual(codes);
    expect(pins.totalCount).toBe(direct.body.data.campaign.pins.totalCount);
  });
});
