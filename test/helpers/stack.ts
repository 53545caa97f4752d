import type { Logger } from 'pino';
import type { CampaignApiClientOptions } from '../../src/campaign-api/http-client.js';
import { loadConfig, type Config } from '../../src/config.js';
import { DEMO_TOKENS, startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import type { BffDependencies } from '../../src/server/request-context.js';
import type { Admission } from '../../src/server/admission.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { executorEnv } from './executor.js';

export interface StackOptions {
  emulator?: EmulatorOptions;
  /** Client settings; `baseUrl` points the BFF at another backend (a proxy in front of the emulator). */
  client?: Partial<CampaignApiClientOptions>;
  /** Overrides of the BFF's limits (pin chunk size, loader concurrency, pins per mutation). */
  limits?: Partial<BffDependencies['limits']>;
  categoryTtlMs?: number;
  /**
   * Environment variables as the process would read them (NODE_ENV, MAX_DEPTH, CACHE_URL, ...), on
   * top of the vitest project's executor (test/helpers/executor.ts).
   */
  env?: Record<string, string>;
  /** What a request without Authorization acts as (the development demo fallback); none by default. */
  fallbackToken?: string;
  /** App keys configured in code, as `npm start` configures the demo key. */
  appKeys?: Record<string, { name: string; partnerTokens: string[] }>;
  logger?: Logger;
  /** Admission of requests to backend work, with a utilisation of the test's own. */
  admission?: Admission;
}

export interface GqlResponse<T> {
  status: number;
  body: { data?: T; errors?: any[] };
}

export interface Stack {
  bffUrl: string;
  /** The BFF's `/metrics`, on its own listener (never the API's). */
  metricsUrl: string;
  emulatorUrl: string;
  bff: RunningBff;
  config: Config;
  gql<T = any>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GqlResponse<T>>;
  /** `/_emulator/<path>`: POST with a body, GET without one, or the given method. */
  admin(path: string, body?: unknown, method?: string): Promise<any>;
  calls(): Promise<Record<string, number>>;
  resetCalls(): Promise<void>;
  close(): Promise<void>;
}


/**
 * The emulator and the BFF exactly as `npm start` runs them (the same `startBff`), each a real
 * server on port 0. Every integration test of the GraphQL API goes through this.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const emulator = await startEmulator({ quiet: true, ...options.emulator });
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: '2000', ...executorEnv, ...options.env });
  const { baseUrl, ...client } = options.client ?? {};
  Object.assign(config.client, client);
  Object.assign(config.limits, options.limits);
  if (options.categoryTtlMs !== undefined) config.categoryTtlMs = options.categoryTtlMs;
  const bff = await startBff(config, {
    campaignApiUrl: baseUrl ?? emulator.url,
    fallbackToken: options.fallbackToken ?? null,
    ...(options.appKeys ? { appKeys: options.appKeys } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.admission ? { admission: options.admission } : {}),
  });

  const admin = async (path: string, body?: unknown, method?: string) => {
    const response = await fetch(`${emulator.url}/_emulator/${path}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer: any = await response.json();
    if (!response.ok) throw new Error(`admin ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };

  return {
    bffUrl: bff.url,
    metricsUrl: bff.metricsUrl ?? '',
    emulatorUrl: emulator.url,
    bff,
    config,
    async gql<T = any>(query: string, variables?: Record<string, unknown>, token: string | null = DEMO_TOKENS.store): Promise<GqlResponse<T>> {
      const response = await fetch(bff.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
        body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
      });
      return { status: response.status, body: (await response.json()) as GqlResponse<T>['body'] };
    },
    admin,
    calls: async () => (await admin('calls')).calls,
    resetCalls: async () => {
      await admin('calls', undefined, 'DELETE');
    },
    async close() {
      await bff.close();
      await emulator.close();
    },
  };
}
