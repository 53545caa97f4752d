import { mkdirSync } from 'node:fs';
import { DEMO_STORE_TOKEN, bffEnvironment, seedWorld, startBff, startEmulator, warmCategoriesBody, type BffEnvironment } from './bff.js';
import { freePort, startService, type Service } from './children.js';
import { PROFILE_DIR } from './cpu-profile.js';
import type { EmulatorAdmin } from './emulator-admin.js';
import { warmFeedBody } from './feed.js';
import { log } from './measure.js';
import type { Profile } from './options.js';
import { startOptions, WORKING_TREE } from './product.js';
import { DOCUMENTS, graphqlBody, graphqlHeaders, noRequestLogTwin, PAGE_SIZE, tracedTwin, type Target, type TwinTarget } from './scenarios.js';

/**
 * The servers of a default run, each its own node process: the BFF under test and its twins, the
 * reference servers and the emulator, started, set up and warmed. The BFF and the reference
 * servers are pinned to core 0; the emulator, the trace sink and the driver to core 1.
 */

export interface World {
  emulator: Service;
  admin: EmulatorAdmin;
  bff: Service;
  bffEnv: BffEnvironment;
  /** Whether servers are pinned to cores (taskset and two cores). */
  pinned: boolean;
  /** Every server a scenario may target, by target. */
  servers: Partial<Record<Target, Service>>;
  /** The BFF's twins this run started. */
  twins: Partial<Record<TwinTarget, Service>>;
  traceSink: Service | undefined;
  /** The store partner's campaigns, first page. */
  ids: number[];
  categoriesBody: string;
  feedBody: string;
  /** Stops every server but the BFF and the emulator. */
  stopReferences(): Promise<void>;
}

const server = async (name: string, script: string, env: Record<string, string>, pin: boolean, options: { core?: number; readyPath?: string; readyHeaders?: Record<string, string>; discardStdout?: boolean; nodeArgs?: string[] } = {}) => {
  const port = await freePort();
  return startService({
    name,
    program: { bench: script },
    env: { ...env, PORT: String(port) },
    ...(pin ? { core: options.core ?? 0 } : {}),
    port,
    readyPath: options.readyPath ?? '/',
    ...(options.readyHeaders ? { readyHeaders: options.readyHeaders } : {}),
    ...(options.discardStdout ? { discardStdout: true } : {}),
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
  });
};

/** The mercurius server's answer must be the BFF's, byte for byte but for the BFF's closing newline. */
async function checkSameAnswer(service: Service, categoriesBody: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${service.origin}/graphql`, { method: 'POST', headers: graphqlHeaders(DEMO_STORE_TOKEN), body: graphqlBody(DOCUMENTS.categories), signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    if (text !== categoriesBody.trimEnd()) throw new Error(`the ${service.name} answers the categories query with other bytes than the BFF: HTTP ${response.status}: ${text.slice(0, 300)}`);
  }
}

export async function startWorld(profile: Profile, pin: boolean): Promise<World> {
  if (profile.cpuProfile) mkdirSync(PROFILE_DIR, { recursive: true });
  const { emulator, admin } = await startEmulator(pin);
  const bffEnv = bffEnvironment(emulator.origin);
  const start = (name: string, env: Record<string, string>, nodeArgs: string[] = profile.bffNodeArgs) => startBff({ name, env: { ...bffEnv.env, ...env }, nodeArgs, pin });
  // The BFF's start options (its semi-space cap) for the servers that compete with it on work that
  // allocates: with young generations of different sizes, the ratio would weigh the collector's
  // setting as much as the code.
  const competitorArgs = startOptions(WORKING_TREE);
  const [bff, restFloor] = await Promise.all([
    start('BFF', {}, [...profile.bffNodeArgs, ...(profile.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [])]),
    // As many backend connections as the BFF: same resources, best use of them.
    server('REST floor', 'bench/servers/rest-floor-server.ts', { CAMPAIGN_API_URL: emulator.origin, POOL_CONNECTIONS: String(bffEnv.backendConnections), PAGE_SIZE: String(PAGE_SIZE) }, pin, {
      readyPath: '/healthz',
      nodeArgs: competitorArgs,
    }),
  ]);
  const traceSink = profile.tracing ? await server('trace sink', 'bench/servers/trace-sink-server.ts', {}, pin, { core: 1 }) : undefined;
  const twins: Partial<Record<TwinTarget, Service>> = {};
  for (const twin of [...(traceSink ? [tracedTwin(traceSink.origin)] : []), ...(profile.parts.has('categories') ? [noRequestLogTwin] : [])]) {
    twins[twin.target] = await start(twin.name, twin.env);
  }

  const ids = await seedWorld(emulator.origin, admin, true);
  const categoriesBody = await warmCategoriesBody(bff);
  for (const twin of Object.values(twins)) {
    if ((await warmCategoriesBody(twin)) !== categoriesBody) throw new Error(`the ${twin.name} answers the categories query with other bytes than the BFF`);
  }
  const feedBody = await warmFeedBody(bff.origin);
  const mercurius = profile.parts.has('mercurius');
  const [floor, floorLine, stockApollo, feedFloor, mercuriusLog, mercuriusQuiet] = await Promise.all([
    server('floor', 'bench/servers/floor-server.ts', { FLOOR_BODY: categoriesBody }, pin),
    server('floor with the request line', 'bench/servers/floor-server.ts', { FLOOR_BODY: categoriesBody, FLOOR_REQUEST_LINE: '1', NODE_ENV: 'production' }, pin, { discardStdout: true }),
    server('stock Apollo', 'bench/servers/stock-apollo-server.ts', { CATEGORIES_BODY: categoriesBody, NODE_ENV: 'production' }, pin, {
      readyPath: '/?query=%7B__typename%7D',
      readyHeaders: { 'apollo-require-preflight': 'true' },
    }),
    server('feed floor', 'bench/servers/floor-server.ts', { FLOOR_BODY: feedBody }, pin),
    ...(mercurius
      ? [true, false].map((withLog) =>
          server(
            withLog ? 'mercurius' : 'mercurius without request log',
            'bench/servers/mercurius-server.ts',
            { CAMPAIGN_API_URL: emulator.origin, NODE_ENV: 'production', MERCURIUS_REQUEST_LOG: withLog ? '1' : '0' },
            pin,
            { readyPath: '/healthz', discardStdout: true, nodeArgs: competitorArgs },
          ),
        )
      : []),
  ]);
  if (mercuriusLog) await checkSameAnswer(mercuriusLog, categoriesBody);
  if (mercuriusQuiet) await checkSameAnswer(mercuriusQuiet, categoriesBody);
  log(`servers up; ${ids.length} campaigns on the first page of ${DEMO_STORE_TOKEN}`);
  const references = [floor, floorLine, stockApollo, restFloor, feedFloor, mercuriusLog, mercuriusQuiet].filter((s): s is Service => s !== undefined);
  return {
    emulator,
    admin,
    bff,
    bffEnv,
    pinned: pin,
    servers: {
      bff,
      floor,
      'floor-line': floorLine,
      'stock-apollo': stockApollo,
      'rest-floor': restFloor,
      'feed-floor': feedFloor,
      ...(mercuriusLog ? { mercurius: mercuriusLog } : {}),
      ...(mercuriusQuiet ? { 'mercurius-no-log': mercuriusQuiet } : {}),
      ...twins,
    },
    twins,
    traceSink,
    ids,
    categoriesBody,
    feedBody,
    stopReferences: async () => {
      await Promise.all(references.map((s) => s.stop()));
      await traceSink?.stop();
    },
  };
}
