import { describe, expect, it } from 'vitest';
import { operations, OPERATION_NAMES } from '../../src/campaign-api/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { STORE, campaignBody, startedCampaign, useEmulator, EmulatorClient } from './support.js';

const headers = { authorization: `Bearer ${STORE}`, 'content-type': 'application/json' };

describe('fault injection', () => {
  const env = useEmulator();
  const post = (path: string, body: unknown, signal?: AbortSignal) =>
    fetch(`${env.client.url}/v1/${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal });
  const total = async () => (await env.client.ok('getAllCampaigns', { limit: 1, offset: 0 })).total as number;
  const fault = (body: Record<string, unknown>) => env.client.adminOk('faults', body);

  it('latency: delays, then answers normally and the operation takes effect', async () => {
    await fault({ mode: 'latency', operation: 'campaigns/create', latencyMs: 300 });
    const started = performance.now();
    const answer = await env.client.call('create', campaignBody('promo'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    expect(answer.status).toBe(200);
    expect(await total()).toBe(9);
  });

  it('latency: a request still held when the emulator is reset is dropped, not carried out in the fresh state', async () => {
    await fault({ mode: 'latency', operation: 'campaigns/create', latencyMs: 300 });
    const held = post('campaigns/create', campaignBody('promo')).then(() => 'answered', () => 'cut');
    // Until the emulator has the request (it counts calls on arrival).
    while (!(await env.client.adminOk('calls', undefined, 'GET')).calls?.['campaigns/create']) await new Promise((r) => setTimeout(r, 10));
    await env.client.adminOk('reset');
    expect(await held).toBe('cut');
    // Well past the latency: the create never lands in the fixtures.
    await new Promise((r) => setTimeout(r, 400));
    expect(await total()).toBe(8);
  });

  it('http500: plain-text 500, no envelope, nothing stored', async () => {
    await fault({ mode: 'http500', operation: 'campaigns/create' });
    const response = await post('campaigns/create', campaignBody('promo'));
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('Internal Server Error (injected http500 fault)');
    expect(await total()).toBe(8);
  });

  it('http4xx: a bare 4xx (400 unless given), no envelope, nothing stored', async () => {
    await fault({ mode: 'http4xx', operation: 'campaigns/create' });
    let response = await post('campaigns/create', campaignBody('promo'));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('400 Bad Request (injected http4xx fault)');
    for (const httpStatus of [413, 429, 431]) {
      await fault({ mode: 'http4xx', operation: 'campaigns/create', httpStatus });
      response = await post('campaigns/create', campaignBody('promo'));
      expect(response.status).toBe(httpStatus);
      expect(await response.text()).toMatch(new RegExp(`^${httpStatus} .+ \\(injected http4xx fault\\)$`));
    }
    expect(await total()).toBe(8);
    expect((await env.client.admin('faults', { mode: 'http4xx', httpStatus: 500 })).status).toBe(400);
  });

  it('reset: the connection is destroyed without an answer, nothing stored', async () => {
    await fault({ mode: 'reset', operation: 'campaigns/create' });
    const error = await post('campaigns/create', campaignBody('promo')).then(() => null, (e: Error) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as { cause?: { code?: string } }).cause?.code)).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(await total()).toBe(8);
  });

  it('malformed: HTTP 200 whose body is not JSON', async () => {
    await fault({ mode: 'malformed' });
    const response = await post('campaigns/get', { ymCampaignId: 1 });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('contract: HTTP 200 success envelope that breaks the response contract of every operation', async () => {
    await fault({ mode: 'contract' });
    for (const name of OPERATION_NAMES) {
      const response = await post(operations[name].path, { ymCampaignId: 1 });
      expect(response.status).toBe(200);
      const body = (await response.json()) as any;
      expect(body.status).toBe('success');
      const payload = operations[name].wrapping === 'top-level' ? body : body.result;
      expect(operations[name].response.safeParse(payload).success, name).toBe(false);
    }
  });

  it('error200: HTTP 200 with the error envelope, code incorrectData unless given', async () => {
    await fault({ mode: 'error200', operation: 'campaigns/info' });
    let response = await post('campaigns/info', { ymCampaignId: 1 });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).errors.code).toBe('incorrectData');
    await fault({ mode: 'error200', operation: 'campaigns/info', code: 'campaignNotFound' });
    response = await post('campaigns/info', { ymCampaignId: 1 });
    expect(await response.json()).toEqual({ status: 'error', errors: { code: 'campaignNotFound', message: 'injected error200 fault on campaigns/info' } });
  });

  it('hang: never answers (the client gives up), nothing stored', async () => {
    await fault({ mode: 'hang', operation: 'campaigns/create' });
    const error = await post('campaigns/create', campaignBody('promo'), AbortSignal.timeout(300)).then(() => null, (e: Error) => e);
    expect(error?.name).toBe('TimeoutError');
    expect(await total()).toBe(8);
  });

  it('afterEffect: the operation is applied, then the answer fails (http500, reset, hang)', async () => {
    await fault({ mode: 'http500', operation: 'campaigns/create', afterEffect: true });
    expect((await post('campaigns/create', campaignBody('promo'))).status).toBe(500);
    expect(await total()).toBe(9);
    await fault({ mode: 'reset', operation: 'campaigns/stop', afterEffect: true });
    await expect(post('campaigns/stop', { ymCampaignId: 1 })).rejects.toThrow();
    expect(await env.client.status(1)).toBe('paused');
    await fault({ mode: 'hang', operation: 'campaigns/start', afterEffect: true });
    await expect(post('campaigns/start', { ymCampaignId: 1 }, AbortSignal.timeout(300))).rejects.toThrow();
    expect(await env.client.status(1)).toBe('started');
  });

  it('probability: 0 never fails, 0.5 fails some calls and passes others', async () => {
    await fault({ mode: 'http500', operation: 'campaigns/get', probability: 0 });
    for (let i = 0; i < 20; i++) expect((await post('campaigns/get', { ymCampaignId: 1 })).status).toBe(200);
    await fault({ mode: 'http500', operation: 'campaigns/get', probability: 0.5 });
    const statuses = new Set<number>();
    for (let i = 0; i < 200; i++) statuses.add((await post('campaigns/get', { ymCampaignId: 1 })).status);
    expect([...statuses].sort()).toEqual([200, 500]);
  });

  it('one fault per operation (a later one replaces it), a per-operation fault wins over the catch-all', async () => {
    await fault({ mode: 'http500' });
    await fault({ mode: 'error200', operation: 'campaigns/get' });
    const listed = await fault({ mode: 'malformed', operation: 'campaigns/get' });
    expect(listed.faults.map((f: any) => [f.operation ?? '*', f.mode])).toEqual([['*', 'http500'], ['campaigns/get', 'malformed']]);
    expect((await post('campaigns/info', { ymCampaignId: 1 })).status).toBe(500);
    const text = await (await post('campaigns/get', { ymCampaignId: 1 })).text();
    expect(() => JSON.parse(text)).toThrow();
    expect(await env.client.adminOk('faults', undefined, 'GET')).toEqual(listed);
    const removed = await env.client.adminOk('faults?operation=campaigns/get', undefined, 'DELETE');
    expect(removed.removed).toBe(1);
    expect((await post('campaigns/get', { ymCampaignId: 1 })).status).toBe(500);
    await env.client.adminOk('faults', undefined, 'DELETE');
    expect((await post('campaigns/get', { ymCampaignId: 1 })).status).toBe(200);
  });

  it('faulted calls are counted; the admin API is never faulted', async () => {
    await fault({ mode: 'http500' });
    await post('campaigns/get', { ymCampaignId: 1 });
    await post('campaigns/get', { ymCampaignId: 1 });
    expect(await env.client.adminOk('calls', undefined, 'GET')).toEqual({ calls: { 'campaigns/get': 2 } });
  });

  it('fault requests are validated', async () => {
    for (const bad of [{ mode: 'explode' }, { mode: 'http500', operation: 'campaigns/nope' }, { mode: 'http500', probability: 2 }, { mode: 'latency', latencyMs: -1 }, { mode: 'http500', extra: 1 }]) {
      const answer = await env.client.admin('faults', bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.error.length).toBeGreaterThan(5);
    }
    const unknownOp = await env.client.admin('faults', { mode: 'http500', operation: 'campaigns/nope' });
    expect(unknownOp.body.error).toMatch(/campaigns\/get-pins-by-status/);
  });

  it('reset clears faults and calls', async () => {
    await fault({ mode: 'http500' });
    await env.client.adminOk('reset');
    expect(await env.client.adminOk('faults', undefined, 'GET')).toEqual({ faults: [] });
    expect((await post('campaigns/get', { ymCampaignId: 1 })).status).toBe(200);
  });

  it('a started campaign keeps working through faults on other operations', async () => {
    const { id } = await startedCampaign(env.client, 'promo');
    await fault({ mode: 'http500', operation: 'campaigns/stop' });
    expect((await post('campaigns/stop', { ymCampaignId: id })).status).toBe(500);
    expect(await env.client.status(id)).toBe('started');
  });
});

describe('close() with hanging and slow requests', () => {
  it('releases hanging sockets and pending latency timers', async () => {
    const emulator = await startEmulator({ quiet: true });
    const client = new EmulatorClient(emulator.url);
    await client.adminOk('faults', { mode: 'hang', operation: 'campaigns/get' });
    await client.adminOk('faults', { mode: 'latency', operation: 'campaigns/info', latencyMs: 600_000 });
    const hanging = fetch(`${emulator.url}/v1/campaigns/get`, { method: 'POST', headers, body: '{"ymCampaignId":1}' }).then(() => 'answered', () => 'cut');
    const slow = fetch(`${emulator.url}/v1/campaigns/info`, { method: 'POST', headers, body: '{"ymCampaignId":1}' }).then(() => 'answered', () => 'cut');
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    await emulator.close();
    expect(performance.now() - started).toBeLessThan(100 + 900);
    expect(await hanging).toBe('cut');
    expect(await slow).toBe('cut');
  });
});
