import type { Reading, Target } from './harness.js';
import { CALLERS, type Caller, type HostileInput } from './inputs.js';
import { answered, bodyOf, http, refusalOf, searchOf, ws, type Credentials, type Outcome, type Params, type TransportName } from './transports.js';

/**
 * Sends one hostile input over each of its transports as each of its callers, one request after
 * another, and says what was wrong with each answer: every problem in one line naming the input,
 * the transport, the caller and what came back, so that a failure reads as a defect report.
 */

/** Backend calls one hostile request may cause: a token's one check, and a verdict's refresh landing in its window. */
export const CALLS_PER_REQUEST = 2;
/**
 * The most a refusal may say: it names the limit and quotes a short prefix, never what it was sent,
 * nor an error for each item of a hostile list (graphql-js stops validating at a hundred errors,
 * which fits).
 */
export const ANSWER_MAX_BYTES = 16 * 1024;
/**
 * How long the process's own work may hold its event loop while one request is answered: far
 * above what any refusal or answer here takes, below what reading megabytes of JSON (or a value
 * nested millions of levels deep) in one turn takes. prom-client's delay is wall-clock time, which
 * on a shared machine also counts the time the process waited for a core; its CPU time does not,
 * so the loop counts as held by its own work for the lesser of the two.
 */
export const EVENT_LOOP_HELD_MAX_MS = 300;

export interface Sent {
  transport: TransportName;
  caller: string;
  n: number;
  outcome: Outcome;
  /** Backend calls counted while it was answered, with the rest of its burst. */
  calls: number;
  /** The requests sent at once with it, itself included. */
  burst: number;
  /** The BFF's own account right after the answer: the event loop's longest delay meanwhile, the breaker. */
  reading: Reading;
  /** CPU time the BFF used from the previous reading to this one. */
  cpuMs: number;
}

/** How long the process's own work held the event loop while a request was answered (see `EVENT_LOOP_HELD_MAX_MS`). */
const heldMs = (sent: Sent) => Math.min(sent.reading.eventLoopLagMaxMs, sent.cpuMs);

/** The `connection_init` message carrying these credentials, and (for `ws-init`) the input's parameters too. */
function initMessage(credentials: Credentials, params?: Params): string {
  const entries = Object.entries(credentials.init ?? credentials.headers).map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  if (params) entries.push(bodyOf(params).slice(1, -1));
  return `{"type":"connection_init","payload":{${entries.filter((e) => e.length > 0).join(',')}}}`;
}

const subscribeMessage = (params: Params) => `{"id":"1","type":"subscribe","payload":${bodyOf(params)}}`;

/** `body`: what a POST (or SSE) sends in place of the parameters' JSON, with the headers it goes with. */
export function send(target: Target, transport: TransportName, credentials: Credentials, params: Params, body?: { headers: Record<string, string>; bytes: Buffer }): Promise<Outcome> {
  const json = body?.headers ?? { 'content-type': 'application/json' };
  const bytes = body?.bytes ?? bodyOf(params);
  switch (transport) {
    case 'post':
      return http(target.url, { method: 'POST', headers: { ...json, ...credentials.headers }, body: bytes });
    case 'get':
      return http(`${target.url}?${searchOf(params)}`, { method: 'GET', headers: { 'apollo-require-preflight': 'true', ...credentials.headers } });
    case 'sse':
      return http(`${target.url}/stream`, { method: 'POST', headers: { ...json, accept: 'text/event-stream', ...credentials.headers }, body: bytes });
    case 'ws-init':
      return ws(target.url, { headers: {}, init: initMessage(credentials, params) });
    case 'ws-subscribe':
      return ws(target.url, { headers: {}, init: initMessage(credentials), subscribe: subscribeMessage(params) });
    case 'ws-header':
      return ws(target.url, { headers: credentials.headers, init: '{"type":"connection_init","payload":{}}', subscribe: subscribeMessage(params) });
  }
}

const STREAMING: ReadonlySet<TransportName> = new Set(['sse', 'ws-init', 'ws-subscribe', 'ws-header']);

/**
 * Sends the input everywhere it goes, as everyone it is sent by; the `n`th send gets the input's
 * `n`th parameters. The sends of one transport and caller go in bursts of the input's
 * `concurrency` (one by one unless said); backend calls and the BFF's readings are taken per burst.
 */
export async function attack(target: Target, input: HostileInput, probe: () => Promise<Reading>): Promise<Sent[]> {
  const sent: Sent[] = [];
  let previous = await probe();
  let n = 0;
  for (const transport of input.transports) {
    for (const caller of input.callers ?? CALLERS) {
      const times = input.repeat?.[transport] ?? 1;
      for (let done = 0; done < times; ) {
        const burst = Math.min(input.concurrency ?? 1, times - done);
        const numbers = Array.from({ length: burst }, (_, i) => n + i);
        // The scrape after the previous burst reset the event loop's histogram.
        const before = await target.attackCalls();
        const outcomes = await Promise.all(
          numbers.map((k) => send(target, transport, caller.credentials(target.mode), STREAMING.has(transport) && input.stream ? input.stream(k) : input.params(k), input.body?.())),
        );
        const calls = (await target.attackCalls()) - before;
        const reading = await probe();
        const cpuMs = (reading.cpuSeconds - previous.cpuSeconds) * 1000;
        outcomes.forEach((outcome, i) => sent.push({ transport, caller: caller.name, n: numbers[i]!, outcome, calls, burst, reading, cpuMs }));
        previous = reading;
        n += burst;
        done += burst;
      }
    }
  }
  return sent;
}

/** What was wrong with each answer, one line each; empty when every answer was as it must be. */
export function problemsOf(target: Target, input: HostileInput, sent: readonly Sent[]): string[] {
  const callers = new Map<string, Caller>((input.callers ?? CALLERS).map((c) => [c.name, c]));
  const problems: string[] = [];
  for (const one of sent) {
    const { transport, caller, n, outcome, calls, burst, reading, cpuMs } = one;
    const where = `${input.name} | ${transport} | ${caller} | #${n}:`;
    const runs = input.partnerRuns?.includes(transport) && callers.get(caller)!.actsAsPartner(target.mode);
    const refusal = refusalOf(outcome);
    // graphql-ws's own words for a message outside its protocol: the suite's mistake, never a refusal of the input.
    if (!input.malformed && outcome.kind === 'ws-closed' && outcome.reason === 'Invalid message received') problems.push(`${where} the suite sent a message graphql-ws cannot read`);
    if (runs) {
      if (!answered(outcome)) problems.push(`${where} a partner's request was not answered: ${refusal.summary}`);
    } else {
      if (refusal.data) problems.push(`${where} data for a hostile input: ${refusal.summary}`);
      else if (!refusal.refused) problems.push(`${where} no coded refusal: ${refusal.summary}`);
      if (refusal.bytes > ANSWER_MAX_BYTES) problems.push(`${where} an answer of ${refusal.bytes} bytes: ${refusal.summary}`);
    }
    if (heldMs(one) > EVENT_LOOP_HELD_MAX_MS) {
      problems.push(`${where} the event loop was held ${reading.eventLoopLagMaxMs.toFixed(0)} ms, with ${cpuMs.toFixed(0)} ms of CPU (at most ${EVENT_LOOP_HELD_MAX_MS}): ${refusal.summary}`);
    }
    if (reading.breaker !== 0) problems.push(`${where} the breaker is ${reading.breaker === 2 ? 'open' : 'half-open'}: ${refusal.summary}`);
    const allowed = (runs ? (input.partnerCalls ?? CALLS_PER_REQUEST) : CALLS_PER_REQUEST) * burst;
    if (calls > allowed) problems.push(`${where} ${calls} backend calls${burst > 1 ? ` for ${burst} requests at once` : ''} (at most ${allowed}): ${refusal.summary}`);
  }
  return problems;
}

/** The codes each transport answered with, for the record of a run: `post: 401 UNAUTHENTICATED × 5`. */
export function codesSeen(sent: readonly Sent[]): string[] {
  const counts = new Map<string, number>();
  for (const { transport, caller, outcome } of sent) {
    const refusal = refusalOf(outcome);
    const status = outcome.kind === 'http' || outcome.kind === 'stream' || outcome.kind === 'upgrade-refused' ? `${outcome.status} ` : '';
    const codes = [...new Set(refusal.codes)].join(',');
    const key = `${transport} | ${caller}: ${status}${codes || outcome.kind}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => (count > 1 ? `${key} × ${count}` : key));
}

/** The answers that held the event loop longest, for the record of a case. */
export function heaviest(sent: readonly Sent[], count = 3): string[] {
  return [...sent]
    .sort((a, b) => heldMs(b) - heldMs(a))
    .slice(0, count)
    .map((s) => `${s.transport} | ${s.caller} | #${s.n}: loop ${s.reading.eventLoopLagMaxMs.toFixed(0)} ms, CPU ${s.cpuMs.toFixed(0)} ms`);
}
