import { describe, expect, it } from 'vitest';
import type { ExpiringStore } from '../../src/bounded/index.js';
import { memoryNamespace } from '../../src/cache/store.js';
import type { CampaignApi } from '../../src/campaign-api/api.js';
import { localCoordination, type Coordination } from '../../src/cache/coordination.js';
import { createFeedCache } from '../../src/feed/cache.js';
import { feedStoreBounds, type PartnerFeed } from '../../src/feed/store.js';
import { keyedHashes } from '../../src/secrets/index.js';

/**
 * The order of a feed's rebuilds after writes, with the one thing Redis adds made explicit: a
 * rebuild notice takes time to go out and comes back late (also to the instance that sent it).
 * The backend is a stand-in holding which campaigns run; what is under test is the cache.
 */
function backend(started: Set<number>) {
  const row = (id: number) => ({ ymCampaignId: id, campaignStatus: started.has(id) ? 'started' : 'paused', categoryId: 1 });
  const ids = [1, 2, 3];
  return {
    getAllCampaigns: async () => ({ total: ids.length, campaigns: ids.map(row) }),
    get: async (_token: string, { ymCampaignId }: { ymCampaignId: number }) => row(ymCampaignId),
  } as unknown as CampaignApi;
}

/** Local coordination whose notices wait until released, then reach every listener, as Redis pub/sub does. */
function slowNotices(): Coordination & { held: number; release(): void } {
  const local = localCoordination();
  let gate: { promise: Promise<void>; open: () => void } | undefined;
  const hold = () => {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    return { promise, open };
  };
  gate = hold();
  const coordination = {
    ...local,
    held: 0,
    async publish(message: string) {
      coordination.held++;
      await gate!.promise;
      await local.publish(message);
    },
    release() {
      gate!.open();
      gate = hold();
    },
  };
  return coordination;
}

/** Waits until `done()` holds, for at most a second (then the assertions after it tell what went wrong). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 1000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A feed cache over this backend and coordination; every reading of the clock a millisecond later, so builds never share a timestamp. */
function feedCache(api: CampaignApi, coordination: Coordination, store: ExpiringStore<PartnerFeed> = memoryNamespace(feedStoreBounds(1000))) {
  let clock = 1_000_000;
  return createFeedCache({
    api,
    store,
    hashes: keyedHashes(),
    coordination,
    ttlMs: 30_000,
    maxStaleMs: 60_000,
    lockMs: 10_000,
    lockWaitMs: 10_000,
    maxCampaigns: 1000,
    concurrency: 4,
    now: () => clock++,
  });
}

describe('feed cache rebuilds after writes', () => {
  it('a write that comes while the previous rebuild is being announced gets its own rebuild, and a late notice of its own voids nothing', async () => {
    const started = new Set([1, 2, 3]);
    const coordination = slowNotices();
    const cache = feedCache(backend(started), coordination);
    const ids = async () => (await cache.read(['token'])).items.map((item) => item.id);
    expect(await ids()).toEqual([3, 2, 1]);

    started.delete(1); // stopCampaign(1) went through the BFF
    cache.invalidate('token');
    await until(() => coordination.held >= 1);
    started.add(1); // startCampaign(1), while the first rebuild's notice is still on its way
    cache.invalidate('token');
    coordination.release();
    await until(() => coordination.held >= 2);
    coordination.release();
    await cache.settled();

    expect(await ids()).toEqual([3, 2, 1]);
    expect(cache.stats().builds).toBe(3);
  });

  it('a late notice of its own rebuild does not void the rebuild a later write started', async () => {
    const started = new Set([1, 2, 3]);
    const local = localCoordination();
    // Notices leave at once but reach the listeners only when released, as over Redis.
    const late: string[] = [];
    const coordination: Coordination = { ...local, publish: async (message) => void late.push(message) };
    let hold: Promise<void> | undefined;
    let listing = 0;
    const api = backend(started);
    const slowList = api.getAllCampaigns.bind(api);
    api.getAllCampaigns = (async (...args: Parameters<CampaignApi['getAllCampaigns']>) => {
      listing++;
      await hold;
      return slowList(...args);
    }) as CampaignApi['getAllCampaigns'];
    const cache = feedCache(api, coordination);
    const ids = async () => (await cache.read(['token'])).items.map((item) => item.id);
    expect(await ids()).toEqual([3, 2, 1]);

    started.delete(1);
    cache.invalidate('token');
    await cache.settled();
    expect(late).toHaveLength(1);

    let open!: () => void;
    hold = new Promise<void>((resolve) => (open = resolve));
    started.add(1);
    cache.invalidate('token');
    await until(() => listing >= 3);
    // The first rebuild's notice arrives while the second rebuild reads the backend.
    for (const message of late.splice(0)) await local.publish(message);
    open();
    await cache.settled();

    expect(await ids()).toEqual([3, 2, 1]);
  });
});

/**
 * What the offer feed keeps for other requests and instances: the public fields an offer shows,
 * never a fee or the partner's own number for the campaign, in its own copy as in the shared store.
 */
const PRIVATE_FIELDS = ['campaignFee', 'campaignFeeMin', 'campaignFeeMax', 'feeType', 'feeCurrency', 'partnerCampaignId'];

const record = (id: number) => ({
  ymCampaignId: id,
  campaignStatus: 'started',
  campaignStart: '2026-01-01T00:00:00Z',
  campaignEnd: '2027-01-01T00:00:00Z',
  campaignType: 'promo',
  merchantDomain: 'shop.example.com',
  merchantLogoSvg: 'https://shop.example.com/logo.svg',
  merchantLogoPng: 'https://shop.example.com/logo.png',
  merchantName: 'Shop',
  backgroundColor: '#ffffff',
  fontColor: '#000000',
  description: 'A discount',
  conditions: 'Always',
  discountType: 'percent',
  discountAmount: '10',
  categoryId: 1,
  acceptUrl: 'https://shop.example.com/offer',
  campaignFee: '12.50',
  campaignFeeMin: '1.00',
  campaignFeeMax: '99.00',
  feeType: 'fix',
  feeCurrency: 643,
  partnerCampaignId: 777_001,
});

describe('the offer feed keeps', () => {
  it('no fee and no partner campaign number, in its copy and in the shared store', async () => {
    const api = {
      getAllCampaigns: async () => ({ total: 2, campaigns: [1, 2].map((id) => ({ ymCampaignId: id, campaignStatus: 'started', categoryId: 1 })) }),
      get: async (_token: string, { ymCampaignId }: { ymCampaignId: number }) => record(ymCampaignId),
    } as unknown as CampaignApi;
    const inner = memoryNamespace(feedStoreBounds(1000));
    const written: PartnerFeed[] = [];
    const store: ExpiringStore<PartnerFeed> = {
      get: (key) => inner.get(key),
      set(key, value, ttlMs) {
        written.push(value);
        return inner.set(key, value, ttlMs);
      },
      delete: (key) => inner.delete(key),
    };
    const feed = feedCache(api, localCoordination(), store);
    const view = await feed.read(['partner-token']);
    await feed.settled();
    expect(view.items.map((item) => item.id)).toEqual([2, 1]);
    expect(view.items[0]!.record).toMatchObject({ merchantName: 'Shop', discountAmount: '10', acceptUrl: 'https://shop.example.com/offer' });
    expect(written).toHaveLength(1);
    for (const kept of [JSON.stringify(view.items), JSON.stringify(written)]) {
      for (const field of PRIVATE_FIELDS) expect(kept).not.toContain(`"${field}"`);
      expect(kept).not.toContain('777001');
    }
  });
});
