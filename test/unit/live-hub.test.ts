import { describe, expect, it } from 'vitest';
import type { CampaignApi } from '../../src/campaign-api/api.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMemoryBus } from '../../src/subscriptions/bus.js';
import { LiveStatus } from '../../src/subscriptions/hub.js';

type Page = { total: number; campaigns: { ymCampaignId: number; campaignStatus: string }[] };

/** A backend whose list reads answer when the test says so. */
function fakeApi() {
  const reads: ((page: Page) => void)[] = [];
  const api = {
    getAllCampaigns: () => new Promise<Page>((resolve) => reads.push(resolve)),
  } as unknown as CampaignApi;
  return { api, reads };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('live status hub', () => {
  it('delivers a mutation answered while the first read is still out, once that read is in', async () => {
    const { api, reads } = fakeApi();
    const live = new LiveStatus({ api, bus: createMemoryBus(), pollIntervalMs: 60_000, backoffMaxMs: 60_000, maxScan: 10_000, logger: createLogger('silent') });
    const watch = live.watch('token-a', null);
    await settle();
    expect(reads).toHaveLength(1);

    // The read went out before the mutation answered: it may hold the status from before it.
    live.published('token-a', 7, 'paused');
    reads[0]!({ total: 1, campaigns: [{ ymCampaignId: 7, campaignStatus: 'started' }] });
    const next = await watch.next();
    expect(next.value).toMatchObject({ id: 7, previousStatus: 'started', status: 'paused' });
    await live.close();
  });

  it('stops reading when the last watcher leaves, and ends every watcher on close', async () => {
    const { api, reads } = fakeApi();
    const live = new LiveStatus({ api, bus: createMemoryBus(), pollIntervalMs: 10, backoffMaxMs: 100, maxScan: 10_000, logger: createLogger('silent') });
    const a = live.watch('token-a', null);
    const b = live.watch('token-a', new Set([1]));
    const c = live.watch('token-b', null);
    expect(live.stats()).toMatchObject({ partners: 2, watches: 3 });
    await a.return();
    await b.return();
    expect(live.stats()).toMatchObject({ partners: 1, watches: 1 });
    const ended = c.next();
    await live.close();
    expect(await ended).toEqual({ value: undefined, done: true });
    expect(live.stats()).toMatchObject({ partners: 0, watches: 0 });
    void reads;
  });
});
