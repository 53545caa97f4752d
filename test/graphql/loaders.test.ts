import { describe, expect, it } from 'vitest';
import { BusinessError } from '../../src/campaign-api/index.js';
import { createLoaders } from '../../src/partner/loaders.js';
import type { PartnerApi } from '../../src/partner/partner-api.js';

/**
 * The per-request loaders' fan-out: a page of loads made in one tick becomes one batch, each key
 * is fetched once, and no more than `concurrency` calls are in flight. The backend is a stand-in
 * that records concurrency; what is tested is how the loaders call it.
 */
function recordingPartner(delayMs = 5, admission: () => Promise<void> | undefined = () => undefined) {
  let inFlight = 0;
  let maxInFlight = 0;
  const requested: number[] = [];
  const get = async ({ ymCampaignId }: { ymCampaignId: number }) => {
    requested.push(ymCampaignId);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, delayMs));
    inFlight--;
    if (ymCampaignId === 404) throw new BusinessError('get', 'campaignNotFound', 'no such campaign');
    if (ymCampaignId === 500) throw new Error('boom');
    return { ymCampaignId } as never;
  };
  const partner = { get, info: get, admission } as unknown as PartnerApi;
  return { partner, requested, max: () => maxInFlight };
}

describe('loaders', () => {
  it('fan a page out with at most `concurrency` calls in flight, one call per unique key', async () => {
    const backend = recordingPartner();
    const loaders = createLoaders(backend.partner, 4);
    const ids = Array.from({ length: 60 }, (_, i) => (i % 30) + 1);
    const results = await Promise.all(ids.map((id) => loaders.details.load(id)));
    expect(results.map((r) => r?.ymCampaignId)).toEqual(ids);
    expect(backend.requested.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(backend.max()).toBe(4);
  });

  it('share the bound across loaders of one request', async () => {
    const backend = recordingPartner();
    const loaders = createLoaders(backend.partner, 3);
    await Promise.all([...[1, 2, 3, 4].map((id) => loaders.details.load(id)), ...[1, 2, 3, 4].map((id) => loaders.stats.load(id))]);
    expect(backend.requested).toHaveLength(8);
    expect(backend.max()).toBe(3);
  });

  it('load a campaign that does not exist as null, and fail only the key whose call failed', async () => {
    const backend = recordingPartner();
    const loaders = createLoaders(backend.partner, 8);
    const [found, missing, failed] = await Promise.allSettled([loaders.details.load(1), loaders.details.load(404), loaders.details.load(500)]);
    expect(found).toEqual({ status: 'fulfilled', value: { ymCampaignId: 1 } });
    expect(missing).toEqual({ status: 'fulfilled', value: null });
    expect(failed).toMatchObject({ status: 'rejected', reason: new Error('boom') });
  });

  it("wait once per batch for the request's place, calling nothing until it comes", async () => {
    let asked = 0;
    let admit!: () => void;
    const place = new Promise<void>((resolve) => (admit = resolve));
    const backend = recordingPartner(5, () => (asked++ === 0 ? place : undefined));
    const loaders = createLoaders(backend.partner, 8);
    const page = Promise.all([1, 2, 3, 4, 5].map((id) => loaders.details.load(id)));
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toBe(1);
    expect(backend.requested).toEqual([]);
    admit();
    expect((await page).map((r) => r?.ymCampaignId)).toEqual([1, 2, 3, 4, 5]);
    expect(backend.requested).toEqual([1, 2, 3, 4, 5]);
  });

  it('make the calls of a request that left the queue, so that each is refused as its own', async () => {
    const backend = recordingPartner(5, () => Promise.reject(new Error('left the admission queue')));
    const loaders = createLoaders(backend.partner, 8);
    const settled = await Promise.allSettled([1, 500].map((id) => loaders.details.load(id)));
    expect(backend.requested).toEqual([1, 500]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: { ymCampaignId: 1 } },
      { status: 'rejected', reason: new Error('boom') },
    ]);
  });

  it('refuse a concurrency that is not a positive integer', () => {
    expect(() => createLoaders(recordingPartner().partner, 0)).toThrow('concurrency must be a positive integer, got 0');
  });
});
