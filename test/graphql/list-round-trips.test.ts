import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { EmulatorClient, campaignBody } from '../emulator/support.js';
import { newPartner } from './support.js';

/**
 * A list asks the campaign API for the page, then for every card on it. What a client waits for
 * is the number of round trips one after the other: with every backend call slowed down, the
 * calls arrive at the emulator in waves, one per round trip.
 */
const LATENCY_MS = 1000;

/** Arrival times grouped into waves: a gap of half the latency or more starts a new one. */
function waves(arrivals: number[]): number[] {
  const sorted = [...arrivals].sort((a, b) => a - b);
  const sizes: number[] = [];
  let last = -Infinity;
  for (const at of sorted) {
    if (at - last >= LATENCY_MS / 2) sizes.push(0);
    sizes[sizes.length - 1]!++;
    last = at;
  }
  return sizes;
}

describe('a list of the largest page size', () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startStack();
    token = await newPartner(stack, 'store');
    const emulator = new EmulatorClient(stack.emulatorUrl);
    for (let i = 0; i < 100; i++) await emulator.ok('create', campaignBody('promo', { partnerCampaignId: 5000 + i }), token);
  }, 120_000);
  afterAll(() => stack?.close());

  it('costs two round trips, as the hand-written REST fan-out does: the page, then every card at once', async () => {
    await stack.admin('faults', { mode: 'latency', latencyMs: LATENCY_MS });
    await stack.admin('requests', undefined, 'DELETE');
    const { body } = await stack.gql(`{ campaigns(first: 100) { nodes { card { title } } } }`, undefined, token);
    expect(body.errors).toBeUndefined();
    expect(body.data.campaigns.nodes).toHaveLength(100);
    const { requests } = await stack.admin('requests', undefined, 'GET');
    const arrivals = (requests as { operation: string; at: string }[]).map((r) => Date.parse(r.at));
    expect(waves(arrivals)).toEqual([1, 100]);
  }, 60_000);
});
