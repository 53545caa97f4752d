import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
  UnauthenticatedError,
} from '../../src/campaign-api/errors.js';
import { DEFAULT_CLIENT_OPTIONS, createCampaignApiClient } from '../../src/campaign-api/http-client.js';
import { MARGIN_MS, closeAllClients, failure, recordingClient, referenceTimer, timed } from './support/clients.js';
import {
  delayed,
  hang,
  json,
  refusedUrl,
  reset,
  sleep,
  startTestServer,
  text,
  type Handler,
  type TestServer,
} from './support/test-server.js';

const TOKEN = 'secret-partner-token-4711';
const started = (id = 7) => json(200, { status: 'success', result: { ymCampaignId: id, campaignStatus: 'started' } });
const categories = json(200, { status: 'success', result: { categories: [{ categoryId: 1, categoryName: 'Еда' }] } });

let server: TestServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  server = await startTestServer();
});
afterEach(async () => {
  await closeAllClients();
  server.seen.length = 0;
});
afterAll(async () => {
  await server.close();
  // Late rejections of abandoned attempts would surface within a tick or two.
  await sleep(50);
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

/** Answers with each handler in turn, then keeps using the last one. */
function sequence(...handlers: Handler[]): Handler {
  let i = 0;
  return (req, res) => handlers[Math.min(i++, handlers.length - 1)]!(req, res);
}

describe('transport', () => {
  it('POSTs JSON to {base_url}/v1/<path> with the reference headers and the per-call token', async () => {
    server.respond(started());
    const { client } = recordingClient(server.url);
    await expect(client.start(TOKEN, { ymCampaignId: 7 })).resolves.toEqual({ ymCampaignId: 7, campaignStatus: 'started' });
    const [request] = server.seen;
    expect(request).toMatchObject({ method: 'POST', url: '/v1/campaigns/start', body: '{"ymCampaignId":7}' });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${TOKEN}`,
    });

    await client.start('another-partner', { ymCampaignId: 7 });
    expect(server.seen[1]!.headers.authorization).toBe('Bearer another-partner');
  });

  it('keeps the path of a base URL that has one, and sends {} for categories', async () => {
    server.respond(categories);
    const { client } = recordingClient(`${server.url}/partner-api/`);
    await expect(client.getCategories(TOKEN, {})).resolves.toEqual({ categories: [{ categoryId: 1, categoryName: 'Еда' }] });
    expect(server.seen[0]).toMatchObject({ url: '/partner-api/v1/categories/get', body: '{}' });
  });

  it('reuses kept-alive connections and never opens more than configured', async () => {
    server.respond(delayed(20, started()));
    const before = server.stats.connections;
    // Generous timeouts: waiting for one of the two sockets counts against the attempt.
    const { client } = recordingClient(server.url, { connections: 2, attemptTimeoutMs: 3000, budgetMs: 5000 });
    await Promise.all(Array.from({ length: 12 }, () => client.start(TOKEN, { ymCampaignId: 7 })));
    for (let i = 0; i < 6; i++) await client.start(TOKEN, { ymCampaignId: 7 });
    expect(server.stats.connections - before).toBe(2);
  });
});

describe('answers served over HTTP', () => {
  const shapes: Array<[string, unknown]> = [
    ['object', { status: 'error', errors: { code: 'campaignNotFound', message: 'no campaign 7' } }],
    ['array', { status: 'error', errors: [{ code: 'campaignNotFound', message: 'no campaign 7' }] }],
    ['keyed by code', { status: 'error', errors: { campaignNotFound: 'no campaign 7' } }],
  ];
  for (const [shape, envelope] of shapes) {
    for (const status of [200, 404]) {
      it(`turns an error envelope (${shape}, HTTP ${status}) into a BusinessError, once`, async () => {
        server.respond(json(status, envelope));
        const { client, last } = recordingClient(server.url);
        const { error } = await failure(client.get(TOKEN, { ymCampaignId: 7 }));
        expect(error).toBeInstanceOf(BusinessError);
        expect(error).toMatchObject({ code: 'campaignNotFound', detail: 'no campaign 7', httpStatus: status, operation: 'get' });
        expect(last()).toMatchObject({ operation: 'get', outcome: 'business-error', attempts: 1, code: 'campaignNotFound' });
        expect(server.seen).toHaveLength(1);
      });
    }
  }

  it('keeps the current status of a failed stop', async () => {
    server.respond(json(409, { status: 'error', errors: { code: 'failFinished', message: 'archived' }, result: { ymCampaignId: 7, campaignStatus: 'finished' } }));
    const { client } = recordingClient(server.url);
    const { error } = await failure(client.stop(TOKEN, { ymCampaignId: 7 }));
    expect(error).toMatchObject({ code: 'failFinished', current: { ymCampaignId: 7, campaignStatus: 'finished' } });
  });

  it('reports 401 as UnauthenticatedError without retrying', async () => {
    server.respond(json(401, { status: 'error', errors: { code: 'unauthorized', message: 'unknown token' } }));
    const { client, last } = recordingClient(server.url);
    const { error } = await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(last()).toMatchObject({ outcome: 'unauthenticated', attempts: 1 });
  });

  it('reports a proxy page on 502 as HttpStatusError after every read attempt', async () => {
    server.respond(text(502, '<html><body>Bad gateway</body></html>', 'text/html'));
    const { client, last } = recordingClient(server.url);
    const { error } = await failure(client.info(TOKEN, { ymCampaignId: 7 }));
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error).toMatchObject({ httpStatus: 502 });
    expect(last()).toMatchObject({ outcome: 'http', attempts: 3 });
  });

  it('reports a non-JSON 200 as MalformedResponseError', async () => {
    server.respond(text(200, 'OK'));
    const { client, last } = recordingClient(server.url, { maxAttempts: 1 });
    const { error } = await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(last()).toMatchObject({ outcome: 'malformed', attempts: 1 });
  });

  it('reports a payload that breaks the contract as ContractError naming the path, without retrying', async () => {
    server.respond(json(200, { status: 'success', total: 1, campaigns: [{ ymCampaignId: '1', campaignStatus: 'started' }] }));
    const { client, last } = recordingClient(server.url);
    const { error } = await failure(client.getAllCampaigns(TOKEN, { limit: 10, offset: 0 }));
    expect(error).toBeInstanceOf(ContractError);
    expect(error).toMatchObject({ operation: 'getAllCampaigns', path: 'campaigns[0].ymCampaignId' });
    expect(last()).toMatchObject({ outcome: 'contract', attempts: 1 });
  });

  it('passes unknown enum values on as unknown markers', async () => {
    server.respond(json(200, { status: 'success', result: { ymCampaignId: 7, pinStatus: 'expired', pins: ['A1'] } }));
    const { client } = recordingClient(server.url);
    await expect(client.getPinsByStatus(TOKEN, { ymCampaignId: 7, pinStatus: 'new_unused' })).resolves.toEqual({
      ymCampaignId: 7,
      pinStatus: { unknown: 'expired' },
      pins: ['A1'],
    });
  });
});

describe('retries', () => {
  it('retries a read on 5xx with backoff and returns the answer that finally came', async () => {
    const { client, last } = recordingClient(server.url);
    const info = json(200, {
      status: 'success',
      result: {
        ymCampaignId: 7,
        campaignStatus: 'started',
        campaignAccepts: 1,
        campaignRedeems: 2,
        campaignShows: 3,
        campaignPinsStats: { unused: 4, total: 5 },
        campaignRedeemStats: { usedCount: 1, approvedCount: 1, declinedCount: 0 },
      },
    });
    server.respond(sequence(text(500, 'boom'), text(503, 'busy'), info));
    await expect(client.info(TOKEN, { ymCampaignId: 7 })).resolves.toMatchObject({ campaignShows: 3 });
    expect(last()).toMatchObject({ outcome: 'success', attempts: 3 });
    expect(server.seen).toHaveLength(3);
  });

  it('retries redeem, which is idempotent on transactionId', async () => {
    server.respond(sequence(text(500, 'boom'), json(200, { status: 'success', result: { ymCampaignId: 7, transactionId: 't-1', state: 'processing' } })));
    const { client, last } = recordingClient(server.url);
    await client.redeem(TOKEN, { ymCampaignId: 7, transactionId: 't-1', campaignFee: '10.00', pinContent: 'A1' });
    expect(last()).toMatchObject({ outcome: 'success', attempts: 2 });
  });

  for (const [name, call] of [
    ['create', (c: ReturnType<typeof recordingClient>['client']) => c.create(TOKEN, { partnerCampaignId: 1 })],
    ['update', (c: ReturnType<typeof recordingClient>['client']) => c.update(TOKEN, { partnerCampaignId: 1 })],
    ['start', (c: ReturnType<typeof recordingClient>['client']) => c.start(TOKEN, { ymCampaignId: 1 })],
    ['stop', (c: ReturnType<typeof recordingClient>['client']) => c.stop(TOKEN, { ymCampaignId: 1 })],
    ['addPins', (c: ReturnType<typeof recordingClient>['client']) => c.addPins(TOKEN, { ymCampaignId: 1, pinList: ['A'] })],
  ] as const) {
    it(`does not repeat ${name} after a 500 or a connection reset once the request was sent`, async () => {
      server.respond(text(500, 'boom'));
      const { client, last } = recordingClient(server.url);
      expect((await failure(call(client))).error).toBeInstanceOf(HttpStatusError);
      expect(last().attempts).toBe(1);

      server.respond(reset);
      const { error } = await failure(call(client));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ beforeSend: false });
      expect(last()).toMatchObject({ outcome: 'network', attempts: 1 });
      expect(server.seen).toHaveLength(2);
    });
  }

  it('repeats a write whose connection was refused, since it never left', async () => {
    const { client, last } = recordingClient(await refusedUrl());
    const { error } = await failure(client.create(TOKEN, { partnerCampaignId: 1 }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ errorCode: 'ECONNREFUSED', beforeSend: true });
    expect(last()).toMatchObject({ outcome: 'network', attempts: 3 });
  });

  it('retries a read after an attempt timeout and gives up within the attempts plus backoff', async () => {
    server.respond(hang);
    const { client, last } = recordingClient(server.url, { attemptTimeoutMs: 150, maxAttempts: 3, budgetMs: 5000 });
    const { error, ms } = await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ what: 'attempt', timeoutMs: 150 });
    expect(last()).toMatchObject({ outcome: 'timeout', attempts: 3 });
    expect(ms).toBeLessThan(3 * 150 + 2 * 20 + MARGIN_MS);
  });

  it('stops at the call budget, also in the middle of an attempt', async () => {
    server.respond(hang);
    const { client, last } = recordingClient(server.url, { attemptTimeoutMs: 1000, budgetMs: 300 });
    // Ends when the 300 ms budget timer fires, however late timers fire on a loaded machine.
    const budgetTimer = referenceTimer(300);
    const { error, ms } = await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ what: 'budget', timeoutMs: 300 });
    expect(last()).toMatchObject({ outcome: 'timeout', attempts: 1 });
    expect(ms).toBeLessThan((await budgetTimer) + MARGIN_MS);
  });

  it('stops at the call budget during a backoff without sending another attempt', async () => {
    server.respond(text(500, 'boom'));
    const { client, last } = recordingClient(server.url, { budgetMs: 150, backoff: { initialMs: 1000, maxMs: 1000 }, maxAttempts: 5 });
    // Full jitter may draw a short first delay; retry until a draw lands past the budget.
    for (let i = 0; i < 20; i++) {
      server.seen.length = 0;
      const budgetTimer = referenceTimer(150);
      const { error, ms } = await failure(client.get(TOKEN, { ymCampaignId: 7 }));
      expect(ms).toBeLessThan((await budgetTimer) + MARGIN_MS);
      if (error instanceof TimeoutError) {
        expect(error.what).toBe('budget');
        expect(last().attempts).toBe(server.seen.length);
        await sleep(1100);
        expect(server.seen.length).toBe(last().attempts);
        return;
      }
    }
    throw new Error('no backoff ever outlasted the budget');
  });
});

describe('circuit breaker', () => {
  it('opens after consecutive transport failures, fails fast, and closes after a good probe', async () => {
    server.respond(text(500, 'down'));
    const { client, last } = recordingClient(server.url, { maxAttempts: 1, breaker: { consecutiveFailures: 3, halfOpenAfterMs: 300 } });
    for (let i = 0; i < 3; i++) await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(client.breakerState()).toBe('open');

    const { error, ms } = await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(error).toBeInstanceOf(CircuitOpenError);
    expect(last()).toMatchObject({ outcome: 'circuit-open', attempts: 0 });
    expect(server.seen).toHaveLength(3);
    expect(ms).toBeLessThan(MARGIN_MS);

    await sleep(320);
    expect(client.breakerState()).toBe('half-open');
    server.respond(started());
    await expect(client.start(TOKEN, { ymCampaignId: 7 })).resolves.toMatchObject({ campaignStatus: 'started' });
    expect(client.breakerState()).toBe('closed');
  });

  it('a deep queue behind a backend that fails all ends at once when the circuit opens, without one more request', async () => {
    server.respond(text(500, 'down'));
    const { client, reports } = recordingClient(server.url, {
      maxAttempts: 1,
      breaker: { consecutiveFailures: 1, halfOpenAfterMs: 60_000 },
      bulkhead: { maxConcurrent: 1, maxQueue: 20_000 },
    });
    // Each queued call is admitted by the one before it ending, and fails at once on the open
    // circuit: 20,000 hand-offs in a row, which must not each go one stack frame deeper.
    const outcomes = await Promise.all(Array.from({ length: 20_000 }, () => failure(client.get(TOKEN, { ymCampaignId: 7 }))));
    expect(outcomes[0]!.error).toBeInstanceOf(HttpStatusError);
    expect(outcomes.slice(1).every(({ error }) => error instanceof CircuitOpenError)).toBe(true);
    expect(server.seen).toHaveLength(1);
    expect(reports).toHaveLength(20_000);
  });

  it('opens again when the half-open probe fails', async () => {
    server.respond(text(500, 'down'));
    const { client } = recordingClient(server.url, { maxAttempts: 1, breaker: { consecutiveFailures: 2, halfOpenAfterMs: 200 } });
    for (let i = 0; i < 2; i++) await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    await sleep(220);
    expect((await failure(client.get(TOKEN, { ymCampaignId: 7 }))).error).toBeInstanceOf(HttpStatusError);
    expect(client.breakerState()).toBe('open');
    expect((await failure(client.get(TOKEN, { ymCampaignId: 7 }))).error).toBeInstanceOf(CircuitOpenError);
  });

  it('counts every failed attempt of a retried read', async () => {
    server.respond(text(500, 'down'));
    const { client } = recordingClient(server.url, { maxAttempts: 3, breaker: { consecutiveFailures: 3, halfOpenAfterMs: 5000 } });
    await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(client.breakerState()).toBe('open');
  });

  it('treats business errors and 401 as answers that keep it closed', async () => {
    const down = text(500, 'down');
    const notFound = json(404, { status: 'error', errors: { code: 'campaignNotFound', message: 'x' } });
    const unauthorized = json(401, { status: 'error', errors: { code: 'unauthorized', message: 'x' } });
    server.respond(sequence(down, down, notFound, down, down, unauthorized, down, down));
    const { client } = recordingClient(server.url, { maxAttempts: 1, breaker: { consecutiveFailures: 3, halfOpenAfterMs: 5000 } });
    for (let i = 0; i < 8; i++) await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(client.breakerState()).toBe('closed');
    expect(server.seen).toHaveLength(8);
  });

  it('treats a 4xx without an envelope as an answer: each tried once, the breaker closed', async () => {
    const down = text(500, 'down');
    server.respond(sequence(down, down, text(400, 'Bad Request'), text(431, ''), text(413, 'Payload Too Large'), text(429, 'Too Many Requests'), down, down, text(404, '<html>Not Found</html>')));
    const { client, reports } = recordingClient(server.url, { maxAttempts: 3, breaker: { consecutiveFailures: 3, halfOpenAfterMs: 5000 } });
    // A read fails twice, then its third attempt is refused: the refusal ends it and the count of failures starts again.
    expect((await failure(client.get(TOKEN, { ymCampaignId: 7 }))).error).toBeInstanceOf(RequestRefusedError);
    for (const status of [431, 413, 429]) expect(((await failure(client.get(TOKEN, { ymCampaignId: 7 }))).error as RequestRefusedError).httpStatus).toBe(status);
    expect(((await failure(client.get(TOKEN, { ymCampaignId: 7 }))).error as RequestRefusedError).httpStatus).toBe(404);
    expect(client.breakerState()).toBe('closed');
    expect(server.seen).toHaveLength(9);
    expect(reports.map((r) => [r.outcome, r.attempts])).toEqual([
      ['refused', 3],
      ['refused', 1],
      ['refused', 1],
      ['refused', 1],
      ['refused', 3],
    ]);
  });

  it('does not count calls the caller aborted', async () => {
    server.respond(hang);
    const { client } = recordingClient(server.url, { breaker: { consecutiveFailures: 1, halfOpenAfterMs: 5000 } });
    const controller = new AbortController();
    const pending = failure(client.get(TOKEN, { ymCampaignId: 7 }, { signal: controller.signal }));
    await sleep(30);
    controller.abort();
    expect((await pending).error).toBeInstanceOf(AbortedError);
    expect(client.breakerState()).toBe('closed');
  });
});

describe('bulkhead', () => {
  it('bounds concurrent calls, queues a bounded number and refuses the rest', async () => {
    server.respond(delayed(150, started()));
    const { client, reports } = recordingClient(server.url, { connections: 8, bulkhead: { maxConcurrent: 2, maxQueue: 2 } });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => client.start(TOKEN, { ymCampaignId: 7 })));
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(OverloadedError);
    expect(server.stats.maxInFlight).toBeLessThanOrEqual(2);
    expect(reports.filter((r) => r.outcome === 'overloaded' && r.attempts === 0)).toHaveLength(2);
  });

  it('counts time spent queued against the call budget', async () => {
    server.respond(delayed(400, started()));
    const { client } = recordingClient(server.url, { attemptTimeoutMs: 1000, budgetMs: 250, bulkhead: { maxConcurrent: 1, maxQueue: 4 } });
    const first = failure(client.start(TOKEN, { ymCampaignId: 7 }));
    const budgetTimer = referenceTimer(250);
    const { error, ms } = await failure(client.start(TOKEN, { ymCampaignId: 7 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan((await budgetTimer) + MARGIN_MS);
    expect((await first).error).toBeInstanceOf(TimeoutError);
  });

  it('ends each queued call when its own budget runs out, not the first one queued', async () => {
    server.respond(delayed(3000, started()));
    const { client } = recordingClient(server.url, { attemptTimeoutMs: 5000, budgetMs: 800, bulkhead: { maxConcurrent: 1, maxQueue: 4 } });
    const first = failure(client.start(TOKEN, { ymCampaignId: 7 }));
    const early = failure(client.start(TOKEN, { ymCampaignId: 7 }));
    await sleep(500);
    // Queued 500 ms after the other: a timer at the first deadline must not end it.
    const late = await failure(client.start(TOKEN, { ymCampaignId: 7 }));
    expect(late.error).toBeInstanceOf(TimeoutError);
    expect(late.error).toMatchObject({ what: 'budget' });
    expect(late.ms).toBeGreaterThanOrEqual(790);
    expect(late.ms).toBeLessThan(800 + MARGIN_MS);
    expect((await early).error).toMatchObject({ what: 'budget' });
    expect((await first).error).toBeInstanceOf(TimeoutError);
  });
});

describe('abort and close', () => {
  it("cancels a call in flight when the caller's signal fires", async () => {
    server.respond(hang);
    const { client, last } = recordingClient(server.url, { attemptTimeoutMs: 5000, budgetMs: 5000 });
    const controller = new AbortController();
    const pending = failure(client.get(TOKEN, { ymCampaignId: 7 }, { signal: controller.signal }));
    await sleep(50);
    // Measured from the abort: how late sleep(50) wakes on a loaded machine is not the client's.
    const abortedAt = performance.now();
    controller.abort();
    const { error } = await pending;
    const ms = performance.now() - abortedAt;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ by: 'caller' });
    expect(ms).toBeLessThan(MARGIN_MS);
    expect(last()).toMatchObject({ outcome: 'aborted', attempts: 1 });
  });

  it('one caller signal stops every call made with it at once, those in flight and those queued in the bulkhead', async () => {
    server.respond(hang);
    const { client, reports } = recordingClient(server.url, { attemptTimeoutMs: 5000, budgetMs: 5000, bulkhead: { maxConcurrent: 3, maxQueue: 10 } });
    const controller = new AbortController();
    const pending = Promise.all(Array.from({ length: 6 }, () => failure(client.get(TOKEN, { ymCampaignId: 7 }, { signal: controller.signal }))));
    await sleep(50);
    expect(server.openSockets()).toBe(3);
    const abortedAt = performance.now();
    controller.abort();
    for (const { error } of await pending) expect(error).toMatchObject({ name: 'AbortedError', by: 'caller' });
    expect(performance.now() - abortedAt).toBeLessThan(MARGIN_MS);
    expect(reports.map((r) => r.attempts).sort()).toEqual([0, 0, 0, 1, 1, 1]);
    expect(client.breakerState()).toBe('closed');
    // The queued three were never sent.
    await sleep(50);
    expect(server.seen).toHaveLength(3);
  });

  it('reads a caller left finish on their own: their connections stay open, their slots come back as they end', async () => {
    // A server of its own: connections are counted, and other tests' clients may still connect to the shared one.
    const own = await startTestServer(delayed(300, json(200, { status: 'success', result: { categories: [] } })));
    try {
      const { client, reports } = recordingClient(own.url, { connections: 3, attemptTimeoutMs: 5000, budgetMs: 5000, bulkhead: { maxConcurrent: 3, maxQueue: 10 } });
      const controller = new AbortController();
      const left = Promise.all([1, 2, 3].map(() => failure(client.getCategories(TOKEN, {}, { signal: controller.signal }))));
      await sleep(50);
      const abortedAt = performance.now();
      controller.abort();
      for (const { error } of await left) expect(error).toMatchObject({ name: 'AbortedError', by: 'caller' });
      expect(performance.now() - abortedAt).toBeLessThan(MARGIN_MS);
      // The next three wait for the slots the first three hold, then go out on the same connections.
      const next = await timed(Promise.all([1, 2, 3].map(() => client.getCategories(TOKEN, {}))));
      expect(next.value).toEqual([{ categories: [] }, { categories: [] }, { categories: [] }]);
      expect(next.ms).toBeGreaterThan(200);
      expect(own.seen).toHaveLength(6);
      expect(own.stats).toMatchObject({ connections: 3, cut: 0 });
      expect(reports.map((r) => r.outcome)).toEqual(['aborted', 'aborted', 'aborted', 'success', 'success', 'success']);
      expect(client.breakerState()).toBe('closed');
    } finally {
      await closeAllClients();
      await own.close();
    }
  });

  it('a write a caller left is aborted: its connection is closed', async () => {
    server.respond(hang);
    const { client, last } = recordingClient(server.url, { attemptTimeoutMs: 5000, budgetMs: 5000 });
    const before = server.stats.cut;
    const controller = new AbortController();
    const pending = failure(client.start(TOKEN, { ymCampaignId: 7 }, { signal: controller.signal }));
    await sleep(50);
    controller.abort();
    expect((await pending).error).toMatchObject({ name: 'AbortedError', by: 'caller' });
    expect(last()).toMatchObject({ outcome: 'aborted', attempts: 1 });
    await sleep(50);
    expect(server.stats.cut - before).toBe(1);
  });

  it('a read left on the wire is still ended by its attempt timeout, which counts against the breaker', async () => {
    server.respond(hang);
    const { client } = recordingClient(server.url, { attemptTimeoutMs: 200, budgetMs: 5000, breaker: { consecutiveFailures: 1, halfOpenAfterMs: 5000 } });
    const before = server.stats.cut;
    const controller = new AbortController();
    const pending = failure(client.get(TOKEN, { ymCampaignId: 7 }, { signal: controller.signal }));
    await sleep(50);
    controller.abort();
    expect((await pending).error).toBeInstanceOf(AbortedError);
    expect(server.stats.cut - before).toBe(0);
    expect(client.breakerState()).toBe('closed');
    await sleep(200 + MARGIN_MS);
    expect(server.stats.cut - before).toBe(1);
    expect(client.breakerState()).toBe('open');
    expect(server.seen).toHaveLength(1);
  });

  it('does not call at all with a signal already aborted', async () => {
    const { client, last } = recordingClient(server.url);
    const { error } = await failure(client.get(TOKEN, { ymCampaignId: 7 }, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(last()).toMatchObject({ outcome: 'aborted', attempts: 0 });
    expect(server.seen).toHaveLength(0);
  });

  it('close() aborts calls in flight, leaves no socket open and refuses later calls', async () => {
    server.respond(hang);
    const { client } = recordingClient(server.url, { attemptTimeoutMs: 5000, budgetMs: 5000 });
    const pending = Promise.all([1, 2, 3].map(() => failure(client.get(TOKEN, { ymCampaignId: 7 }))));
    await sleep(50);
    expect(server.openSockets()).toBe(3);
    const { ms } = await timed(client.close());
    expect(ms).toBeLessThan(MARGIN_MS);
    for (const { error } of await pending) expect(error).toMatchObject({ name: 'AbortedError', by: 'client-closed' });
    await sleep(20);
    expect(server.openSockets()).toBe(0);
    expect((await failure(client.get(TOKEN, { ymCampaignId: 7 }))).error).toMatchObject({ name: 'AbortedError', by: 'client-closed' });
  });
});

describe('errors of a failed call', () => {
  it('carry no frames of their own, and leave the stack limit of other errors as it was', async () => {
    const { client } = recordingClient(server.url, { maxAttempts: 1, attemptTimeoutMs: 100 });
    const limit = Error.stackTraceLimit;
    const errors: Error[] = [];
    for (const handler of [text(404, '{"status":"error","errors":{"campaignNotFound":"no such campaign"}}'), text(200, 'not json'), hang, reset, text(503, 'x')]) {
      server.respond(handler);
      errors.push((await failure(client.get(TOKEN, { ymCampaignId: 7 }))).error);
    }
    expect(errors.map((e) => e.constructor.name)).toEqual(['BusinessError', 'MalformedResponseError', 'TimeoutError', 'NetworkError', 'HttpStatusError']);
    for (const error of errors) expect(error.stack).toBe(`${error.name}: ${error.message}`);
    // What the socket said keeps its own stack, as its cause.
    expect(String((errors[3]!.cause as Error).stack)).toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('plain').stack).toMatch(/\n\s+at /);
  });
});

describe('the partner token', () => {
  it('never appears in error messages, even when the backend echoes it', async () => {
    const echo: Handler = (req, res) => {
      const auth = String(req.headers.authorization);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'error', errors: { code: 'incorrectData', message: `bad ${auth}`, fields: [{ field: 'x', message: auth }] } }));
    };
    const echoMalformed: Handler = (req, res) => res.end(`not json ${req.headers.authorization}`);
    const echoContract: Handler = (req, res) =>
      res.end(JSON.stringify({ status: 'success', result: { ymCampaignId: 7, campaignStatus: 3, echoed: req.headers.authorization } }));
    const { client } = recordingClient(server.url, { maxAttempts: 1, attemptTimeoutMs: 100 });
    const errors: Error[] = [];
    for (const handler of [echo, echoMalformed, echoContract, hang, reset, text(503, 'x')]) {
      server.respond(handler);
      errors.push((await failure(client.start(TOKEN, { ymCampaignId: 7 }))).error);
    }
    errors.push((await failure(recordingClient(await refusedUrl()).client.get(TOKEN, { ymCampaignId: 7 }))).error);
    expect(errors.map((e) => e.constructor.name)).toEqual([
      'BusinessError',
      'MalformedResponseError',
      'ContractError',
      'TimeoutError',
      'NetworkError',
      'HttpStatusError',
      'NetworkError',
    ]);
    for (const error of errors) {
      expect(`${error.message}\n${error.stack}\n${JSON.stringify(error)}`).not.toContain(TOKEN);
    }
    expect((errors[0] as BusinessError).detail).toBe('bad Bearer [redacted]');
  });

  it('leaves the stack of a failed call unformatted until it is read, then scrubbed', async () => {
    const echo: Handler = (req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'error', errors: { code: 'incorrectData', message: `bad ${String(req.headers.authorization)}` } }));
    };
    server.respond(echo);
    const { client } = recordingClient(server.url, { maxAttempts: 1 });
    const prepare = Error.prepareStackTrace;
    let formatted = 0;
    // What formats a stack: the source maps' hook in the service, V8's own here. Only the failed
    // call's errors are counted: another error's stack may be read meanwhile (a socket's, say).
    Error.prepareStackTrace = (error, sites) => {
      if (String(error).includes('bad Bearer')) formatted++;
      return `${String(error)}\n${sites.map((site) => `    at ${String(site)}`).join('\n')}`;
    };
    // Node 22 and later keep an error's stack behind an accessor until read; Node 20's V8 formats
    // it when its property is looked at, so there the stack is scrubbed at once instead.
    const lazyStacks = typeof Object.getOwnPropertyDescriptor(new Error('probe'), 'stack')?.get === 'function';
    try {
      const { error } = await failure(client.start(TOKEN, { ymCampaignId: 7 }));
      expect(formatted).toBe(lazyStacks ? 0 : 1);
      expect(error.stack).toMatch(/^BusinessError: .*bad Bearer \[redacted\]/);
      expect(error.stack).not.toContain(TOKEN);
      expect(formatted).toBe(1);
    } finally {
      Error.prepareStackTrace = prepare;
    }
  });

  it('refuses a token that cannot be an HTTP header value, without calling', async () => {
    const { client, last } = recordingClient(server.url);
    for (const token of ['', 'two\nlines', ' padded', 'ключ']) {
      const { error } = await failure(client.get(token, { ymCampaignId: 7 }));
      expect(error).toBeInstanceOf(UnauthenticatedError);
      expect(error.message).toBe('get: the partner token must be a non-empty string of printable ASCII characters; the call was not made');
      expect(last()).toMatchObject({ outcome: 'unauthenticated', attempts: 0 });
    }
    expect(server.seen).toHaveLength(0);
  });
});

describe('reporting', () => {
  it('reports every call once with its duration, and survives a throwing listener', async () => {
    server.respond(started());
    const reports: unknown[] = [];
    const client = createCampaignApiClient({
      baseUrl: server.url,
      onCall: (r) => {
        reports.push(r);
        throw new Error('listener bug');
      },
    });
    try {
      await expect(client.start(TOKEN, { ymCampaignId: 7 })).resolves.toMatchObject({ ymCampaignId: 7 });
      expect(reports).toEqual([{ operation: 'start', outcome: 'success', attempts: 1, durationMs: expect.any(Number) }]);
    } finally {
      await client.close();
    }
  });

  it('rejects a request that cannot be JSON with the TypeError, without calling or reporting', async () => {
    const { client, reports } = recordingClient(server.url);
    const request = { ymCampaignId: 10n } as unknown as { ymCampaignId: number };
    await expect(client.get(TOKEN, request)).rejects.toThrow(TypeError);
    expect(reports).toEqual([]);
    expect(server.seen).toHaveLength(0);
  });

  it('remembers when the backend last answered, success or business error, not outages', async () => {
    const { client } = recordingClient(server.url, { maxAttempts: 1 });
    expect(client.lastAnsweredAt()).toBeUndefined();
    server.respond(text(500, 'down'));
    await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    expect(client.lastAnsweredAt()).toBeUndefined();

    const before = Date.now();
    server.respond(json(404, { status: 'error', errors: { code: 'campaignNotFound', message: 'x' } }));
    await failure(client.get(TOKEN, { ymCampaignId: 7 }));
    const afterRefusal = client.lastAnsweredAt();
    expect(afterRefusal).toBeGreaterThanOrEqual(before);

    await sleep(5);
    server.respond(started());
    await client.start(TOKEN, { ymCampaignId: 7 });
    expect(client.lastAnsweredAt()).toBeGreaterThan(afterRefusal!);
  });
});

describe('options', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_CLIENT_OPTIONS).toEqual({
      connections: 256,
      attemptTimeoutMs: 3000,
      budgetMs: 8000,
      maxAttempts: 3,
      backoff: { initialMs: 100, maxMs: 1000 },
      breaker: { consecutiveFailures: 5, halfOpenAfterMs: 5000 },
      bulkhead: { maxConcurrent: 256, maxQueue: 10_000 },
      answerMemoBytes: 4 * 1024 * 1024,
    });
  });

  it('rejects bad options with a message naming the option and the value received', () => {
    expect(() => createCampaignApiClient({ baseUrl: 'ftp://x' })).toThrow(/baseUrl must be an absolute http:\/\/ or https:\/\/ URL.*\(received "ftp:\/\/x"\)/);
    expect(() => createCampaignApiClient({ baseUrl: 'http://x', attemptTimeoutMs: -1 })).toThrow(/attemptTimeoutMs .*\(received -1\)/);
    expect(() => createCampaignApiClient({ baseUrl: 'http://x', backoff: { initialMs: 50, maxMs: 10 } })).toThrow(/backoff initialMs must not exceed maxMs/);
    expect(() => createCampaignApiClient({ baseUrl: 'http://x', maxAttempts: 0 })).toThrow(/maxAttempts .*\(received 0\)/);
    expect(() => createCampaignApiClient({ baseUrl: 'http://x', answerMemoBytes: -1 })).toThrow(/answerMemoBytes .*\(received -1\)/);
  });
});
