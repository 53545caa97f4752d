import { afterAll, afterEach, beforeAll } from 'vitest';
import type { CallReport } from '../../../src/campaign-api/api.js';
import {
  createCampaignApiClient,
  type CampaignApiClient,
  type CampaignApiClientOptions,
} from '../../../src/campaign-api/http-client.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * Short backoff and breaker so fault tests finish fast; each test overrides what it is about.
 * The attempt timeout and budget are not short: a test about timeouts sets its own, and in every
 * other test they must never fire, and on a loaded machine a local answer can take hundreds of
 * milliseconds (a 200 ms attempt timeout here made "not retried" tests see 2 attempts).
 */
export const FAST: Omit<CampaignApiClientOptions, 'baseUrl'> = {
  connections: 4,
  attemptTimeoutMs: 5000,
  budgetMs: 10_000,
  maxAttempts: 3,
  backoff: { initialMs: 5, maxMs: 20 },
  breaker: { consecutiveFailures: 50, halfOpenAfterMs: 300 },
  bulkhead: { maxConcurrent: 64, maxQueue: 64 },
};

export interface RecordingClient {
  client: CampaignApiClient;
  reports: CallReport[];
  last(): CallReport;
}

const open = new Set<CampaignApiClient>();

export function recordingClient(baseUrl: string, overrides: Partial<CampaignApiClientOptions> = {}): RecordingClient {
  const reports: CallReport[] = [];
  const client = createCampaignApiClient({ ...FAST, ...overrides, baseUrl, onCall: (r) => reports.push(r) });
  open.add(client);
  return {
    client,
    reports,
    last() {
      const report = reports.at(-1);
      if (!report) throw new Error('no call was reported');
      return report;
    },
  };
}

export async function closeAllClients(): Promise<void> {
  await Promise.all([...open].map((c) => c.close()));
  open.clear();
}

/** Runs a call that must fail and returns its error with the time it took. */
export async function failure(promise: Promise<unknown>): Promise<{ error: Error; ms: number }> {
  const started = performance.now();
  try {
    await promise;
  } catch (error) {
    return { error: error as Error, ms: performance.now() - started };
  }
  throw new Error('expected the call to fail, it succeeded');
}

export async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await promise;
  return { value, ms: performance.now() - started };
}

/**
 * A plain timer of `ms` set now; resolves with the time it really took to fire. On a loaded machine
 * timers fire late, the client's own as well: a limit the client enforces with a timer is checked
 * against this reference, set at the same moment, plus MARGIN_MS, rather than against `ms` alone.
 */
export function referenceTimer(ms: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => setTimeout(() => resolve(performance.now() - started), ms));
}

/** Scheduling slack on a loaded 2-core machine for "answers within budget + margin". */
export const MARGIN_MS = 250;

/**
 * A scriptable test server for the tests of the calling suite: started before them, every client
 * closed and the requests seen forgotten after each, closed after them all.
 */
export function useTestServer(): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await closeAllClients();
    if (server) server.seen.length = 0;
  });
  afterAll(() => server?.close());
  return () => {
    if (!server) throw new Error('useTestServer: the server starts in beforeAll; ask for it inside a test');
    return server;
  };
}
