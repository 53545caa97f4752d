import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AbortedError,
  BusinessError,
  CircuitOpenError,
  ContractError,
  HttpStatusError,
  MalformedResponseError,
  NetworkError,
  OverloadedError,
  RequestRefusedError,
  TimeoutError,
} from '../../src/campaign-api/errors.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { MARGIN_MS, closeAllClients, failure, recordingClient } from './support/clients.js';
import { emulatorAdmin } from './support/emulator-admin.js';
import { sleep } from './support/test-server.js';

const STORE = DEMO_TOKENS.store;
const ATTEMPT_MS = 200;
/** Fixture campaign 1 of the demo store (a started one-off code campaign). */
const CAMPAIGN = 1;

let emulator: RunningEmulator;
let admin: ReturnType<typeof emulatorAdmin>;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, moderation: { mode: 'manual' } });
  admin = emulatorAdmin(emulator.url);
});
beforeEach(async () => {
  await admin.reset();
});
afterEach(async () => {
  await closeAllClients();
});
afterAll(async () => {
  await emulator.close();
});

/**
 * maxAttempts 3, backoff at most 20 ms; the attempt timeout and budget of FAST, which never fire
 * in a test that is not about them (a 100 ms latency can outlast a 200 ms attempt timeout on a
 * loaded machine, and a retry then adds calls the test does not expect).
 */
const client = (overrides = {}) => recordingClient(emulator.url, overrides);
/** For the tests about timeouts: attempt timeout 200 ms, budget 3 s. */
const SHORT = { attemptTimeoutMs: ATTEMPT_MS, budgetMs: 3000 };
/** The longest a read may take when every attempt times out: three timeouts, two backoffs. */
const READ_WORST_MS = 3 * ATTEMPT_MS + 2 * 20 + MARGIN_MS;

describe('each fault mode gives the right typed error, in time, with reads retried and writes not', () => {
  it('latency past the attempt timeout: TimeoutError after 3 read attempts, 1 write attempt', async () => {
    await admin.fault({ mode: 'latency', latencyMs: 600 });
    const { client: api, last } = client(SHORT);
    const read = await failure(api.get(STORE, { ymCampaignId: CAMPAIGN }));
    expect(read.error).toBeInstanceOf(TimeoutError);
    expect(read.error).toMatchObject({ what: 'attempt', timeoutMs: ATTEMPT_MS });
    expect(read.ms).toBeLessThan(READ_WORST_MS);
    expect(last()).toMatchObject({ outcome: 'timeout', attempts: 3 });

    const write = await failure(api.stop(STORE, { ymCampaignId: CAMPAIGN }));
    expect(write.error).toBeInstanceOf(TimeoutError);
    expect(write.ms).toBeLessThan(ATTEMPT_MS + MARGIN_MS);
    expect(await admin.calls()).toEqual({ 'campaigns/get': 3, 'campaigns/stop': 1 });
  });

  it('latency under the attempt timeout: the answer arrives', async () => {
    await admin.fault({ mode: 'latency', latencyMs: 50, operation: 'campaigns/get' });
    const { client: api, last } = client(SHORT);
    await expect(api.get(STORE, { ymCampaignId: CAMPAIGN })).resolves.toMatchObject({ ymCampaignId: CAMPAIGN });
    expect(last()).toMatchObject({ outcome: 'success', attempts: 1 });
  });

  it('http500: HttpStatusError, every read operation retried up to maxAttempts', async () => {
    await admin.fault({ mode: 'http500' });
    const { client: api } = client();
    const reads: Array<() => Promise<unknown>> = [
      () => api.get(STORE, { ymCampaignId: CAMPAIGN }),
      () => api.info(STORE, { ymCampaignId: CAMPAIGN }),
      () => api.getAllCampaigns(STORE, { limit: 10, offset: 0 }),
      () => api.getPinsByStatus(STORE, { ymCampaignId: CAMPAIGN, pinStatus: 'new_unused' }),
      () => api.getCategories(STORE, {}),
      () => api.redeem(STORE, { ymCampaignId: CAMPAIGN, transactionId: 'x-1', pinContent: 'TECHNO-0001', campaignFee: '1.00' }),
    ];
    for (const read of reads) {
      const { error } = await failure(read());
      expect(error).toBeInstanceOf(HttpStatusError);
      expect(error).toMatchObject({ httpStatus: 500 });
    }
    expect(await admin.calls()).toEqual({
      'campaigns/get': 3,
      'campaigns/info': 3,
      'campaigns/get-all-campaigns': 3,
      'campaigns/get-pins-by-status': 3,
      'categories/get': 3,
      'campaigns/redeem': 3,
    });
  });

  it('http500: no write operation is repeated', async () => {
    await admin.fault({ mode: 'http500' });
    const { client: api } = client();
    const writes: Array<() => Promise<unknown>> = [
      () => api.create(STORE, { partnerCampaignId: 9001 }),
      () => api.update(STORE, { partnerCampaignId: 1001, description: 'Новое описание' }),
      () => api.start(STORE, { ymCampaignId: CAMPAIGN }),
      () => api.stop(STORE, { ymCampaignId: CAMPAIGN }),
      () => api.addPins(STORE, { ymCampaignId: CAMPAIGN, pinList: ['NEW-1'] }),
    ];
    for (const write of writes) expect((await failure(write())).error).toBeInstanceOf(HttpStatusError);
    expect(await admin.calls()).toEqual({
      'campaigns/create': 1,
      'campaigns/update': 1,
      'campaigns/start': 1,
      'campaigns/stop': 1,
      'campaigns/add-pins': 1,
    });
  });

  it('reset: NetworkError after the request was sent; reads retried, writes not', async () => {
    await admin.fault({ mode: 'reset' });
    const { client: api, last } = client();
    const read = await failure(api.info(STORE, { ymCampaignId: CAMPAIGN }));
    expect(read.error).toBeInstanceOf(NetworkError);
    expect(read.error).toMatchObject({ beforeSend: false });
    expect(last()).toMatchObject({ outcome: 'network', attempts: 3 });
    const write = await failure(api.start(STORE, { ymCampaignId: CAMPAIGN }));
    expect(write.error).toBeInstanceOf(NetworkError);
    expect(await admin.calls()).toEqual({ 'campaigns/info': 3, 'campaigns/start': 1 });
  });

  it('reset after the backend stored a create: the write is not repeated, so nothing is created twice', async () => {
    await admin.fault({ mode: 'reset', operation: 'campaigns/create', afterEffect: true });
    const { client: api } = client();
    const before = (await api.getAllCampaigns(STORE, { limit: 100, offset: 0 })).total;
    const data = {
      partnerCampaignId: 9002,
      categoryId: 1,
      campaignType: 'promo' as const,
      acceptUrl: 'https://lavka.example.ru/promo',
      merchantDomain: 'lavka.example.ru',
      merchantLogoSvg: 'https://lavka.example.ru/logo.svg',
      merchantLogoPng: 'https://lavka.example.ru/logo.png',
      merchantName: 'Лавка',
      backgroundColor: '#1A237E',
      fontColor: '#FFFFFF',
      description: 'Скидка для новых покупателей',
      conditions: 'Действует при заказе на сайте',
      discountType: 'percent' as const,
      discountAmount: '10',
      feeType: 'percent' as const,
      campaignFee: '5',
    };
    expect((await failure(api.create(STORE, data))).error).toBeInstanceOf(NetworkError);
    expect((await api.getAllCampaigns(STORE, { limit: 100, offset: 0 })).total).toBe(before + 1);
    expect((await admin.calls())['campaigns/create']).toBe(1);
  });

  it('malformed: MalformedResponseError; reads retried, writes not', async () => {
    await admin.fault({ mode: 'malformed' });
    const { client: api } = client();
    const read = await failure(api.get(STORE, { ymCampaignId: CAMPAIGN }));
    expect(read.error).toBeInstanceOf(MalformedResponseError);
    expect(read.error.message).toMatch(/^get: malformed response \(HTTP 200\): expected a JSON envelope, got /);
    expect((await failure(api.stop(STORE, { ymCampaignId: CAMPAIGN }))).error).toBeInstanceOf(MalformedResponseError);
    expect(await admin.calls()).toEqual({ 'campaigns/get': 3, 'campaigns/stop': 1 });
  });

  it('contract: ContractError naming the operation and the path; not retried', async () => {
    await admin.fault({ mode: 'contract' });
    const { client: api, last } = client();
    const one = await failure(api.info(STORE, { ymCampaignId: CAMPAIGN }));
    expect(one.error).toBeInstanceOf(ContractError);
    expect(one.error).toMatchObject({ operation: 'info', path: 'result.ymCampaignId' });
    expect(last()).toMatchObject({ outcome: 'contract', attempts: 1 });

    const page = await failure(api.getAllCampaigns(STORE, { limit: 10, offset: 0 }));
    expect(page.error).toBeInstanceOf(ContractError);
    expect(page.error).toMatchObject({ operation: 'getAllCampaigns', path: 'total' });
    expect(await admin.calls()).toEqual({ 'campaigns/info': 1, 'campaigns/get-all-campaigns': 1 });
  });

  it('error200: a BusinessError with the injected code and HTTP 200; not retried', async () => {
    await admin.fault({ mode: 'error200', code: 'campaignNotFound', operation: 'campaigns/get' });
    const { client: api, last } = client();
    const { error } = await failure(api.get(STORE, { ymCampaignId: CAMPAIGN }));
    expect(error).toBeInstanceOf(BusinessError);
    expect(error).toMatchObject({ code: 'campaignNotFound', httpStatus: 200 });
    expect(last()).toMatchObject({ outcome: 'business-error', attempts: 1, code: 'campaignNotFound' });
    expect(await admin.calls()).toEqual({ 'campaigns/get': 1 });
  });

  it('http4xx: a RequestRefusedError with the status, for reads and writes; never retried, the breaker closed', async () => {
    const { client: api, last } = client({ breaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 } });
    for (const httpStatus of [400, 413, 429, 431]) {
      await admin.fault({ mode: 'http4xx', httpStatus });
      const read = await failure(api.get(STORE, { ymCampaignId: CAMPAIGN }));
      expect(read.error).toBeInstanceOf(RequestRefusedError);
      expect(read.error).toMatchObject({ operation: 'get', httpStatus });
      expect(last()).toMatchObject({ outcome: 'refused', attempts: 1 });
      const write = await failure(api.stop(STORE, { ymCampaignId: CAMPAIGN }));
      expect(write.error).toMatchObject({ operation: 'stop', httpStatus });
    }
    expect(api.breakerState()).toBe('closed');
    expect(await admin.calls()).toEqual({ 'campaigns/get': 4, 'campaigns/stop': 4 });
    // A token too long for the emulator's head: the same refusal, from the emulator itself.
    await admin.clearFaults();
    const long = await failure(api.get('A'.repeat(20_000), { ymCampaignId: CAMPAIGN }));
    expect(long.error).toMatchObject({ operation: 'get', httpStatus: 400 });
    expect(long.error.message).not.toContain('AAAA');
    expect(api.breakerState()).toBe('closed');
  });

  it('hang: TimeoutError within the attempt timeout for a single attempt, within the budget for retries', async () => {
    await admin.fault({ mode: 'hang' });
    const single = client({ ...SHORT, maxAttempts: 1 });
    const one = await failure(single.client.get(STORE, { ymCampaignId: CAMPAIGN }));
    expect(one.error).toBeInstanceOf(TimeoutError);
    expect(one.ms).toBeLessThan(ATTEMPT_MS + MARGIN_MS);

    const budgeted = client({ attemptTimeoutMs: 250, budgetMs: 400 });
    const two = await failure(budgeted.client.get(STORE, { ymCampaignId: CAMPAIGN }));
    expect(two.error).toMatchObject({ name: 'TimeoutError', what: 'budget' });
    expect(two.ms).toBeLessThan(400 + MARGIN_MS);
    expect(budgeted.last().attempts).toBe(2);
  });
});

describe('circuit breaker against the emulator', () => {
  it('opens while the backend fails, stops calling it, and closes once a probe succeeds', async () => {
    await admin.fault({ mode: 'http500' });
    const { client: api, last } = client({ maxAttempts: 1, breaker: { consecutiveFailures: 3, halfOpenAfterMs: 300 } });
    for (let i = 0; i < 3; i++) await failure(api.get(STORE, { ymCampaignId: CAMPAIGN }));
    expect(api.breakerState()).toBe('open');

    const fast = await failure(api.get(STORE, { ymCampaignId: CAMPAIGN }));
    expect(fast.error).toBeInstanceOf(CircuitOpenError);
    expect(last()).toMatchObject({ outcome: 'circuit-open', attempts: 0 });
    expect(await admin.calls()).toEqual({ 'campaigns/get': 3 });

    await admin.clearFaults();
    await sleep(320);
    await expect(api.get(STORE, { ymCampaignId: CAMPAIGN })).resolves.toMatchObject({ ymCampaignId: CAMPAIGN });
    expect(api.breakerState()).toBe('closed');
    expect(await admin.calls()).toEqual({ 'campaigns/get': 4 });
  });

  it('lets exactly one probe through while half-open', async () => {
    await admin.fault({ mode: 'http500' });
    const { client: api } = client({ maxAttempts: 1, breaker: { consecutiveFailures: 1, halfOpenAfterMs: 200 } });
    await failure(api.get(STORE, { ymCampaignId: CAMPAIGN }));
    await admin.fault({ mode: 'latency', latencyMs: 100 });
    await sleep(220);
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => api.get(STORE, { ymCampaignId: CAMPAIGN })));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const calls = (await admin.calls())['campaigns/get'];
    // 1 failure, then the probe alone, then the three callers that waited for it.
    expect(calls).toBe(5);
    expect(api.breakerState()).toBe('closed');
  });
});

describe('bulkhead and abort against the emulator', () => {
  it('refuses calls beyond the concurrent limit plus the queue', async () => {
    await admin.fault({ mode: 'latency', latencyMs: 100 });
    const { client: api } = client({ bulkhead: { maxConcurrent: 2, maxQueue: 1 } });
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(() => api.get(STORE, { ymCampaignId: CAMPAIGN })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => r.reason)).toEqual([expect.any(OverloadedError), expect.any(OverloadedError)]);
    expect(await admin.calls()).toEqual({ 'campaigns/get': 3 });
  });

  it('calls cancelled while queued give their turn back: the client keeps its full capacity', async () => {
    await admin.fault({ mode: 'latency', latencyMs: 20 });
    const { client: api } = client({ bulkhead: { maxConcurrent: 4, maxQueue: 1000 } });
    const controller = new AbortController();
    const abandoned = Promise.allSettled(
      Array.from({ length: 200 }, () => api.get(STORE, { ymCampaignId: CAMPAIGN }, { signal: controller.signal })),
    );
    await sleep(30);
    controller.abort();
    const settled = await abandoned;
    expect(settled.filter((r) => r.status === 'rejected').length).toBeGreaterThan(150);

    // 40 calls through 4 slots at 20 ms each: about 200 ms when no slot leaked. Before the fix
    // each cancelled queued call swallowed a turn, and these starved until their budget ran out.
    const started = performance.now();
    const after = await Promise.allSettled(Array.from({ length: 40 }, () => api.get(STORE, { ymCampaignId: CAMPAIGN })));
    expect(after.filter((r) => r.status === 'fulfilled')).toHaveLength(40);
    expect(performance.now() - started).toBeLessThan(200 + 4 * MARGIN_MS);
  });

  it('an aborted call ends at once and is not retried', async () => {
    await admin.fault({ mode: 'hang' });
    const { client: api, last } = client({ attemptTimeoutMs: 5000, budgetMs: 5000 });
    const controller = new AbortController();
    const pending = failure(api.get(STORE, { ymCampaignId: CAMPAIGN }, { signal: controller.signal }));
    await sleep(50);
    const abortedAt = performance.now();
    controller.abort();
    const { error } = await pending;
    const ms = performance.now() - abortedAt;
    expect(error).toBeInstanceOf(AbortedError);
    expect(ms).toBeLessThan(MARGIN_MS);
    expect(last()).toMatchObject({ outcome: 'aborted', attempts: 1 });
    expect(await admin.calls()).toEqual({ 'campaigns/get': 1 });
  });
});
