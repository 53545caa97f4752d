import { loadConfig } from '../../src/config.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { DEMO_APP } from '../apps/support.js';
import { captureLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { KIT_MANIFEST } from './support.js';
import type { Bff } from './transports.js';

/**
 * The instances the differential test compares: for each mode (development, and production with
 * its hidden schema details and trusted documents only for apps), an emulator with two BFFs in
 * front of it, one with the compiled path (COMPILED_OPERATIONS=true: Apollo runs a document's
 * first request, graphql-jit the next ones) and one without (Apollo runs every request).
 */
export type Mode = 'development' | 'production';
export const MODES: readonly Mode[] = ['development', 'production'];

const ENV = {
  LOG_LEVEL: 'info',
  // Nothing expires while the test runs: every answer compared was made from the same data.
  CATEGORY_TTL_MS: '3600000',
  FEED_TTL_MS: '3600000',
  // Every request comes from this one address.
  CLIENT_RATE_LIMIT: '0',
  // The kit's documents can be sent by id too.
  TRUSTED_DOCUMENTS: KIT_MANIFEST,
  // Both instances make and read the same cursors, as a fleet behind a load balancer does.
  CURSOR_SECRET: 'parity-test-cursor-secret-of-32-characters',
};

// Production wants a campaign API of its own; the emulator's URL is given to startBff instead.
const MODE_ENV: Record<Mode, Record<string, string>> = {
  development: {},
  production: { NODE_ENV: 'production', CAMPAIGN_API_URL: 'http://127.0.0.1:1' },
};

/** An emulator with the two instances in front of it. */
export interface Pair {
  compiled: Bff;
  plain: Bff;
  stack: Stack;
  close(): Promise<void>;
}

async function startPair(mode: Mode): Promise<Pair> {
  const compiledLogs = captureLogs();
  const plainLogs = captureLogs();
  const env = { ...ENV, ...MODE_ENV[mode] };
  const stack = await startStack({ appKeys: DEMO_APP, env: { ...env, COMPILED_OPERATIONS: 'true' }, logger: compiledLogs.logger });
  let plain: RunningBff;
  try {
    const config = loadConfig({ PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: '2000', ...env, COMPILED_OPERATIONS: 'false' });
    plain = await startBff(config, { campaignApiUrl: stack.emulatorUrl, appKeys: DEMO_APP, logger: plainLogs.logger });
  } catch (error) {
    await stack.close();
    throw error;
  }
  return {
    stack,
    compiled: { name: `${mode} compiled`, url: stack.bffUrl, metricsUrl: stack.metricsUrl, logs: compiledLogs },
    plain: { name: `${mode} plain`, url: plain.url, metricsUrl: plain.metricsUrl!, logs: plainLogs },
    async close() {
      await plain.close();
      await stack.close();
    },
  };
}

export type Pairs = Readonly<Record<Mode, Pair>>;

export async function startPairs(): Promise<Pairs> {
  const started = await Promise.allSettled(MODES.map(startPair));
  const pairs = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(pairs.map((pair) => pair.close()));
    throw failed.reason;
  }
  return Object.fromEntries(MODES.map((mode, i) => [mode, pairs[i]!])) as Record<Mode, Pair>;
}

export const closePairs = async (pairs: Pairs | undefined) => {
  if (pairs) await Promise.all(Object.values(pairs).map((pair) => pair.close()));
};
