import { freePort, startService, type Service } from './children.js';
import { EmulatorAdmin } from './emulator-admin.js';
import { seedFeedPartners, writeFeedFiles } from './feed.js';
import { log } from './measure.js';
import { numericSetting, settingsReference, TOKEN_RECHECK_MS, WORKING_TREE, type ProductTree } from './product.js';
import { DOCUMENTS, graphqlBody, graphqlHeaders, PAGE_SIZE, PERSISTED_CATEGORIES } from './scenarios.js';
import { ensureCampaigns } from './seed.js';

/** The backend and the BFF as every part of the bench starts them, and the world they read. */

export const DEMO_STORE_TOKEN = 'demo-store-token';
export const DEMO_AGGREGATOR_TOKEN = 'demo-aggregator-token';
/** partnerCampaignIds of the seeded campaigns, clear of the fixtures (1001...) and of create's. */
const SEED_PARTNER_ID = 500_001;

/** The emulator (the working tree's, whatever BFF runs against it) on core 1, with the driver. */
export async function startEmulator(pin: boolean): Promise<{ emulator: Service; admin: EmulatorAdmin }> {
  const port = await freePort();
  const emulator = await startService({
    name: 'emulator',
    program: { product: 'emulator' },
    env: { EMULATOR_PORT: String(port), EMULATOR_HOST: '127.0.0.1' },
    ...(pin ? { core: 1 } : {}),
    port,
    readyPath: '/_emulator/calls',
  });
  return { emulator, admin: new EmulatorAdmin(emulator.origin) };
}

export interface BffEnvironment {
  env: Record<string, string>;
  /** Settings of the BFF taken from this shell (a tuning being tried), recorded with the figures. */
  inherited: Record<string, string>;
  backendConnections: number;
  /** How often the category directory reads the backend again with a token in use (see Bench). */
  directoryTtlMs: number;
  pollIntervalMs: number;
}

/**
 * The BFF's environment: production, the shipped log level (info: a JSON line per request, to
 * /dev/null as a log shipper takes them away), the backend at the emulator, and the app of the feed
 * scenarios (its key and its trusted document). Every other setting at its default, unless this
 * shell sets it: the variables the configuration reference names are passed on.
 */
export function bffEnvironment(emulatorOrigin: string): BffEnvironment {
  const feedFiles = writeFeedFiles();
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    CAMPAIGN_API_URL: emulatorOrigin,
    HOST: '127.0.0.1',
    APP_KEYS_FILE: feedFiles.appKeysFile,
    TRUSTED_DOCUMENTS: feedFiles.trustedDocuments,
    // One load generator stands in for thousands of phones: the per-address limit would refuse it.
    CLIENT_RATE_LIMIT: '0',
    // The bench's one app opens its feed faster than the default per-app limit allows in a window
    // (the 200-connection app opens run for a minute); at its highest, the limit still counts every
    // request as shipped and refuses none.
    APP_KEY_RATE_LIMIT: '1000000000',
    // No load balancer in front: a stop need not wait for one to notice.
    SHUTDOWN_DELAY_MS: '0',
  };
  const reference = settingsReference();
  const inherited = Object.fromEntries(
    [...reference.keys()].filter((name) => !(name in env) && !['PORT', 'METRICS_PORT'].includes(name) && process.env[name] !== undefined && process.env[name] !== '').map((name) => [name, process.env[name]!]),
  );
  if (Object.keys(inherited).length) log(`BFF settings from the environment: ${JSON.stringify(inherited)}`);
  const effective = { ...process.env, ...env };
  return {
    env,
    inherited,
    backendConnections: numericSetting('BACKEND_CONNECTIONS', effective, reference),
    directoryTtlMs: Math.min(numericSetting('CATEGORY_TTL_MS', effective, reference), TOKEN_RECHECK_MS),
    pollIntervalMs: numericSetting('SUBSCRIPTION_POLL_INTERVAL_MS', effective, reference),
  };
}

export interface BffStart {
  name: string;
  env: Record<string, string>;
  nodeArgs?: string[];
  tree?: ProductTree;
  pin: boolean;
}

/** A BFF on core 0 with its metrics listener, its stdout to /dev/null. */
export async function startBff(start: BffStart): Promise<Service> {
  const port = await freePort();
  return startService({
    name: start.name,
    program: { product: 'bff', tree: start.tree ?? WORKING_TREE },
    env: { ...start.env, PORT: String(port) },
    discardStdout: true,
    nodeArgs: start.nodeArgs ?? [],
    ...(start.pin ? { core: 0 } : {}),
    port,
    metricsPort: await freePort(),
    readyPath: '/healthz',
  });
}

/**
 * A stable world: manual moderation (nothing changes by itself during the runs), no faults, 50+
 * campaigns for the store partner (created through the REST API), the feed's partners. Returns
 * the store partner's campaign ids, first page.
 */
export async function seedWorld(emulatorOrigin: string, admin: EmulatorAdmin, feed: boolean): Promise<number[]> {
  await admin.setModeration('manual');
  await admin.clearFaults();
  const ids = await ensureCampaigns(emulatorOrigin, DEMO_STORE_TOKEN, PAGE_SIZE, SEED_PARTNER_ID);
  if (feed) await seedFeedPartners(emulatorOrigin);
  return ids;
}

/**
 * Fills a BFF's category cache (the first answer) and returns the warm answer's bytes (the
 * second, which the floor copies); then registers the query by hash as Apollo Client's
 * persisted-query link registers it, for the scenario by hash.
 */
export async function warmCategoriesBody(bff: Service): Promise<string> {
  let body = '';
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${bff.origin}/graphql`, {
      method: 'POST',
      headers: graphqlHeaders(DEMO_STORE_TOKEN),
      body: graphqlBody(DOCUMENTS.categories),
      signal: AbortSignal.timeout(10_000),
    });
    body = await response.text();
    if (response.status !== 200 || !body.startsWith('{"data":{"categories":[')) {
      throw new Error(`the ${bff.name} should answer the categories query with data, got HTTP ${response.status}: ${body.slice(0, 500)}\n--- ${bff.name} output ---\n${bff.tail()}`);
    }
  }
  const registered = await fetch(`${bff.origin}/graphql`, {
    method: 'POST',
    headers: graphqlHeaders(DEMO_STORE_TOKEN),
    body: JSON.stringify({ query: DOCUMENTS.categories, extensions: { persistedQuery: PERSISTED_CATEGORIES } }),
    signal: AbortSignal.timeout(10_000),
  });
  const registeredBody = await registered.text();
  if (registeredBody !== body) throw new Error(`the ${bff.name} should register the persisted categories query and answer it, got HTTP ${registered.status}: ${registeredBody.slice(0, 500)}`);
  return body;
}
