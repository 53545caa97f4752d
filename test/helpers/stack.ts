import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { Keyv } from 'keyv';
import { createCategoryDirectory } from '../../src/cache/category-directory.js';
import { createCampaignApiClient, type CampaignApiClientOptions } from '../../src/campaign-api/http-client.js';
import { DEMO_TOKENS, startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { createContext, tokenFromAuthorization, type BffDependencies, type GraphQLContext } from '../../src/graphql/context.js';
import { formatError } from '../../src/graphql/errors.js';
import { createSchema } from '../../src/graphql/schema.js';

export interface StackOptions {
  emulator?: EmulatorOptions;
  client?: Partial<CampaignApiClientOptions>;
  /** Overrides of the BFF's limits (pin chunk size, loader concurrency, pins per mutation). */
  limits?: Partial<BffDependencies['limits']>;
  categoryTtlMs?: number;
}

export interface GqlResponse<T> {
  status: number;
  body: { data?: T; errors?: any[] };
}

export interface Stack {
  bffUrl: string;
  emulatorUrl: string;
  gql<T = any>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GqlResponse<T>>;
  /** `/_emulator/<path>`: POST with a body, GET without one, or the given method. */
  admin(path: string, body?: unknown, method?: string): Promise<any>;
  calls(): Promise<Record<string, number>>;
  resetCalls(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_LIMITS: BffDependencies['limits'] = { pinChunkSize: 10_000, loaderConcurrency: 32, maxPinsPerMutation: 100_000 };

/**
 * The emulator, the REST client and the GraphQL API, each a real server on port 0. Every
 * integration test of the GraphQL API goes through this, so its internals can change (the real
 * HTTP server) without touching a test.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const emulator = await startEmulator({ quiet: true, ...options.emulator });
  const api = createCampaignApiClient({ baseUrl: emulator.url, ...options.client });
  const deps: BffDependencies = {
    api,
    categories: createCategoryDirectory({ api, store: new Keyv(), ttlMs: options.categoryTtlMs ?? 60_000, token: DEMO_TOKENS.store }),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
  };
  const apollo = new ApolloServer<GraphQLContext>({ schema: createSchema(), formatError, includeStacktraceInErrorResponses: false });
  const { url } = await startStandaloneServer(apollo, {
    listen: { port: 0, host: '127.0.0.1' },
    context: async ({ req }) => createContext(deps, { token: tokenFromAuthorization(req.headers.authorization) }),
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
    bffUrl: url,
    emulatorUrl: emulator.url,
    async gql<T = any>(query: string, variables?: Record<string, unknown>, token: string | null = DEMO_TOKENS.store): Promise<GqlResponse<T>> {
      const response = await fetch(url, {
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
      await apollo.stop();
      await api.close();
      await emulator.close();
    },
  };
}
