import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/**
 * Prometheus metrics (operation names, error codes, the breaker's state) on a listener of their
 * own, never on the public API's, in the product as the README runs it.
 */

const query = (url: string, text: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` }, body: JSON.stringify({ query: text }) });

describe.each(['production', 'development'] as const)('metrics in %s', { timeout: 60_000 }, (mode) => {
  let emulator: RunningEmulator | undefined;
  let entry: BuiltEntry;
  beforeAll(async () => {
    if (mode === 'production') emulator = await startEmulator({ quiet: true });
    entry = await startBuiltEntry({ env: { NODE_ENV: mode, ...(emulator ? { CAMPAIGN_API_URL: emulator.url } : {}) } });
  });
  afterAll(async () => {
    await entry?.stop();
    await emulator?.close();
  });

  it('the API port answers 404 to /metrics, whatever the method', async () => {
    const api = new URL(entry.url);
    for (const method of ['GET', 'POST', 'HEAD']) {
      const answer = await fetch(new URL('/metrics', api), { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(answer.status, method).toBe(404);
      const text = await answer.text();
      expect(text).not.toContain('bff_');
      expect(text).not.toContain('/metrics,');
    }
    expect((await fetch(new URL('/metrics?x=1', api))).status).toBe(404);
  });

  it('the metrics port serves them to GET, on another port than the API', async () => {
    expect(entry.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(entry.metricsUrl!).port).not.toBe(new URL(entry.url).port);
    expect((await query(entry.url, 'query Categories { categories { id } }')).status).toBe(200);
    const answer = await fetch(entry.metricsUrl!);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await answer.text();
    expect(text).toMatch(/^bff_graphql_requests_total\{operation="Categories",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^bff_backend_breaker_state 0$/m);
  });

  it('the metrics port takes GET only, and /metrics only', async () => {
    const post = await fetch(entry.metricsUrl!, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect((await fetch(entry.metricsUrl!, { method: 'PUT', body: 'x' })).status).toBe(405);
    expect((await fetch(new URL('/graphql', entry.metricsUrl!))).status).toBe(404);
    expect((await fetch(new URL('/', entry.metricsUrl!))).status).toBe(404);
  });
});

describe('METRICS_PORT=off', { timeout: 60_000 }, () => {
  let entry: BuiltEntry | undefined;
  afterEach(async () => entry?.stop());

  it('opens no metrics listener, and the banner says so', async () => {
    entry = await startBuiltEntry({ env: { METRICS_PORT: 'off' } });
    expect(entry.metricsUrl).toBeUndefined();
    expect(entry.stdout()).toMatch(/^ {2}metrics +off \(METRICS_PORT=off\)$/m);
    expect((await fetch(new URL('/metrics', entry.url))).status).toBe(404);
  });
});
