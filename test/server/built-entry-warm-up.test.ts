import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/**
 * Start-up warms the HTTP layer: the process serves its own /healthz a few times, one request
 * after another, before it prints its banner (src/server/warm-up.ts), so that the first requests
 * clients send, often many at once, are not the ones V8 settles Node's request objects on.
 */

const STARTS = { timeout: 90_000 };
const REQUEST_PROBE = `--import ${fileURLToPath(new URL('../helpers/request-probe.mjs', import.meta.url))}`;

/** What the probe saw, in order: "start GET /healthz", "finish GET /healthz", ... */
const probed = (entry: BuiltEntry) =>
  entry
    .output()
    .split('\n')
    .filter((line) => line.startsWith('request-probe '))
    .map((line) => line.slice('request-probe '.length));

const post = (entry: BuiltEntry) =>
  fetch(entry.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });

let entry: BuiltEntry | undefined;
afterEach(async () => {
  await entry?.stop();
  entry = undefined;
});

describe('start-up serves its own liveness route before any client', STARTS, () => {
  it('ten requests to /healthz, each answered before the next starts, then the clients', async () => {
    entry = await startBuiltEntry({ env: { NODE_OPTIONS: REQUEST_PROBE } });
    const warmUp = Array.from({ length: 10 }, () => ['start GET /healthz', 'finish GET /healthz']).flat();
    // The banner is on stdout; the probe's lines on stderr may be read a moment later.
    await vi.waitFor(() => expect(probed(entry!)).toEqual(warmUp), { timeout: 5000 });

    // A burst of clients, as a load balancer's connections opening at once.
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(entry!)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    await vi.waitFor(() => expect(probed(entry!)).toHaveLength(warmUp.length + 40), { timeout: 5000 });
    const seen = probed(entry);
    expect(seen.slice(0, warmUp.length)).toEqual(warmUp);
    expect(seen.slice(warmUp.length).every((line) => line.endsWith(' POST /graphql'))).toBe(true);
  });

  it('HTTP_WARM_UP=false: the first request served is the first a client sends', async () => {
    entry = await startBuiltEntry({ env: { NODE_OPTIONS: REQUEST_PROBE, HTTP_WARM_UP: 'false' } });
    expect((await post(entry)).status).toBe(200);
    await vi.waitFor(() => expect(probed(entry!)).toEqual(['start POST /graphql', 'finish POST /graphql']), { timeout: 5000 });
  });
});
