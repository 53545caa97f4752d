import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBystander, type Bystander } from './bystander.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { BYSTANDER_TOKEN, measure, sha256, startTarget, type Footprint, type Mode, type Target } from './harness.js';
import { CALLERS, INPUTS, floodText, type Caller, type HostileInput } from './inputs.js';
import { attack, codesSeen, heaviest, problemsOf, type Sent } from './matrix.js';
import { bodyOf, http } from './transports.js';

/**
 * The attack suite for one mode of the built entry: every hostile input over every transport as
 * every caller (inputs.ts), while bystanders work (bystander.ts), each case measured by the BFF's
 * own metrics. What must hold:
 * - each answer is a coded refusal with no data (or, where a partner may run the request, its
 *   answer), short, at a couple of backend calls at most, without holding the event loop
 *   (matrix.ts);
 * - over each case, the heap the process keeps after a full collection grows little, its resident
 *   memory stays within reach, the breaker stays closed and every bystander request is answered.
 * The bounds are far above what a healthy process shows, and below what keeping what a hostile
 * client sends, or reading it whole, costs.
 */

const MB = 1024 * 1024;
/** Heap kept after a full collection, per case: a flood of texts kept whole would be several times this. */
export const HEAP_KEPT_MAX_BYTES = 32 * MB;
/**
 * Resident memory gained in a case, at its peak: a partner's flood of megabyte documents, each
 * read, parsed and let go, comes within reach of it (the collector is in no hurry); megabytes of
 * JSON read whole into objects take several times it.
 */
export const RSS_GAINED_MAX_BYTES = 128 * MB;

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** What was wrong with a case's footprint and the bystanders meanwhile, one line each. */
function footprintProblems(input: HostileInput, footprint: Footprint, bystander: Bystander, since: number): string[] {
  const problems: string[] = [];
  const where = `${input.name} |`;
  const kept = footprint.after.heapUsedBytes - footprint.before.heapUsedBytes;
  if (kept > HEAP_KEPT_MAX_BYTES) problems.push(`${where} the heap kept ${mb(kept)} more after a full collection (at most ${mb(HEAP_KEPT_MAX_BYTES)})`);
  const gained = footprint.rssPeakBytes - footprint.before.rssBytes;
  if (gained > RSS_GAINED_MAX_BYTES) problems.push(`${where} resident memory grew ${mb(gained)} (at most ${mb(RSS_GAINED_MAX_BYTES)})`);
  for (const d of bystander.degraded.filter((d) => d.at >= since)) problems.push(`${where} the bystander ${d.who} was degraded: ${d.what}`);
  return problems;
}

export interface SuiteOptions {
  /** The callers to send as (every one unless said): a mode where some are treated as in another repeats nothing by sending as them again. */
  callers?: (caller: Caller) => boolean;
}

export function attackSuite(mode: Mode, options: SuiteOptions = {}): void {
  const keep = options.callers ?? (() => true);
  const inputs = INPUTS.map((input) => ({ ...input, callers: (input.callers ?? CALLERS).filter(keep) })).filter((input) => input.callers.length > 0);
  let target: Target;
  let bystander: Bystander;
  const floods: Sent[] = [];

  beforeAll(async () => {
    target = await startTarget(mode);
    bystander = await startBystander(target);
  }, 60_000);
  afterAll(async () => {
    await bystander?.stop();
    await target?.stop();
  });

  it.each(inputs.map((input) => ({ name: input.name, input })))('$name', { timeout: 120_000 }, async ({ input }) => {
    const since = Date.now();
    const { result: sent, footprint } = await measure(target, (probe) => attack(target, input, probe));
    if (input.name.startsWith('a persisted-query flood')) floods.push(...sent);
    const problems = [...problemsOf(target, input, sent), ...footprintProblems(input, footprint, bystander, since)];
    const record = {
      lagMaxMs: Math.round(footprint.eventLoopLagMaxMs),
      heapKept: mb(footprint.after.heapUsedBytes - footprint.before.heapUsedBytes),
      rssGained: mb(footprint.rssPeakBytes - footprint.before.rssBytes),
      calls: sent.reduce((sum, s) => sum + s.calls, 0),
      heaviest: heaviest(sent),
      answers: codesSeen(sent),
    };
    expect(problems, JSON.stringify(record, null, 1)).toEqual([]);
  });

  it('keeps no text of the persisted-query flood: none runs by its hash', async () => {
    expect(floods.length).toBeGreaterThanOrEqual(16);
    for (const n of new Set(floods.map((s) => s.n))) {
      const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(floodText(n)) } });
      const outcome = await http(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
        body: bodyOf({ extensions }),
      });
      expect(outcome.kind === 'http' && outcome.body?.errors?.[0]?.extensions?.code, `text #${n}: ${JSON.stringify(outcome).slice(0, 300)}`).toBe('PERSISTED_QUERY_NOT_FOUND');
    }
  });

  it('served the bystanders all along; the watcher still gets its events', { timeout: 30_000 }, async () => {
    const list = await http(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BYSTANDER_TOKEN}` },
      body: bodyOf({ query: '{ campaigns(first: 100, status: STARTED) { nodes { id } } }' }),
    });
    const id = list.kind === 'http' ? list.body?.data?.campaigns?.nodes?.[0]?.id : undefined;
    expect(id, JSON.stringify(list).slice(0, 300)).toBeTypeOf('string');
    const stopped = await http(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BYSTANDER_TOKEN}` },
      body: bodyOf({ query: `mutation { stopCampaign(id: ${JSON.stringify(id)}) { userErrors { code } } }` }),
    });
    expect(stopped.kind === 'http' && stopped.body?.data?.stopCampaign?.userErrors).toEqual([]);
    const deadline = Date.now() + 20_000;
    while (!bystander.events.some((e) => e.campaignChanged?.campaign?.id === id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await bystander.stop();
    expect(bystander.events.map((e) => e.campaignChanged.campaign.id)).toContain(id);
    expect(bystander.degraded).toEqual([]);
    expect(bystander.served.partner).toBeGreaterThan(100);
    expect(bystander.served.app).toBeGreaterThan(10);
    // Each count the bystander read was one backend call with its token: the calls are told apart by token.
    const calls = target.bystanderCalls();
    if (calls !== undefined) expect(calls).toBeGreaterThanOrEqual(bystander.served.partner);
  });
}
