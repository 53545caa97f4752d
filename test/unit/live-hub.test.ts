import { memoryNamespace } from '../../src/cache/store.js';
import { describe, expect, it } from 'vitest';
import { createCategoryDirectory } from '../../src/categories/directory.js';
import { TokenVerdicts } from '../../src/cache/token-verdicts.js';
import type { CampaignApi } from '../../src/campaign-api/api.js';
import { UnauthenticatedError } from '../../src/campaign-api/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMemoryBus } from '../../src/subscriptions/bus.js';
import { LiveStatus } from '../../src/subscriptions/hub.js';
import { createTokenCheck } from '../../src/campaigns/token-check.js';

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

  it('shares the token check with the category directory: a token either saw is known to the other, one call between them', async () => {
    const accepted = new Set(['token-a', 'token-b', 'token-c']);
    const calls: string[] = [];
    const answer = <T>(operation: string, token: string, value: T): Promise<T> => {
      calls.push(`${operation} ${token}`);
      return new Promise((resolve, reject) => setImmediate(() => (accepted.has(token) ? resolve(value) : reject(new UnauthenticatedError(operation as never, 401)))));
    };
    const api = {
      getAllCampaigns: (token: string) => answer('getAllCampaigns', token, { total: 0, campaigns: [] }),
      getCategories: (token: string) => answer('getCategories', token, { categories: [{ categoryId: 1, categoryName: 'Продукты' }] }),
    } as unknown as CampaignApi;
    const verdicts = new TokenVerdicts({ acceptedForMs: 60_000, refusedForMs: 5000, maxEntries: 100 });
    const live = new LiveStatus({ api, bus: createMemoryBus(), pollIntervalMs: 60_000, backoffMaxMs: 60_000, maxScan: 10_000, logger: createLogger('silent'), verdicts });
    const directory = createCategoryDirectory({ api, store: memoryNamespace({ maxBytes: 1024 * 1024, maxEntryBytes: 1024 * 1024, sizeOf: () => 1 }), ttlMs: 60_000, verdicts });
    // The process's one token check (a stream's), on the same verdicts.
    const check = createTokenCheck(api, verdicts);
    const verify = async (token: string) => check(token);

    // Checked at once by both: one call, the directory's read.
    const [listed, verified] = await Promise.all([directory.list('token-a'), verify('token-a')]);
    expect([listed.length, verified]).toEqual([1, 'accepted']);
    expect(calls).toEqual(['getCategories token-a']);

    // A connection's check first: the directory serves its warm copy with no call.
    expect(await verify('token-b')).toBe('accepted');
    expect(directory.accepts('token-b')).toBe(true);
    expect(await directory.list('token-b')).toHaveLength(1);
    expect(calls).toEqual(['getCategories token-a', 'getAllCampaigns token-b']);

    // Refused by one, refused by the other with no call.
    expect(await verify('wrong-token')).toBe('refused');
    await expect(directory.list('wrong-token')).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(directory.list('unknown-token')).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(await verify('unknown-token')).toBe('refused');
    expect(calls).toEqual(['getCategories token-a', 'getAllCampaigns token-b', 'getAllCampaigns wrong-token', 'getCategories unknown-token']);

    // A reader's poll is a check too; its refusal (a revoked token) reaches the directory at once.
    const watch = live.watch('token-c', null);
    await settle();
    expect(directory.accepts('token-c')).toBe(true);
    accepted.delete('token-a');
    const revoked = live.watch('token-a', null);
    expect(await revoked.next()).toMatchObject({ value: { failure: { extensions: { code: 'UNAUTHENTICATED' } } } });
    await expect(directory.list('token-a')).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(await verify('token-a')).toBe('refused');
    expect(calls.filter((call) => call.startsWith('getCategories'))).toEqual(['getCategories token-a', 'getCategories unknown-token']);
    await watch.return();
    await live.close();
  });
});

