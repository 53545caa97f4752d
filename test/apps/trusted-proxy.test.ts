import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { app, DEMO_APP, FEED, post } from './support.js';

/**
 * The per-client rate limit counts clients, not the proxy in front of them: a request from a
 * trusted proxy (here loopback, the test's own address) is counted for the address it names in
 * X-Forwarded-For; without TRUST_PROXY the header is ignored and the peer is the client.
 * test/fleet/ tries the same behind a real HAProxy.
 */
describe.each([
  { trust: 'loopback', counted: 'each forwarded client' },
  { trust: undefined, counted: 'the peer, whatever the header says' },
])('per-client rate limit with TRUST_PROXY=$trust: counts $counted', ({ trust }) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      env: { CLIENT_RATE_LIMIT: '5', RATE_LIMIT_WINDOW_MS: '60000', ...(trust ? { TRUST_PROXY: trust } : {}) },
      appKeys: DEMO_APP,
    });
  });
  afterAll(() => stack?.close());

  const from = (client: string) => ({ ...app(), 'x-forwarded-for': client });

  it('limits one client without limiting the others', async () => {
    const first = await Promise.all(Array.from({ length: 6 }, () => post(stack.bffUrl, { query: FEED }, from('198.51.100.1'))));
    expect(first.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    // A client may write its own X-Forwarded-For: the proxy appends the address it saw, which is what counts.
    const other = await post(stack.bffUrl, { query: FEED }, from('198.51.100.1, 198.51.100.2'));
    expect(other.status).toBe(trust ? 200 : 429);
    const spoofed = await post(stack.bffUrl, { query: FEED }, from('198.51.100.2, 198.51.100.1'));
    expect(spoofed.status).toBe(429);
  });

  it('bounds a hostile header: thousands of hops and an entry of several KB', async () => {
    // Within Node's 16 KB of headers. Without a trusted proxy the peer's bucket is spent already.
    const hops = Array.from({ length: 1200 }, (_, i) => `127.0.${i >> 8}.${i & 255}`).join(',');
    const many = await post(stack.bffUrl, { query: FEED }, from(hops));
    expect(many.status).toBe(trust ? 200 : 429);
    const long = await post(stack.bffUrl, { query: FEED }, from('9'.repeat(12_000)));
    expect(long.status).toBe(trust ? 200 : 429);
    // Node refuses headers past its 16 KB limit before anything reads them.
    const huge = await fetch(stack.bffUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...from('1'.repeat(1024 * 1024)) }, body: JSON.stringify({ query: FEED }) });
    expect(huge.status).toBe(431);
  });
});
