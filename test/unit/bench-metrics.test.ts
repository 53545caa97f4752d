import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { backendWorkUnderWayIn, feedBuildsIn } from '../../bench/lib/bff-metrics.js';
import { Admission } from '../../src/server/admission.js';
import { createMetrics } from '../../src/observability/metrics.js';

describe("the bench's reading of a BFF's /metrics", () => {
  it('counts the requests with backend work under way and those waiting for it, as admission reports them', async () => {
    const { registry } = createMetrics();
    const admission = new Admission({ min: 1, max: 1, intervalMs: 0, busyAbove: 0.9, idleBelow: 0.75 });
    admission.register(registry);
    expect(backendWorkUnderWayIn(await registry.metrics())).toBe(0);

    const signal = () => new AbortController().signal;
    const holding = admission.ticket(signal);
    await holding.wait();
    const waiting = admission.ticket(signal);
    const turn = waiting.wait();
    expect(backendWorkUnderWayIn(await registry.metrics())).toBe(2);

    holding.release();
    await turn;
    expect(backendWorkUnderWayIn(await registry.metrics())).toBe(1);
    waiting.release();
    expect(backendWorkUnderWayIn(await registry.metrics())).toBe(0);
    admission.close();
  });

  it('reads no backend work under way from a BFF without admission control', async () => {
    const { registry } = createMetrics();
    expect(backendWorkUnderWayIn(await registry.metrics())).toBe(0);
  });

  it('adds up the feed builds of every outcome', async () => {
    const registry = new Registry();
    const builds = new Counter({ name: 'bff_feed_builds_total', help: 'Feed builds.', labelNames: ['outcome'], registers: [registry] });
    expect(feedBuildsIn(await registry.metrics())).toBe(0);
    builds.inc({ outcome: 'ok' }, 3);
    builds.inc({ outcome: 'error' });
    expect(feedBuildsIn(await registry.metrics())).toBe(4);
  });
});
