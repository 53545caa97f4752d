import { GraphQLError } from 'graphql';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAULT_MODES, type FaultMode } from '../../src/emulator/faults.js';
import { describeCampaignApiError } from '../../src/campaigns/errors.js';
import { createErrorFormatter } from '../../src/graphql/errors.js';
import { createRequestRecorder } from '../../src/graphql/request-log.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { captureLogs } from '../helpers/log-capture.js';
import { startStack, type GqlResponse, type Stack } from '../helpers/stack.js';
import { CREATE, promoInput } from '../graphql/support.js';
import { expectNothingInternal, settle, trackUnhandledRejections } from './support.js';
import { cid } from '../helpers/ids.js';

/**
 * Every emulator fault mode against a query, a query that keeps its good fields, and each
 * mutation. The client's budgets come from the environment, as in production, kept short so the
 * whole matrix runs in seconds. test/graphql/errors.test.ts shows the codes one by one; this
 * table proves them for every pair, with call counts, timing and the server still serving.
 */
const ATTEMPT_TIMEOUT_MS = 250;
const BUDGET_MS = 1200;
const MAX_ATTEMPTS = 3;
/** Latency "beyond the timeout": the attempt gives up long before the emulator answers. */
const LATENCY_MS = 600;
const MARGIN_MS = 500;

const ENV = {
  BACKEND_ATTEMPT_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS),
  BACKEND_BUDGET_MS: String(BUDGET_MS),
  BACKEND_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
  BACKEND_BACKOFF_INITIAL_MS: '10',
  BACKEND_BACKOFF_MAX_MS: '20',
  // The matrix is about single requests; the breaker has its own suite below.
  BACKEND_BREAKER_FAILURES: '1000',
};

type Outcome =
  | { kind: 'unavailable'; code: 'BACKEND_UNAVAILABLE'; reason: string; retried: true }
  | { kind: 'bad'; code: 'BACKEND_BAD_RESPONSE'; reason: string; retried: boolean }
  | { kind: 'refused'; code: 'BACKEND_REJECTED'; userCode: 'INCORRECT_DATA'; retried: false }
  /** A 4xx without an envelope: this request's own refusal, never retried, no outage. */
  | { kind: 'refused4xx'; code: 'BACKEND_REFUSED'; httpStatus: number; userCode: 'UNKNOWN'; retried: false };

/** What each fault means to a caller; `retried` is whether an idempotent call tries again. */
const OUTCOMES: Record<FaultMode, Outcome> = {
  latency: { kind: 'unavailable', code: 'BACKEND_UNAVAILABLE', reason: 'timeout', retried: true },
  http500: { kind: 'unavailable', code: 'BACKEND_UNAVAILABLE', reason: 'http', retried: true },
  http4xx: { kind: 'refused4xx', code: 'BACKEND_REFUSED', httpStatus: 400, userCode: 'UNKNOWN', retried: false },
  reset: { kind: 'unavailable', code: 'BACKEND_UNAVAILABLE', reason: 'network', retried: true },
  hang: { kind: 'unavailable', code: 'BACKEND_UNAVAILABLE', reason: 'timeout', retried: true },
  malformed: { kind: 'bad', code: 'BACKEND_BAD_RESPONSE', reason: 'malformed', retried: true },
  contract: { kind: 'bad', code: 'BACKEND_BAD_RESPONSE', reason: 'contract', retried: false },
  error200: { kind: 'refused', code: 'BACKEND_REJECTED', userCode: 'INCORRECT_DATA', retried: false },
};

interface Target {
  name: string;
  /** The emulator operation the fault is put on; every other operation stays healthy. */
  operation: string;
  /** Reads and redeem are retried on backend failures; writes never are. */
  idempotent: boolean;
  /** Distinct calls of `operation` the request makes (each retried on its own). */
  calls: number;
  send(stack: Stack): Promise<GqlResponse<any>>;
  check(response: GqlResponse<any>, outcome: Outcome): void;
}

/** A top-level error for the whole root field: a thrown resolver error, payload null. */
function expectTopLevel(response: GqlResponse<any>, field: string, outcome: Outcome): void {
  expect(response.body.data).toBeNull();
  expect(response.body.errors).toHaveLength(1);
  const error = response.body.errors![0];
  expect(error.path).toEqual([field]);
  expect(error.extensions.code).toBe(outcome.code);
  expectDetail(error, outcome);
}

/** What a top-level error adds to its code: the backend's code, the HTTP status of a bare refusal, or why the backend failed. */
function expectDetail(error: any, outcome: Outcome): void {
  if (outcome.kind === 'refused') expect(error.extensions.backendCode).toBe('incorrectData');
  else if (outcome.kind === 'refused4xx') expect(error.extensions.httpStatus).toBe(outcome.httpStatus);
  else expect(error.extensions.reason).toBe(outcome.reason);
}

/** A write refused with a business error: payload data, no top-level error. */
function expectUserError(response: GqlResponse<any>, field: string): any {
  expect(response.body.errors).toBeUndefined();
  const payload = response.body.data[field];
  expect(payload.userErrors.map((e: { code: string }) => e.code)).toEqual(['INCORRECT_DATA']);
  return payload;
}

const MUTATION = (field: string, args: string, selection: string) => `mutation ($input: ${args}) { ${field}(input: $input) { ${selection} } }`;

const TARGETS: Target[] = [
  {
    name: 'query campaign(id)',
    operation: 'campaigns/get',
    idempotent: true,
    calls: 1,
    send: (s) => s.gql('{ campaign(id: "1") { id status card { title } } }'),
    check({ body }, outcome) {
      expect(body.data).toEqual({ campaign: null });
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0].path).toEqual(['campaign']);
      expect(body.errors![0].extensions.code).toBe(outcome.code);
      expectDetail(body.errors![0], outcome);
    },
  },
  {
    name: 'query with one failing field among good ones',
    operation: 'campaigns/info',
    idempotent: true,
    calls: 3,
    send: (s) =>
      s.gql(`{
        campaign(id: "1") { id type card { title } stats { shows } }
        campaigns(first: 3) { totalCount nodes { id status stats { shows } } }
        categories { id }
      }`),
    check({ body }, outcome) {
      expect(body.data.campaign).toEqual({ id: cid(1), type: 'CODE_ONLINE', card: { title: 'Техно Мир' }, stats: null });
      expect(body.data.campaigns.totalCount).toBe(8);
      expect(body.data.campaigns.nodes).toEqual([
        { id: cid(1), status: 'STARTED', stats: null },
        { id: cid(2), status: 'PAUSED', stats: null },
        { id: cid(3), status: 'STARTED', stats: null },
      ]);
      expect(body.data.categories).toHaveLength(12);
      const paths = body.errors!.map((e) => JSON.stringify(e.path)).sort();
      expect(paths).toEqual(
        [['campaign', 'stats'], ['campaigns', 'nodes', 0, 'stats'], ['campaigns', 'nodes', 1, 'stats'], ['campaigns', 'nodes', 2, 'stats']].map((p) => JSON.stringify(p)).sort(),
      );
      for (const error of body.errors!) expect(error.extensions.code).toBe(outcome.code);
    },
  },
  {
    name: 'createCampaign',
    operation: 'campaigns/create',
    idempotent: false,
    calls: 1,
    send: (s) => s.gql(CREATE, { input: promoInput(7001) }),
    check(response, outcome) {
      if (outcome.kind !== 'refused') return expectTopLevel(response, 'createCampaign', outcome);
      expect(expectUserError(response, 'createCampaign').campaign).toBeNull();
    },
  },
  {
    name: 'updateCampaign',
    operation: 'campaigns/update',
    idempotent: false,
    calls: 1,
    send: (s) =>
      s.gql(MUTATION('updateCampaign', 'UpdateCampaignInput!', 'campaign { id status } userErrors { field message code }'), {
        input: { id: '2', description: 'Новое описание акции' },
      }),
    check(response, outcome) {
      if (outcome.kind !== 'refused') return expectTopLevel(response, 'updateCampaign', outcome);
      expect(expectUserError(response, 'updateCampaign').campaign).toBeNull();
    },
  },
  {
    // The read of the campaign before the write: retried like any read; no write without it.
    name: 'updateCampaign (its read)',
    operation: 'campaigns/get',
    idempotent: true,
    calls: 1,
    send: (s) =>
      s.gql(MUTATION('updateCampaign', 'UpdateCampaignInput!', 'campaign { id status } userErrors { field message code }'), {
        input: { id: '2', description: 'Новое описание акции' },
      }),
    check: (response, outcome) => expectTopLevel(response, 'updateCampaign', outcome),
  },
  {
    name: 'startCampaign',
    operation: 'campaigns/start',
    idempotent: false,
    calls: 1,
    send: (s) => s.gql('mutation { startCampaign(id: "2") { campaign { id status } userErrors { field message code } } }'),
    check(response, outcome) {
      if (outcome.kind !== 'refused') return expectTopLevel(response, 'startCampaign', outcome);
      // Refused: the payload still tells the campaign's current status.
      expect(expectUserError(response, 'startCampaign').campaign).toEqual({ id: cid(2), status: 'PAUSED' });
    },
  },
  {
    name: 'stopCampaign',
    operation: 'campaigns/stop',
    idempotent: false,
    calls: 1,
    send: (s) => s.gql('mutation { stopCampaign(id: "3") { campaign { id status } userErrors { field message code } } }'),
    check(response, outcome) {
      if (outcome.kind !== 'refused') return expectTopLevel(response, 'stopCampaign', outcome);
      expect(expectUserError(response, 'stopCampaign').campaign).toEqual({ id: cid(3), status: 'STARTED' });
    },
  },
  {
    name: 'addPins (one chunk)',
    operation: 'campaigns/add-pins',
    idempotent: false,
    calls: 1,
    send: (s) =>
      s.gql(MUTATION('addPins', 'AddPinsInput!', 'campaign { id } addedCount storedCount notStoredPins firstNotStoredIndex userErrors { field message code }'), {
        input: { campaignId: '1', pins: ['FAULT-A', 'FAULT-B'] },
      }),
    check({ body }, outcome) {
      // A multi-step mutation reports an outage as payload data: what was stored, and what was not.
      expect(body.errors).toBeUndefined();
      const payload = body.data.addPins;
      expect(payload).toMatchObject({ campaign: { id: cid(1) }, addedCount: 0, storedCount: 0 });
      if (outcome.kind === 'refused') {
        expect(payload.userErrors.map((e: { code: string }) => e.code)).toEqual(['INCORRECT_DATA']);
        return;
      }
      expect(payload.notStoredPins).toEqual(['FAULT-A', 'FAULT-B']);
      expect(payload.firstNotStoredIndex).toBe(0);
      expect(payload.userErrors).toHaveLength(1);
      expect(payload.userErrors[0]).toMatchObject({ code: outcome.kind === 'refused4xx' ? outcome.userCode : outcome.code, field: ['input', 'pins'] });
    },
  },
  {
    name: 'reportLead',
    operation: 'campaigns/redeem',
    idempotent: true,
    calls: 1,
    send: (s) =>
      s.gql(MUTATION('reportLead', 'ReportLeadInput!', 'lead { transactionId state } userErrors { field message code }'), {
        input: { campaignId: '3', transactionId: 'fault-matrix-1', clickId: 'click-fault', campaignFee: '10.00' },
      }),
    check(response, outcome) {
      if (outcome.kind !== 'refused') return expectTopLevel(response, 'reportLead', outcome);
      expect(expectUserError(response, 'reportLead').lead).toBeNull();
    },
  },
];

const CASES = TARGETS.flatMap((target) => FAULT_MODES.map((mode) => ({ target, mode, label: `${target.name} × ${mode}` })));

/** Error-level log lines: a backend outage is expected and must not be logged as an unexpected error. */
const errorLog = () => captureLogs('error');

let stack: Stack;
const log = errorLog();
const rejections = trackUnhandledRejections();
beforeAll(async () => {
  stack = await startStack({ env: ENV, emulator: { moderation: { mode: 'manual' } }, logger: log.logger });
});
afterAll(async () => {
  rejections.stop();
  await stack?.close();
});

describe('fault matrix', () => {
  beforeEach(async () => {
    await stack.admin('reset', {});
    await stack.gql('{ categories { id } }'); // the directory is cached: only the target's calls count
    await stack.resetCalls();
  });
  afterEach(async () => {
    await stack.admin('faults', undefined, 'DELETE');
  });

  it('covers every fault mode the emulator has', () => {
    expect(CASES).toHaveLength(TARGETS.length * 8);
    expect([...FAULT_MODES].sort()).toEqual(['contract', 'error200', 'hang', 'http4xx', 'http500', 'latency', 'malformed', 'reset']);
  });

  it.each(CASES)('$label', async ({ target, mode }) => {
    const outcome = OUTCOMES[mode];
    await stack.admin('faults', { mode, operation: target.operation, ...(mode === 'latency' ? { latencyMs: LATENCY_MS } : {}) });

    const started = performance.now();
    // A plain timer of the budget, set with the request: timers fire late on a loaded machine,
    // the client's budget timer as late as this one, so the answer is held to it, not to the clock.
    const budgetTimer = new Promise<number>((resolve) => setTimeout(() => resolve(performance.now() - started), BUDGET_MS));
    const response = await target.send(stack);
    const elapsedMs = performance.now() - started;

    expect(response.status).toBe(200);
    target.check(response, outcome);
    expectNothingInternal(response.body);
    // How late that timer fired (waited for only when the answer took longer than budget + margin).
    const timerLateMs = elapsedMs < BUDGET_MS + MARGIN_MS ? 0 : Math.max(0, (await budgetTimer) - BUDGET_MS);
    expect(elapsedMs, 'answers within the configured budget').toBeLessThan(BUDGET_MS + timerLateMs + MARGIN_MS);

    // Writes are never repeated blindly; reads and redeem (idempotent) try MAX_ATTEMPTS times.
    const attempts = target.idempotent && outcome.retried ? MAX_ATTEMPTS : 1;
    expect((await stack.calls())[target.operation], 'calls of the faulted operation').toBe(target.calls * attempts);

    await settle();
    expect(rejections.list, 'unhandled rejections').toEqual([]);
    expect(log.lines, 'error-level log lines').toEqual([]);

    // Still serving: the same stack answers a healthy request once the fault is gone.
    await stack.admin('faults', undefined, 'DELETE');
    const after = await stack.gql('{ campaign(id: "1") { id status card { title } } }');
    expect(after.body).toEqual({ data: { campaign: { id: cid(1), status: 'STARTED', card: { title: 'Техно Мир' } } } });
  });
});

describe('the circuit breaker', () => {
  const BREAKER_ATTEMPT_MS = 400;
  const HALF_OPEN_MS = 600;
  let guarded: Stack;
  beforeAll(async () => {
    guarded = await startStack({
      env: {
        ...ENV,
        BACKEND_ATTEMPT_TIMEOUT_MS: String(BREAKER_ATTEMPT_MS),
        BACKEND_BUDGET_MS: '2000',
        BACKEND_BREAKER_FAILURES: '3',
        BACKEND_BREAKER_HALF_OPEN_MS: String(HALF_OPEN_MS),
      },
    });
    await guarded.gql('{ categories { id } }');
  });
  afterAll(() => guarded?.close());

  const QUERY = '{ campaign(id: "1") { id card { title } } }';
  const breakerState = async () => {
    const metrics = await (await fetch(guarded.metricsUrl)).text();
    return Number(/^bff_backend_breaker_state (\d)/m.exec(metrics)![1]);
  };

  it.each(['hang', 'http500'] as const)('opens under sustained %s failures, fails fast without calling, and closes after', async (mode) => {
    await guarded.resetCalls();
    await guarded.admin('faults', { mode, operation: 'campaigns/get' });

    // One request's three failed attempts are three consecutive failures: the breaker opens.
    const first = await guarded.gql(QUERY);
    expect(first.body.errors![0].extensions).toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    expect((await guarded.calls())['campaigns/get']).toBe(3);
    expect(await breakerState()).toBe(2);

    // While open: every request fails at once, without waiting for an attempt, and calls nothing.
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const { body } = await guarded.gql(QUERY);
      expect(performance.now() - started, 'a fast failure').toBeLessThan(BREAKER_ATTEMPT_MS);
      expect(body.data).toEqual({ campaign: null });
      expect(body.errors![0].extensions).toMatchObject({ code: 'BACKEND_UNAVAILABLE', reason: 'circuit-open' });
      expectNothingInternal(body);
    }
    expect((await guarded.calls())['campaigns/get'], '10 requests, no backend call').toBe(3);

    // Half-open with the backend still failing: one probe goes through, fails, and it opens again.
    await new Promise((r) => setTimeout(r, HALF_OPEN_MS + 50));
    // The gauge says so before any call: an instance that stops calling does not stay "open".
    expect(await breakerState()).toBe(1);
    const probes = await Promise.all([guarded.gql(QUERY), guarded.gql(QUERY), guarded.gql(QUERY)]);
    for (const { body } of probes) expect(body.errors![0].extensions.code).toBe('BACKEND_UNAVAILABLE');
    expect((await guarded.calls())['campaigns/get'], 'exactly one probe').toBe(4);
    expect(await breakerState()).toBe(2);

    // The backend recovers: after the wait the probe succeeds and the breaker closes.
    await guarded.admin('faults', undefined, 'DELETE');
    await new Promise((r) => setTimeout(r, HALF_OPEN_MS + 50));
    const healed = await guarded.gql(QUERY);
    expect(healed.body).toEqual({ data: { campaign: { id: cid(1), card: { title: 'Техно Мир' } } } });
    expect(await breakerState()).toBe(0);
    const again = await Promise.all(Array.from({ length: 5 }, () => guarded.gql('{ campaign(id: "2") { id card { title } } }')));
    for (const { body } of again) expect(body.errors).toBeUndefined();
    // 3 failed attempts, 1 failed probe, 1 successful probe, then 5 more.
    expect((await guarded.calls())['campaigns/get'], 'closed: requests reach the backend again').toBe(3 + 1 + 1 + 5);
    await settle();
    expect(rejections.list).toEqual([]);
  });
});

describe('a write the backend carried out but never answered', () => {
  it('is reported as unavailable once, and the emulator has it exactly once', async () => {
    await stack.admin('reset', {});
    await stack.resetCalls();
    await stack.admin('faults', { mode: 'reset', operation: 'campaigns/create', afterEffect: true });
    const { body } = await stack.gql(CREATE, { input: promoInput(7002) });
    expect(body.errors![0].extensions).toMatchObject({ code: 'BACKEND_UNAVAILABLE', reason: 'network' });
    expect((await stack.calls())['campaigns/create']).toBe(1);
    await stack.admin('faults', undefined, 'DELETE');
    const list = await stack.gql('{ campaigns(first: 100) { totalCount nodes { partnerCampaignId } } }');
    expect(list.body.data.campaigns.totalCount).toBe(9);
    expect(list.body.data.campaigns.nodes.filter((n: { partnerCampaignId: number }) => n.partnerCampaignId === 7002)).toHaveLength(1);
  });
});

describe('the error log', () => {
  it('still gets a line, with the cause, for an error that is truly unexpected', async () => {
    const { lines, logger } = errorLog();
    const { formatGraphQLError } = createErrorFormatter(describeCampaignApiError);
    const recorder = createRequestRecorder(createMetrics(), logger, { format: formatGraphQLError });
    // As graphql-js hands on a resolver's bug: located, with the bug as its original error.
    const located = new GraphQLError('a bug in a resolver', { originalError: new TypeError('a bug in a resolver'), path: ['broken'] });
    recorder.reportErrors({ requestId: 'r-1', backend: { calls: 0 } }, [located]);
    expect(formatGraphQLError(located).extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 50, msg: 'unexpected error', requestId: 'r-1', err: { message: 'a bug in a resolver' } });
  });
});
