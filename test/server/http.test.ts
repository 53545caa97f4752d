import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { BODY_LIMIT_BYTES: String(64 * 1024) } });
});
afterAll(() => stack.close());

const post = (body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(stack.bffUrl, { method: 'POST', headers: { authorization: 'Bearer demo-store-token', ...headers }, body });

describe('the HTTP layer', () => {
  it('answers a query over POST', async () => {
    const response = await post(JSON.stringify({ query: '{ categories { id } }' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
    expect(((await response.json() as any)).data.categories.length).toBeGreaterThanOrEqual(10);
  });

  it('answers a query over GET, and refuses a mutation over GET with 405', async () => {
    const query = encodeURIComponent('{ categories { id } }');
    const get = await fetch(`${stack.bffUrl}?query=${query}`, { headers: { 'apollo-require-preflight': 'true', authorization: 'Bearer demo-store-token' } });
    expect(get.status).toBe(200);
    const mutation = encodeURIComponent('mutation { stopCampaign(id: "1") { campaign { id } } }');
    const refused = await fetch(`${stack.bffUrl}?query=${mutation}`, { headers: { 'apollo-require-preflight': 'true', authorization: 'Bearer demo-store-token' } });
    expect(refused.status).toBe(405);
    expect(await stack.calls()).not.toHaveProperty('campaigns/stop');
  });

  it('refuses a GET without a preflight header (CSRF prevention)', async () => {
    const response = await fetch(`${stack.bffUrl}?query=${encodeURIComponent('{ categories { id } }')}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/CSRF|preflight/i);
  });

  it('answers 400 to unparsable JSON, naming the problem', async () => {
    const response = await post('{"query": ');
    expect(response.status).toBe(400);
    const body = (await response.json() as any);
    expect(body.errors[0].message).toMatch(/^Request body is not valid JSON/);
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('answers 415 to a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await post('query=%7B+categories+%7B+id+%7D+%7D', { 'content-type': type });
      expect(response.status, type).toBe(415);
      expect(((await response.json() as any)).errors[0].message).toContain(type.split(';')[0]);
    }
  });

  it('answers 413 past the body limit, declared or streamed', async () => {
    const big = JSON.stringify({ query: '{ categories { id } }', variables: { pad: 'x'.repeat(70 * 1024) } });
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect(((await declared.json() as any)).errors[0]).toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' }, message: expect.stringContaining('65536 bytes') });

    const chunks = (async function* () {
      for (let i = 0; i < 80; i++) yield Buffer.alloc(1024, 0x20);
    })();
    const streamed = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunks as unknown as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('refuses array batching', async () => {
    const response = await post(JSON.stringify([{ query: '{ categories { id } }' }, { query: '{ categories { name } }' }]));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/batching/i);
  });

  it('answers 405 to other methods and 404 to unknown paths', async () => {
    const put = await fetch(stack.bffUrl, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, OPTIONS');
    const missing = await fetch(stack.bffUrl.replace('/graphql', '/nope'));
    expect(missing.status).toBe(404);
    expect(((await missing.json() as any)).error).toMatch(/GraphQL is at \/graphql/);
  });

  it('serves liveness, readiness and Prometheus metrics', async () => {
    const base = stack.bffUrl.replace('/graphql', '');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json() as any)).toEqual({ status: 'ready', checks: { backend: { ok: true }, cache: { ok: true, detail: 'memory' } } });

    await post(JSON.stringify({ query: 'query Metered { categories { id } }' }));
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/bff_graphql_requests_total\{operation="Metered",outcome="ok"\} 1/);
    expect(metrics).toMatch(/bff_backend_calls_total\{operation="getCategories",outcome="success"\} \d+/);
    expect(metrics).toMatch(/bff_graphql_request_duration_seconds_bucket/);
    expect(metrics).toMatch(/bff_backend_call_duration_seconds_bucket/);
    expect(metrics).toMatch(/bff_backend_breaker_state 0/);
    expect(metrics).toMatch(/bff_cache_lookups_total\{cache="categories",result="(hit|miss)"\}/);
    expect(metrics).toMatch(/process_resident_memory_bytes/);
  });
});

describe('readiness without a backend', () => {
  it('turns 503 with a reason when the backend stops answering', async () => {
    const lonely = await startStack({ env: { READY_BACKEND_WINDOW_MS: '1000', BACKEND_ATTEMPT_TIMEOUT_MS: '200', BACKEND_BUDGET_MS: '500' } });
    try {
      const base = lonely.bffUrl.replace('/graphql', '');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      await lonely.admin('faults', { mode: 'http500' });
      await new Promise((r) => setTimeout(r, 1100));
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json() as any);
      expect(body.status).toBe('not ready');
      expect(body.checks.backend.ok).toBe(false);
      expect(body.checks.backend.detail).toMatch(/has not answered in the last 1000 ms/);
      await lonely.admin('faults', undefined, 'DELETE');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    } finally {
      await lonely.close();
    }
  });
});
