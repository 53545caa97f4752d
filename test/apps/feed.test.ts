import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { createCampaign, newPartner, oneOffInput, promoInput } from '../graphql/support.js';
import { app, DEMO_APP, FEED, partner, post, sleep, startedIds } from './support.js';
import { campaignOf, numberOf } from '../helpers/ids.js';
import { needs } from '../helpers/needs.js';

/**
 * One conformance suite for the offer feed, run on every variant: the in-memory and the Redis
 * cache, Apollo's pipeline and the compiled path. Real servers on port 0, a real redis-server.
 */
const variants = [
  { name: 'memory, Apollo path', redis: false, compiled: false },
  { name: 'memory, compiled path', redis: false, compiled: true },
  { name: 'Redis, Apollo path', redis: true, compiled: false },
  { name: 'Redis, compiled path', redis: true, compiled: true },
].filter((v) => !v.redis || needs('redis-server'));

const byIdDesc = (ids: string[]) => [...ids].sort((a, b) => numberOf(b) - numberOf(a));

describe.each(variants)('offerFeed ($name)', (variant) => {
  let redis: RunningRedis | undefined;
  let stack: Stack;
  let expected: string[];
  const env = (extra: Record<string, string> = {}) => ({
    COMPILED_OPERATIONS: String(variant.compiled),
    ...(redis ? { CACHE_URL: redis.url } : {}),
    ...extra,
  });
  const feed = (variables: Record<string, unknown> = {}, headers: Record<string, string> = app()) =>
    post(stack.bffUrl, { query: FEED, variables }, headers);

  beforeAll(async () => {
    if (variant.redis) redis = await startRedis();
    stack = await startStack({ env: env(), appKeys: DEMO_APP, emulator: { moderation: { mode: 'manual' } } });
    expected = byIdDesc([...(await startedIds(stack.bffUrl, DEMO_TOKENS.store)), ...(await startedIds(stack.bffUrl, DEMO_TOKENS.aggregator))]);
    expect(expected.length).toBeGreaterThan(2);
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.close();
  });

  it('500 simultaneous requests on a cold feed cause exactly one build', async () => {
    await stack.resetCalls();
    const answers = await Promise.all(Array.from({ length: 500 }, () => feed({ first: 100 })));
    for (const a of answers) expect(a.status).toBe(200);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    const calls = await stack.calls();
    // One build per partner: its list, and one record per running campaign.
    expect(calls['campaigns/get-all-campaigns']).toBe(2);
    expect(calls['campaigns/get']).toBe(expected.length);
    expect(stack.bff.apps.feed.stats().builds).toBe(2);
  });

  it("serves the running campaigns of the key's partners, merged newest first, with cards, categories and tabs", async () => {
    const { status, body } = await feed({ first: 100 });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const connection = body.data.offerFeed;
    expect(connection.totalCount).toBe(expected.length);
    expect(connection.nodes.map((n: { id: string }) => campaignOf(n.id))).toEqual(expected);
    // The card is the same CampaignCard the partner API answers.
    const first = connection.nodes[0];
    const reference = await post(
      stack.bffUrl,
      { query: `{ campaign(id: "${first.id}") { card { title discountLabel backgroundColor actionUrl } category { id name } } }` },
      partner(DEMO_TOKENS.aggregator),
    );
    const owner = reference.body.data.campaign ? reference : await post(stack.bffUrl, { query: `{ campaign(id: "${first.id}") { card { title discountLabel backgroundColor actionUrl } category { id name } } }` }, partner(DEMO_TOKENS.store));
    expect({ card: first.card, category: first.category }).toEqual(owner.body.data.campaign);
    const tabs = connection.categories.map((c: { category: { id: string }; offerCount: number }) => [c.category.id, c.offerCount]);
    const counted = new Map<string, number>();
    for (const n of connection.nodes) counted.set(n.category.id, (counted.get(n.category.id) ?? 0) + 1);
    expect(tabs).toEqual([...counted].sort((a, b) => Number(a[0]) - Number(b[0])));
  });

  it('pages with cursors and filters from the cached feed, at no backend call once warm', async () => {
    await feed();
    await stack.resetCalls();
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const { body } = await feed({ first: 2, after });
      expect(body.errors).toBeUndefined();
      const page = body.data.offerFeed;
      seen.push(...page.nodes.map((n: { id: string }) => campaignOf(n.id)));
      expect(page.edges.at(-1)?.cursor ?? null).toBe(page.pageInfo.endCursor);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(expected);

    const all = (await feed({ first: 100 })).body.data.offerFeed;
    const category = all.nodes[0].category.id;
    const inCategory = (await feed({ first: 100, categoryId: category })).body.data.offerFeed;
    expect(inCategory.nodes.map((n: { id: string }) => campaignOf(n.id))).toEqual(all.nodes.filter((n: any) => n.category.id === category).map((n: any) => campaignOf(n.id)));
    expect(inCategory.totalCount).toBe(inCategory.nodes.length);
    const mobile = (await feed({ first: 100, platform: 'MOBILE' })).body.data.offerFeed;
    expect(mobile.totalCount).toBeLessThanOrEqual(all.totalCount);

    // A flood of distinct variables: served from the one cached feed per partner.
    const flood = await Promise.all(
      Array.from({ length: 200 }, (_, i) => feed({ first: (i % 50) + 1, locale: ['ru-RU', 'en-US', 'de-DE', 'fr-FR'][i % 4], categoryId: String((i % 12) + 1) })),
    );
    for (const a of flood) expect(a.body.errors).toBeUndefined();
    expect(await stack.calls()).toEqual({});
    if (redis) {
      const keys = await redisKeys(redis.port, '*:feed:v2:*');
      expect(keys).toBe(2);
    }
  });

  it("applies the feed's locale to discountLabel unless the card names its own", async () => {
    const query = `query ($locale: String) { offerFeed(first: 100, locale: $locale) { nodes { card { feed: discountLabel own: discountLabel(locale: "ru-RU") } } } }`;
    const en = (await post(stack.bffUrl, { query, variables: { locale: 'en-US' } }, app())).body.data.offerFeed.nodes;
    const ru = (await post(stack.bffUrl, { query, variables: {} }, app())).body.data.offerFeed.nodes;
    expect(en.map((n: any) => n.card.own)).toEqual(ru.map((n: any) => n.card.feed));
    expect(en.some((n: any) => n.card.feed !== n.card.own)).toBe(true);
  });

  it('refuses bad arguments with an error naming the argument, before any backend call', async () => {
    await feed();
    await stack.resetCalls();
    const other = (await feed({ first: 1, categoryId: '1' })).body.data.offerFeed.pageInfo.endCursor;
    const cases: [Record<string, unknown>, string][] = [
      [{ first: 101 }, 'first'],
      [{ first: -1 }, 'first'],
      [{ after: 'bm90LWEtY3Vyc29y' }, 'after'],
      [{ after: other }, 'after'],
      [{ categoryId: 'abc' }, 'categoryId'],
      [{ locale: 'not a locale!!' }, 'locale'],
    ];
    for (const [variables, argument] of cases) {
      const { body } = await feed(variables);
      expect({ variables, code: body.errors?.[0]?.extensions?.code, argument: body.errors?.[0]?.extensions?.argument }).toEqual({ variables, code: 'BAD_USER_INPUT', argument });
      expect(body.errors[0].message).toContain(`"${argument}"`);
    }
    expect(await stack.calls()).toEqual({});
  });

  it('a partner token reads its own feed; no token is UNAUTHENTICATED', async () => {
    const own = await feed({ first: 100 }, partner(DEMO_TOKENS.store));
    expect(own.body.data.offerFeed.nodes.map((n: { id: string }) => campaignOf(n.id))).toEqual(byIdDesc(await startedIds(stack.bffUrl, DEMO_TOKENS.store)));
    expect(own.headers['cache-control']).toBe('private, no-store');
    const none = await feed({}, {});
    expect(none.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('a stopCampaign or startCampaign through the BFF changes the feed at once', async () => {
    const before = (await feed({ first: 100 })).body.data.offerFeed.nodes.map((n: { id: string }) => campaignOf(n.id));
    const storeIds = await startedIds(stack.bffUrl, DEMO_TOKENS.store);
    const target = storeIds[0]!;
    expect(before).toContain(target);
    const stop = await post(stack.bffUrl, { query: `mutation { stopCampaign(id: "${target}") { campaign { status } userErrors { code } } }` }, partner(DEMO_TOKENS.store));
    expect(stop.body.data.stopCampaign).toEqual({ campaign: { status: 'PAUSED' }, userErrors: [] });
    const after = (await feed({ first: 100 })).body.data.offerFeed.nodes.map((n: { id: string }) => campaignOf(n.id));
    expect(after).toEqual(before.filter((id: string) => id !== target));
    const start = await post(stack.bffUrl, { query: `mutation { startCampaign(id: "${target}") { campaign { status } } }` }, partner(DEMO_TOKENS.store));
    expect(start.body.data.startCampaign.campaign.status).toBe('STARTED');
    expect((await feed({ first: 100 })).body.data.offerFeed.nodes.map((n: { id: string }) => campaignOf(n.id))).toEqual(before);
  });

  it('a write by a partner whose feed nobody reads costs no feed build', async () => {
    const token = await newPartner(stack, 'aggregator');
    await stack.resetCalls();
    await createCampaign(stack, promoInput(4242), token);
    await stack.bff.apps.feed.settled();
    // The category directory checks the new partner's token once (createCampaign reads it).
    expect(await stack.calls()).toEqual({ 'categories/get': 1, 'campaigns/create': 1 });
    // Once an app reads it, the next write rebuilds it at once.
    const feedOf = async () => (await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, partner(token))).body.data.offerFeed.totalCount;
    expect(await feedOf()).toBe(1);
    await createCampaign(stack, promoInput(4243), token);
    expect(await feedOf()).toBe(2);
  });

  it('an addPins that starts a waiting campaign puts it in the feed at once', async () => {
    const token = await newPartner(stack, 'aggregator');
    const id = await createCampaign(stack, oneOffInput(5151), token);
    const feedOf = async () => (await post(stack.bffUrl, { query: FEED, variables: { first: 100 } }, partner(token))).body.data.offerFeed.nodes.map((n: { id: string }) => campaignOf(n.id));
    expect(await feedOf()).toEqual([]); // PIN_REQUIRED: no code to hand out yet
    const added = await post(stack.bffUrl, { query: `mutation { addPins(input: {campaignId: "${id}", pins: ["FEED-1", "FEED-2"]}) { campaign { status } userErrors { code } } }` }, partner(token));
    expect(added.body.data.addPins).toEqual({ campaign: { status: 'STARTED' }, userErrors: [] });
    expect(await feedOf()).toEqual([id]);
  });

  it('when the backend fails, serves the last good feed marked stale; with no feed at all, an error', async () => {
    // Its own emulator: the main stack's feeds in the shared Redis must not stand in for its own.
    if (redis) await redisCommand(redis.port, (client) => client.flushAll());
    const short = await startStack({
      env: env({ FEED_TTL_MS: '1000', BACKEND_MAX_ATTEMPTS: '1' }),
      appKeys: DEMO_APP,
      emulator: { moderation: { mode: 'manual' } },
    });
    try {
      const lonely = await newPartner(short, 'store');
      const good = await post(short.bffUrl, { query: FEED, variables: { first: 100 } }, app());
      expect(good.body.extensions).toBeUndefined();
      await short.admin('faults', { mode: 'http500' });
      await sleep(1100);
      // Past its window the feed is served at once while a rebuild runs; once that failed, it
      // is served marked stale.
      const during = await post(short.bffUrl, { query: FEED, variables: { first: 100 } }, app());
      expect(during.body.data).toEqual(good.body.data);
      await short.bff.apps.feed.settled();
      for (let i = 0; i < 3; i++) {
        const stale = await post(short.bffUrl, { query: FEED, variables: { first: 100 } }, app());
        expect(stale.status).toBe(200);
        expect(stale.body.data).toEqual(good.body.data);
        expect(stale.body.extensions.feed).toEqual({ stale: true, builtAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
        expect(stale.headers['cache-control']).toBe('no-store');
        await sleep(50);
      }
      const none = await post(short.bffUrl, { query: FEED }, partner(lonely));
      // offerFeed is nullable: with no feed at all it is null with its error, the rest of a query still answers.
      expect(none.body.data).toEqual({ offerFeed: null });
      expect(none.body.errors[0].extensions.code).toBe('BACKEND_UNAVAILABLE');
    } finally {
      await short.close();
    }
  });
});

async function redisCommand<T>(port: number, run: (client: any) => Promise<T>): Promise<T> {
  const { createClient } = await import('@keyv/redis');
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

/** How many keys of the shared Redis match. */
const redisKeys = (port: number, pattern: string) => redisCommand(port, async (client) => (await client.keys(pattern)).length as number);
