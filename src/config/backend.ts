import { z } from 'zod';
import type { ResilienceSettings } from '../campaign-api/resilience.js';
import { describe, int, optionalFlag, section } from './setting.js';

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL, such as https://api.example.com' })
  .transform((u) => u.replace(/\/+$/, ''));

export const backend = section({
  title: 'Backend',
  about:
    'The Offer Campaign REST API the BFF answers from (or the embedded emulator when none is named), and how its client treats it: connections, timeouts, retries, the circuit breaker and the bulkhead.',
  shape: {
    CAMPAIGN_API_URL: describe(httpUrl.optional(), {
      default: 'the embedded emulator',
      allowed: 'an `http://` or `https://` URL',
      description: 'The REST `{base_url}` (operations at `{base_url}/v1/...`); unset starts the embedded emulator on the loopback address. Production needs it.',
      example: 'https://api.example.com',
    }),
    EMULATOR_PORT: int(0, 65535, 4010, {
      description: "The embedded emulator's port (on 127.0.0.1), when `CAMPAIGN_API_URL` is unset; also the port of the emulator run alone (`npm run emulator`, `node dist/src/emulator/main.js`).",
    }),
    EMULATOR_HOST: describe(z.string().min(1).default('127.0.0.1'), {
      default: '127.0.0.1',
      allowed: 'a host name or address',
      description:
        "The address the emulator run alone listens on: `0.0.0.0` where the BFF runs in another container (the development overlay, the Compose file). Its admin API changes its state: never expose it beyond them. The BFF's embedded emulator ignores it and stays on 127.0.0.1, for this machine's BFF only.",
    }),
    DEMO_FALLBACK: optionalFlag({
      default: '`true` on the embedded emulator in development, else `false`',
      description: 'A request without `Authorization` acts as `demo-store-token`. Refused in production and with `CAMPAIGN_API_URL`.',
    }),
    BACKEND_CONNECTIONS: int(1, 1024, 256, {
      description:
        'The undici pool size towards the backend: four clients listing 50 cards at once (204 calls) go out in one round, so each sees two backend round trips, not four (measured in `npm run bench`, the 4-connection probe).',
    }),
    BACKEND_ATTEMPT_TIMEOUT_MS: int(10, 60_000, 3000, { description: 'The timeout of one backend attempt.' }),
    BACKEND_BUDGET_MS: int(10, 120_000, 8000, { description: 'The total time of one backend call, retries included; at least `BACKEND_ATTEMPT_TIMEOUT_MS`.' }),
    BACKEND_MAX_ATTEMPTS: int(1, 10, 3, { description: 'Attempts for reads and redeem (writes are never retried blindly).' }),
    BACKEND_BACKOFF_INITIAL_MS: int(0, 60_000, 100, { description: 'The first wait between attempts: exponential backoff with full jitter.' }),
    BACKEND_BACKOFF_MAX_MS: int(0, 600_000, 1000, { description: 'The longest wait between attempts; at least `BACKEND_BACKOFF_INITIAL_MS`.' }),
    BACKEND_BREAKER_FAILURES: int(1, 1000, 5, { description: 'Consecutive failures that open the circuit breaker.' }),
    BACKEND_BREAKER_HALF_OPEN_MS: int(100, 300_000, 5000, { description: 'The time before the open breaker lets a probe through.' }),
    BACKEND_MAX_CONCURRENT: int(1, 10_000, 256, {
      description: 'Bulkhead: concurrent backend calls (as many as the pool: more would only wait inside undici, holding more memory).',
    }),
    BACKEND_MAX_QUEUE: int(0, 1_000_000, 10_000, {
      description:
        'Bulkhead: backend calls waiting for a place (50 clients listing 50 cards each already queue 2,500; each waiting call is a few hundred bytes, and the call budget bounds the wait).',
    }),
    BACKEND_ANSWER_MEMO_BYTES: int(0, 1024 * 1024 * 1024, 4 * 1024 * 1024, {
      description:
        "Bytes kept of each read's last answer and the value it was checked into: an answer the same, byte for byte, as the last one to the same read is not parsed and checked again (see [the decision](adr/answer-memo.md)). About a thousand campaigns at the default; 0 keeps none.",
    }),
  },
  check: (e, { production }) => {
    const problems: string[] = [];
    if (production && !e.CAMPAIGN_API_URL) {
      problems.push('CAMPAIGN_API_URL is not set: production needs a real backend (the embedded emulator is for development)');
    }
    if (production && e.DEMO_FALLBACK) problems.push('DEMO_FALLBACK=true is not allowed with NODE_ENV=production');
    if (e.DEMO_FALLBACK && e.CAMPAIGN_API_URL) problems.push('DEMO_FALLBACK=true only works on the embedded emulator (unset CAMPAIGN_API_URL)');
    if (e.BACKEND_BUDGET_MS < e.BACKEND_ATTEMPT_TIMEOUT_MS) {
      problems.push(`BACKEND_BUDGET_MS=${e.BACKEND_BUDGET_MS} must be at least BACKEND_ATTEMPT_TIMEOUT_MS=${e.BACKEND_ATTEMPT_TIMEOUT_MS}`);
    }
    if (e.BACKEND_BACKOFF_MAX_MS < e.BACKEND_BACKOFF_INITIAL_MS) {
      problems.push(`BACKEND_BACKOFF_MAX_MS=${e.BACKEND_BACKOFF_MAX_MS} must be at least BACKEND_BACKOFF_INITIAL_MS=${e.BACKEND_BACKOFF_INITIAL_MS}`);
    }
    return problems;
  },
  build: (e, { production }) => ({
    emulatorPort: e.EMULATOR_PORT,
    /** The REST `{base_url}`; unset means "start the embedded emulator". */
    campaignApiUrl: e.CAMPAIGN_API_URL,
    /** A request without Authorization acts as the demo store (development on the emulator only). */
    demoFallback: e.DEMO_FALLBACK ?? (!production && !e.CAMPAIGN_API_URL),
    /** The REST client's settings, as its resilience policies take them. */
    client: {
      connections: e.BACKEND_CONNECTIONS,
      attemptTimeoutMs: e.BACKEND_ATTEMPT_TIMEOUT_MS,
      budgetMs: e.BACKEND_BUDGET_MS,
      maxAttempts: e.BACKEND_MAX_ATTEMPTS,
      backoff: { initialMs: e.BACKEND_BACKOFF_INITIAL_MS, maxMs: e.BACKEND_BACKOFF_MAX_MS },
      breaker: { consecutiveFailures: e.BACKEND_BREAKER_FAILURES, halfOpenAfterMs: e.BACKEND_BREAKER_HALF_OPEN_MS },
      bulkhead: { maxConcurrent: e.BACKEND_MAX_CONCURRENT, maxQueue: e.BACKEND_MAX_QUEUE },
      answerMemoBytes: e.BACKEND_ANSWER_MEMO_BYTES,
    } satisfies ResilienceSettings & { connections: number; answerMemoBytes: number },
  }),
});
