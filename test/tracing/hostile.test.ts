import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { MEMORY_PROBE_NODE_OPTIONS, sampleMemory, type MemorySample } from '../helpers/memory-probe.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

/**
 * Tracing under client text of hostile sizes, as it runs in production: the built entry as its
 * own process (NODE_ENV=production, default log level), the emulator as its backend, and a real
 * OTLP/HTTP receiver, which in the second suite accepts every export and never answers.
 */

const TOKEN = DEMO_TOKENS.store;
const MB = 1024 * 1024;
/** The most any span name, attribute value, event attribute or status message may hold. */
const TEXT_MAX = 256;
/** The spans one request may queue (src/tracing/budget.ts). */
const SPANS_PER_REQUEST = 512;
/** The default BODY_LIMIT_BYTES and MAX_ALIASES. */
const BODY_LIMIT = 5 * MB;
const MAX_ALIASES = 15;
const SPAN_KIND_SERVER = 2;

const newTraceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
};

async function post(url: string, body: string, traceparent?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...(traceparent ? { traceparent } : {}) },
    body,
  });
  return { status: response.status, body: await response.json() };
}

/** A query whose only alias is `aliasLength` characters long, over a page of `first` campaigns and their cards. */
const longAliasQuery = (aliasLength: number, first: number) => `{ ${'a'.repeat(aliasLength)}: campaigns(first: ${first}) { nodes { id card { title } } } }`;

/** Every piece of text a span carries, with where it was found. */
function textsOf(span: ReceivedSpan): [string, string][] {
  const texts: [string, string][] = [['name', span.name]];
  const add = (where: string, value: unknown) => {
    if (typeof value === 'string') texts.push([where, value]);
    else if (Array.isArray(value)) value.forEach((item, i) => add(`${where}[${i}]`, item));
  };
  for (const [key, value] of Object.entries(span.attributes)) add(`attribute ${key}`, value);
  for (const event of span.events) {
    add(`event ${event.name}`, event.name);
    for (const [key, value] of Object.entries(event.attributes)) add(`event ${event.name} ${key}`, value);
  }
  add('status message', span.status.message);
  add('trace state', span.traceState);
  return texts;
}

describe('tracing with client text of hostile sizes (built entry, production)', () => {
  let emulator: RunningEmulator;
  let receiver: OtlpReceiver;
  let entry: BuiltEntry | undefined;
  const traces = {} as Record<'alias' | 'operationName' | 'manyAliases' | 'manyCalls', string>;
  const answers = {} as Record<keyof typeof traces, { status: number; body: any }>;
  let manyCallsCount = 0;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    receiver = await startOtlpReceiver();
    entry = await startBuiltEntry({
      env: {
        NODE_ENV: 'production',
        CAMPAIGN_API_URL: emulator.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // Everything is exported by the flush of the graceful shutdown.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
    });
    const send = async (key: keyof typeof traces, body: string) => {
      const traceparent = newTraceparent();
      traces[key] = traceparent.traceId;
      answers[key] = await post(entry!.url, body, traceparent.header);
    };

    // One alias of 1 MB over a page of five campaigns and their cards.
    await send('alias', JSON.stringify({ query: longAliasQuery(MB, 5) }));

    // An operation name of 1 MB, in the document and in `operationName`.
    const name = `Q${'n'.repeat(MB - 1)}`;
    await send('operationName', JSON.stringify({ query: `query ${name} { campaigns(first: 2) { nodes { id card { title } } } }`, operationName: name }));

    // As many aliases as allowed, as long as the body limit lets them be, three on every path.
    const groups = MAX_ALIASES / 3;
    const aliasLength = Math.floor((BODY_LIMIT - 4096) / MAX_ALIASES);
    const alias = (n: number) => `${String.fromCharCode(65 + n)}${'x'.repeat(aliasLength - 1)}`;
    const selections = Array.from({ length: groups }, (_, g) => `${alias(3 * g)}: campaigns(first: 2) { ${alias(3 * g + 1)}: nodes { id ${alias(3 * g + 2)}: card { title } } }`);
    const manyAliases = JSON.stringify({ query: `{ ${selections.join(' ')} }` });
    expect(manyAliases.length).toBeGreaterThan(BODY_LIMIT - 8192);
    expect(manyAliases.length).toBeLessThanOrEqual(BODY_LIMIT);
    await send('manyAliases', manyAliases);

    // Five hundred backend calls (MAX_BACKEND_CALLS), each with its REST-call and HTTP span.
    const ids = (group: number) => Array.from({ length: 100 }, (_, i) => String(900_000 + group * 100 + i));
    const byIds = Array.from({ length: 5 }, (_, g) => `g${g}: campaignsByIds(ids: ${JSON.stringify(ids(g))}) { id }`);
    await fetch(`${emulator.url}/_emulator/calls`, { method: 'DELETE' });
    await send('manyCalls', JSON.stringify({ query: `{ ${byIds.join(' ')} }` }));
    manyCallsCount = Object.values(((await (await fetch(`${emulator.url}/_emulator/calls`)).json()) as { calls: Record<string, number> }).calls).reduce((a, b) => a + b, 0);

    entry.child.kill('SIGTERM');
    expect((await entry.exited).code, entry.output()).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await entry?.stop();
    await receiver?.close();
    await emulator?.close();
  });

  const traceOf = (key: keyof typeof traces) => receiver.spans.filter((s) => s.traceId === traces[key]);
  const requestSpanOf = (key: keyof typeof traces) => {
    const found = traceOf(key).filter((s) => s.kind === SPAN_KIND_SERVER);
    expect(found, `request span of ${key}`).toHaveLength(1);
    return found[0]!;
  };

  it('answers each request as without tracing', () => {
    expect(answers.alias.status).toBe(200);
    expect(answers.alias.body.data['a'.repeat(MB)].nodes).toHaveLength(5);
    expect(answers.operationName.status).toBe(200);
    expect(answers.operationName.body.data.campaigns.nodes).toHaveLength(2);
    expect(answers.manyAliases.status).toBe(200);
    expect(Object.keys(answers.manyAliases.body.data)).toHaveLength(MAX_ALIASES / 3);
    expect(answers.manyCalls.status).toBe(200);
    expect(answers.manyCalls.body.data.g4).toHaveLength(100);
    expect(manyCallsCount).toBe(500);
  });

  it(`no span name, attribute, event or status holds more than ${TEXT_MAX} characters`, () => {
    expect(receiver.spans.length).toBeGreaterThan(500);
    const tooLong = receiver.spans.flatMap((span) =>
      textsOf(span)
        .filter(([, text]) => text.length > TEXT_MAX)
        .map(([where, text]) => `${span.name} ${where}: ${text.length} characters`),
    );
    expect(tooLong.slice(0, 10)).toEqual([]);
  });

  it('a 1 MB alias: the trace keeps its shape, the field paths name the alias cut short', () => {
    const spans = traceOf('alias');
    // 1 request, the check of its token before a body this large is read (1 REST call, 1 HTTP
    // client span), 1 list resolver + 5 card resolvers, 6 REST calls, 6 HTTP client spans.
    expect(spans).toHaveLength(21);
    expect(spans.filter((s) => s.name === 'campaign-api campaigns/get-all-campaigns')).toHaveLength(2);
    const paths = spans.filter((s) => s.name === 'Campaign.card').map((s) => s.attributes['graphql.field.path']);
    expect(paths.sort()).toEqual([0, 1, 2, 3, 4].map((i) => `${'a'.repeat(47)}\u2026.nodes.${i}.card`));
  });

  it('a 1 MB operation name: the span is named by the bounded label, the name left out', () => {
    const request = requestSpanOf('operationName');
    expect(request.name).toBe('query other');
    expect(request.attributes['graphql.operation.name']).toBeUndefined();
    expect(request.attributes['graphql.operation.type']).toBe('query');
  });

  it('many aliases at the body limit: every path holds three aliases, each cut, within the bound', () => {
    const paths = traceOf('manyAliases')
      .filter((s) => s.name === 'Campaign.card')
      .map((s) => s.attributes['graphql.field.path'] as string);
    // Every group reads the same two campaigns: their cards are read once, under the first group's resolvers.
    expect(paths).toHaveLength(2);
    for (const path of paths) {
      expect(path).toMatch(/^[A-O]x{46}\u2026\.[A-O]x{46}\u2026\.[01]\.[A-O]x{46}\u2026$/);
      expect(path.length).toBeLessThanOrEqual(TEXT_MAX);
    }
  });

  it('what these requests exported is a few kilobytes a span, not their aliases', () => {
    const bytes = receiver.requests.reduce((sum, r) => sum + r.bytes, 0);
    // The attack sent more than 7 MB of names; every span is bounded, to a few hundred bytes here.
    expect(bytes).toBeLessThan(2 * MB);
  });

  it(`one request queues at most ${SPANS_PER_REQUEST} spans and says how many it dropped`, () => {
    const spans = traceOf('manyCalls');
    expect(spans).toHaveLength(SPANS_PER_REQUEST);
    const request = requestSpanOf('manyCalls');
    // 5 resolvers, 500 REST-call spans and 500 HTTP client spans besides the request's own.
    expect(request.attributes['bff.spans_dropped']).toBe(1 + 5 + 500 + 500 - SPANS_PER_REQUEST);
    expect(request.attributes['bff.backend_calls']).toBe(500);
  });
});

describe('tracing with a collector that accepts exports and never answers (built entry, production)', () => {
  let emulator: RunningEmulator;
  let receiver: OtlpReceiver;
  let entry: BuiltEntry | undefined;
  let before: MemorySample;
  let after: MemorySample;
  const statuses = new Set<number>();
  const ATTACKS = 40;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    receiver = await startOtlpReceiver({ hang: true });
    entry = await startBuiltEntry({
      env: {
        NODE_ENV: 'production',
        CAMPAIGN_API_URL: emulator.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // Exports start at once, so they hang while the attack runs.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        NODE_OPTIONS: MEMORY_PROBE_NODE_OPTIONS,
      },
    });
    // A 1 MB alias over a page of ten campaigns: eleven resolver spans name it.
    const attack = JSON.stringify({ query: longAliasQuery(MB, 10) });
    const send = async () => statuses.add((await post(entry!.url, attack)).status);
    // Warm up on the same requests, so what follows measures what they keep, not the heap's growth to its working size.
    for (let i = 0; i < 5; i++) await send();
    before = await sampleMemory(entry);
    for (let i = 0; i < ATTACKS; i++) await send();
    after = await sampleMemory(entry);
  }, 180_000);

  afterAll(async () => {
    await entry?.stop();
    await receiver?.close();
    await emulator?.close();
  });

  it('memory stays bounded while the collector hangs', async () => {
    expect([...statuses]).toEqual([200]);
    // The exports were sent and are still unanswered.
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.spans).toEqual([]);
    const grewMb = (after.rssBytes - before.rssBytes) / MB;
    const heapGrewMb = (after.heapUsedBytes - before.heapUsedBytes) / MB;
    expect(grewMb, `RSS ${before.rssBytes / MB} -> ${after.rssBytes / MB} MB`).toBeLessThan(60);
    expect(heapGrewMb, `heap ${before.heapUsedBytes / MB} -> ${after.heapUsedBytes / MB} MB`).toBeLessThan(20);
    expect((await fetch(entry!.url.replace(/\/graphql$/, '/healthz'))).status).toBe(200);
  });
});
