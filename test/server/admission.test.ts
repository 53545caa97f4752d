import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { Admission } from '../../src/server/admission.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid } from '../helpers/ids.js';

/** An admission held at `places`, as under a saturated event loop (utilisation always 1). */
const saturated = (places: number) => new Admission({ min: places, max: places, intervalMs: 0, busyAbove: 0.9, idleBelow: 0.5 }, () => 1);

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('admission of requests to backend work', () => {
  it('with one place, a second request waits without calling the backend, a cached read does not wait, and a waiter that goes away leaves the queue', async () => {
    const admission = saturated(1);
    stack = await startStack({ admission, env: { REQUEST_TIMEOUT_MS: '8000', BACKEND_ATTEMPT_TIMEOUT_MS: '600', BACKEND_BUDGET_MS: '6000' } });
    const s = stack;
    expect((await s.gql('{ categories { id } }')).status).toBe(200); // the directory is now cached
    await s.admin('faults', { mode: 'hang', operation: 'campaigns/get' });
    await s.resetCalls();

    const first = s.gql('{ campaign(id: "1") { id card { title } } }');
    await until(() => admission.active === 1, 'the first request holds the place');
    const leaving = new AbortController();
    const second = fetch(s.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
      body: JSON.stringify({ query: '{ campaign(id: "2") { id } }' }),
      signal: leaving.signal,
    }).catch((error: unknown) => error);
    await until(() => admission.waiting === 1, 'the second request waits');

    // A read answered from the BFF's cache makes no backend call, so it never waits.
    const cached = await s.gql('{ categories { id } }');
    expect(cached.status).toBe(200);
    expect(cached.body.errors).toBeUndefined();
    expect((await s.calls())['campaigns/get']).toBe(1);

    const metrics = await (await fetch(s.metricsUrl)).text();
    expect(metrics).toMatch(/^bff_admission_limit 1$/m);
    expect(metrics).toMatch(/^bff_admission_active 1$/m);
    expect(metrics).toMatch(/^bff_admission_waiting 1$/m);

    leaving.abort();
    expect(await second).toBeInstanceOf(Error);
    await until(() => admission.waiting === 0, 'the request that went away has left the queue');
    expect((await s.calls())['campaigns/get']).toBe(1);

    await s.admin('faults', undefined, 'DELETE');
    const answered = await first; // its attempt timed out and the retry got the answer
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ campaign: { id: cid(1) } });
    await until(() => admission.active === 0, 'the place is given back');
    expect((await s.gql('{ campaign(id: "1") { id } }')).body.data).toMatchObject({ campaign: { id: cid(1) } });
  });

  it('a request whose token the campaign API refused moments ago answers at once, without queueing for a place', async () => {
    const admission = saturated(1);
    stack = await startStack({ admission, env: { REQUEST_TIMEOUT_MS: '8000', BACKEND_ATTEMPT_TIMEOUT_MS: '600', BACKEND_BUDGET_MS: '6000' } });
    const s = stack;
    const byIds = 'query ($ids: [ID!]!) { campaignsByIds(ids: $ids) { id } }';
    const ids = ['1', '2', '3'];
    // The campaign API refuses the token once; the process remembers it.
    const learnt = await s.gql(byIds, { ids }, 'a-token-the-api-refuses');
    expect(learnt.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    await s.admin('faults', { mode: 'hang', operation: 'campaigns/get' });
    await s.resetCalls();
    const holding = s.gql('{ campaign(id: "1") { id } }');
    await until(() => admission.active === 1, 'a partner request holds the only place');

    let waited = 0;
    const watch = setInterval(() => (waited = Math.max(waited, admission.waiting)), 1);
    try {
      const refused = await s.gql(byIds, { ids }, 'a-token-the-api-refuses');
      expect(refused.status).toBe(200);
      expect(refused.body.data).toEqual({ campaignsByIds: null });
      expect(refused.body.errors).toHaveLength(1);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    } finally {
      clearInterval(watch);
    }
    expect(waited).toBe(0);
    expect(admission.active).toBe(1);
    expect(await s.calls()).toEqual({ 'campaigns/get': 1 });

    await s.admin('faults', undefined, 'DELETE');
    expect((await holding).body.data).toMatchObject({ campaign: { id: cid(1) } });
  });

  it('with two places, twelve lists of cards at once all answer right, never more than two with backend work under way', async () => {
    const admission = saturated(2);
    stack = await startStack({ admission });
    const s = stack;
    // Each backend call takes a while, so requests overlap.
    await s.admin('faults', { mode: 'latency', latencyMs: 5 });
    let most = 0;
    let queued = 0;
    const watch = setInterval(() => {
      most = Math.max(most, admission.active);
      queued = Math.max(queued, admission.waiting);
    }, 1);
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => s.gql('{ campaigns(first: 10) { nodes { id card { title discountLabel } } } }')),
      );
      for (const { status, body } of answers) {
        expect(status).toBe(200);
        expect(body.errors).toBeUndefined();
        expect(body.data.campaigns.nodes.length).toBeGreaterThan(0);
      }
      expect(answers.every(({ body }) => JSON.stringify(body) === JSON.stringify(answers[0]!.body))).toBe(true);
    } finally {
      clearInterval(watch);
    }
    expect(most).toBe(2);
    expect(queued).toBeGreaterThan(0);
    expect(admission.active).toBe(0);
  });

  it('ADMISSION_CONTROL=false leaves every request to go at once, and reports no admission gauges', async () => {
    stack = await startStack({ env: { ADMISSION_CONTROL: 'false' } });
    expect((await stack.gql('{ campaigns(first: 3) { nodes { id card { title } } } }')).body.errors).toBeUndefined();
    const metrics = await (await fetch(stack.metricsUrl)).text();
    expect(metrics).not.toContain('bff_admission_');
  });

  it('is on by default, and its gauges say how many requests have backend work under way', async () => {
    stack = await startStack();
    expect((await stack.gql('{ campaigns(first: 3) { nodes { id } } }')).body.errors).toBeUndefined();
    const metrics = await (await fetch(stack.metricsUrl)).text();
    // The limit itself follows this test process's own event loop, so only its range is known.
    const limit = Number(/^bff_admission_limit (\d+)$/m.exec(metrics)?.[1]);
    expect(limit).toBeGreaterThanOrEqual(8);
    expect(limit).toBeLessThanOrEqual(1024);
    expect(metrics).toMatch(/^bff_admission_active 0$/m);
    expect(metrics).toMatch(/^bff_admission_waiting 0$/m);
  });
});
