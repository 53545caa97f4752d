import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBff, type RunningBff } from '../../src/server/bff.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { createCampaign, newPartner, promoInput } from './support.js';
import { cid } from '../helpers/ids.js';

/**
 * Cursors over real HTTP: they follow ids (a status change between pages neither skips nor
 * repeats a campaign), and they are bound to the partner, the connection and the filter.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
});
afterAll(() => stack?.close());
beforeEach(async () => {
  await stack.admin('reset', {});
  await stack.resetCalls();
});

const PAGE = `query ($first: Int, $after: String, $status: CampaignStatus) {
  campaigns(first: $first, after: $after, status: $status) {
    totalCount nodes { id status } edges { cursor } pageInfo { hasNextPage hasPreviousPage endCursor } } }`;
const PINS = `query ($id: ID!, $status: PinStatus!, $first: Int, $after: String) {
  campaign(id: $id) { pins(status: $status, first: $first, after: $after) { totalCount nodes { code } pageInfo { hasNextPage endCursor } } } }`;

const STOP = `mutation ($id: ID!) { stopCampaign(id: $id) { campaign { status } userErrors { code } } }`;
const START = `mutation ($id: ID!) { startCampaign(id: $id) { campaign { status } userErrors { code } } }`;

/** An aggregator with `count` live campaigns (an aggregator's campaign starts at upload). */
async function aggregatorWith(count: number): Promise<{ token: string; ids: string[] }> {
  const token = await newPartner(stack, 'aggregator');
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await createCampaign(stack, promoInput(9100 + i), token));
  return { token, ids };
}

async function page(token: string, variables: Record<string, unknown>) {
  const { body } = await stack.gql(PAGE, variables, token);
  expect(body.errors).toBeUndefined();
  return body.data.campaigns;
}

describe('campaigns(status) pages by id', () => {
  it('stopping a campaign already seen does not skip the next one', async () => {
    const { token, ids } = await aggregatorWith(6);
    const first = await page(token, { status: 'STARTED', first: 2 });
    expect(first.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(0, 2));

    const stopped = await stack.gql(STOP, { id: ids[0] }, token);
    expect(stopped.body.data.stopCampaign.campaign.status).toBe('PAUSED');

    const second = await page(token, { status: 'STARTED', first: 2, after: first.pageInfo.endCursor });
    expect(second.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(2, 4));
    expect(second.totalCount).toBe(5);
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it('a campaign starting before the cursor does not repeat one already seen', async () => {
    const { token, ids } = await aggregatorWith(5);
    await stack.gql(STOP, { id: ids[0] }, token);
    const first = await page(token, { status: 'STARTED', first: 2 });
    expect(first.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(1, 3));

    const started = await stack.gql(START, { id: ids[0] }, token);
    expect(started.body.data.startCampaign.campaign.status).toBe('STARTED');

    const second = await page(token, { status: 'STARTED', first: 2, after: first.pageInfo.endCursor });
    expect(second.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(3, 5));
    expect(second.pageInfo.hasNextPage).toBe(false);
  });

  it('an edge cursor resumes right after its campaign, and the last page says so', async () => {
    const { token, ids } = await aggregatorWith(4);
    const all = await page(token, { status: 'STARTED', first: 4 });
    const after = all.edges[1].cursor;
    await stack.gql(STOP, { id: ids[1] }, token); // the campaign the cursor points at leaves the filter
    const rest = await page(token, { status: 'STARTED', first: 10, after });
    expect(rest.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(2));
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('without a filter, a page after a cursor is still one backend call', async () => {
    const first = await page(DEMO_TOKENS.store, { first: 3 });
    await stack.resetCalls();
    const second = await page(DEMO_TOKENS.store, { first: 3, after: first.pageInfo.endCursor });
    expect(second.nodes.map((n: { id: string }) => n.id)).toEqual([4, 5, 6].map(cid));
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 1 });
  });
});

describe('cursors are bound to the partner, the connection and the filter', () => {
  async function refused(query: string, variables: Record<string, unknown>, token: string = DEMO_TOKENS.store) {
    await stack.resetCalls();
    const { body } = await stack.gql(query, variables, token);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'after' } });
    expect(body.errors![0].message).toMatch(/^Argument "after" is a cursor of another list/);
    return body;
  }

  it('a cursor of a filtered page is refused without the filter, with another filter, and for another partner', async () => {
    const filtered = await page(DEMO_TOKENS.store, { status: 'STARTED', first: 1 });
    const after = filtered.pageInfo.endCursor;

    const body = await refused(PAGE, { first: 1, after });
    expect(body.data).toEqual({ campaigns: null });
    expect(await stack.calls()).toEqual({}); // refused before any backend call
    await refused(PAGE, { status: 'PAUSED', first: 1, after });
    await refused(PAGE, { status: 'STARTED', first: 1, after }, DEMO_TOKENS.aggregator);

    const plain = await page(DEMO_TOKENS.store, { first: 1 });
    await refused(PAGE, { status: 'STARTED', first: 1, after: plain.pageInfo.endCursor });
    await refused(PAGE, { first: 1, after: plain.pageInfo.endCursor }, DEMO_TOKENS.aggregator);
    // With its own list, it works.
    const next = await page(DEMO_TOKENS.store, { status: 'STARTED', first: 1, after });
    expect(next.nodes).toEqual([{ id: cid(3), status: 'STARTED' }]);
  });

  it('a pins cursor is refused for another status, another campaign, and as a campaigns cursor', async () => {
    const { body } = await stack.gql(PINS, { id: '1', status: 'NEW_UNUSED', first: 2 });
    const after = body.data.campaign.pins.pageInfo.endCursor;
    await refused(PINS, { id: '1', status: 'ACCEPTED_BY_USER', first: 2, after });
    await refused(PINS, { id: '6', status: 'NEW_UNUSED', first: 2, after });
    await refused(PAGE, { first: 2, after });
    const campaignsCursor = (await page(DEMO_TOKENS.store, { first: 1 })).pageInfo.endCursor;
    await refused(PINS, { id: '1', status: 'NEW_UNUSED', first: 2, after: campaignsCursor });
  });

  it('a cursor holds neither the token nor its plain hash, and cannot be edited', async () => {
    const { edges } = await page(DEMO_TOKENS.store, { first: 3 });
    const hash = createHash('sha256').update(DEMO_TOKENS.store);
    const [hex, b64] = [hash.copy().digest('hex'), hash.digest('base64url')];
    for (const { cursor } of edges) {
      const text = Buffer.from(cursor, 'base64url').toString('utf8');
      for (const secret of [DEMO_TOKENS.store, hex, b64]) {
        expect(cursor).not.toContain(secret);
        expect(text).not.toContain(secret);
      }
    }
    // Pointing a genuine cursor at another campaign breaks its tag.
    const text = Buffer.from(edges[0].cursor, 'base64url').toString('utf8');
    const forged = Buffer.from(text.replace(/^v1:1@0:/, 'v1:5@4:'), 'utf8').toString('base64url');
    expect(forged).not.toBe(edges[0].cursor);
    await refused(PAGE, { first: 1, after: forged });
  });

  it('another instance of the fleet (the same CURSOR_SECRET) reads the cursors of this one; without it, none does', async () => {
    const fleet = { ...stack.config, cursorSecret: 's'.repeat(32) };
    const [one, two, alone]: RunningBff[] = await Promise.all([
      startBff(fleet, { campaignApiUrl: stack.emulatorUrl, fallbackToken: null }),
      startBff(fleet, { campaignApiUrl: stack.emulatorUrl, fallbackToken: null }),
      startBff(stack.config, { campaignApiUrl: stack.emulatorUrl, fallbackToken: null }),
    ]);
    const ask = (url: string, variables: Record<string, unknown>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
        body: JSON.stringify({ query: PAGE, variables }),
      }).then((r) => r.json() as Promise<any>);
    try {
      const first = await ask(one!.url, { status: 'STARTED', first: 1 });
      const body = await ask(two!.url, { status: 'STARTED', first: 1, after: first.data.campaigns.pageInfo.endCursor });
      expect(body.errors).toBeUndefined();
      expect(body.data.campaigns.nodes).toEqual([{ id: cid(3), status: 'STARTED' }]);
      // Without the secret a cursor is bound to the partner by a keyed hash of the process's own.
      const own = await page(DEMO_TOKENS.store, { status: 'STARTED', first: 1 });
      const elsewhere = await ask(alone!.url, { status: 'STARTED', first: 1, after: own.pageInfo.endCursor });
      expect(elsewhere.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'after' } });
    } finally {
      await Promise.all([one, two, alone].map((b) => b!.close()));
    }
  });

  it('an instance with another CURSOR_SECRET refuses them (a fleet shares one secret)', async () => {
    const keyed: RunningBff = await startBff({ ...stack.config, cursorSecret: 'k'.repeat(32) }, { campaignApiUrl: stack.emulatorUrl, fallbackToken: null });
    try {
      const ask = (after?: string) =>
        fetch(keyed.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
          body: JSON.stringify({ query: PAGE, variables: { first: 1, ...(after ? { after } : {}) } }),
        }).then((r) => r.json() as Promise<any>);
      const foreign = await ask((await page(DEMO_TOKENS.store, { first: 1 })).pageInfo.endCursor);
      expect(foreign.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'after' } });
      const own = await ask((await ask()).data.campaigns.pageInfo.endCursor);
      expect(own.data.campaigns.nodes).toEqual([{ id: cid(2), status: 'PAUSED' }]);
    } finally {
      await keyed.close();
    }
  });

  it('a malformed cursor is refused with the value, cut at 40 characters', async () => {
    const { body } = await stack.gql(PAGE, { first: 1, after: 'x'.repeat(50) });
    expect(body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'after' } });
    expect(body.errors![0].message).toContain(`got "${'x'.repeat(40)}…"`);
  });
});

describe('Campaign.pins pages by code', () => {
  it('a code handed out between pages does not skip the next one', async () => {
    const first = await stack.gql(PINS, { id: '1', status: 'NEW_UNUSED', first: 5 });
    const seen: string[] = first.body.data.campaign.pins.nodes.map((p: { code: string }) => p.code);
    // A user takes the oldest unused code: one of the page already read.
    const taken = await stack.admin('accept', { ymCampaignId: 1 });
    expect(seen).toContain(taken.pin);

    const second = await stack.gql(PINS, { id: '1', status: 'NEW_UNUSED', first: 20, after: first.body.data.campaign.pins.pageInfo.endCursor });
    expect(second.body.errors).toBeUndefined();
    const rest: string[] = second.body.data.campaign.pins.nodes.map((p: { code: string }) => p.code);
    expect(second.body.data.campaign.pins.totalCount).toBe(14);
    // Everything still unused, in order: nothing skipped, nothing repeated.
    expect([...seen.filter((code) => code !== taken.pin), ...rest]).toHaveLength(14);
    expect(new Set([...seen, ...rest]).size).toBe(15);
  });
});
