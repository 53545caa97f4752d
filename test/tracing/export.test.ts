import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';
import { cid } from '../helpers/ids.js';

/**
 * Tracing end to end, as it runs in production: the built entry (what `npm start` runs: dist/,
 * built once per run by test/helpers/build.global.ts) as its own process with NODE_ENV=production, the emulator as its backend,
 * and a local OTLP/HTTP receiver standing in for a collector. The batch processor's delay is set
 * far beyond the test, so every span checked here reached the receiver through the flush of the
 * graceful shutdown (SIGTERM).
 */

const TOKEN = DEMO_TOKENS.store;
const SERVICE_NAME = 'campaign-bff-under-test';
// Values a client sends that must not reach any span: a campaign id, campaign text, a pin.
const SECRET_ID = '424242424242';
const SECRET_TEXT = 'Скидка 15% на весенние овощи 8371946025';
const SECRET_PIN = 'TRACEPIN-5120398';

const FAN_OUT = 'query FanOut { campaigns(first: 5) { nodes { id card { title } } } }';
const FAULTY = 'query Faulty { campaign(id: "1") { id card { title } } }';
const BY_IDS = 'query ByIds($ids: [ID!]!) { campaignsByIds(ids: $ids) { id card { title } } }';
const CREATE = 'mutation Create($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id } userErrors { code } } }';
const ADD_PINS = 'mutation AddPins($input: AddPinsInput!) { addPins(input: $input) { addedCount userErrors { code } } }';
const STATEFUL = 'query Stateful { campaigns(first: 2) { nodes { id card { title } } } }';
// Trace context a client sends besides traceparent, and a header of its own: none of it is ours to pass on.
const CLIENT_HEADERS = { tracestate: 'clientvendor=CLIENTSTATE-7731,other=x', baggage: 'user=CLIENTBAGGAGE-5519', 'x-client-note': 'CLIENTNOTE-2208' };

const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

const newTraceparent = (flags = '01') => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, header: `00-${traceId}-${parentId}-${flags}` };
};

interface Sent {
  traceparent?: { traceId: string; parentId: string };
  body: any;
}

let emulator: RunningEmulator;
let receiver: OtlpReceiver;
let entry: BuiltEntry | undefined;
let output = '';
let exitCode: number | null = null;
let backendRequests: { operation: string; traceparent: string | null; headers: string[] }[] = [];
const sent: Record<'fanOut' | 'fanOutAgain' | 'faulty' | 'byIds' | 'create' | 'addPins' | 'unsampled' | 'stateful', Sent> = {} as never;

async function gql(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  traceparent?: ReturnType<typeof newTraceparent>,
  headers: Record<string, string> = {},
): Promise<Sent> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
      ...(traceparent ? { traceparent: traceparent.header } : {}),
      ...headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return { body: await response.json(), ...(traceparent ? { traceparent } : {}) };
}

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, moderation: { mode: 'manual' } });
  receiver = await startOtlpReceiver();
  // The helper passes no OTEL_* variable of the shell on: only these.
  entry = await startBuiltEntry({
    env: {
      NODE_ENV: 'production',
      CAMPAIGN_API_URL: emulator.url,
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: SERVICE_NAME,
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      // No load balancer to wait for before the port closes.
      SHUTDOWN_DELAY_MS: '0',
    },
  });
  const { url } = entry;
  // In production the banner is the "started" log line, in by now.
  output = entry.output();
  expect(entry.logs().find((line) => line.msg === 'started')?.tracing).toContain(`${receiver.url}/v1/traces (OTLP/HTTP JSON, service ${SERVICE_NAME}`);

  await fetch(`${emulator.url}/_emulator/requests`, { method: 'DELETE' });
  sent.fanOut = await gql(url, FAN_OUT);
  sent.fanOutAgain = await gql(url, FAN_OUT);

  await fetch(`${emulator.url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'http500', operation: 'campaigns/get', probability: 1 }),
  });
  sent.faulty = await gql(url, FAULTY);
  await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' });

  sent.byIds = await gql(url, BY_IDS, { ids: ['1', SECRET_ID] }, newTraceparent());
  sent.create = await gql(
    url,
    CREATE,
    {
      input: {
        partnerCampaignId: 5001,
        categoryId: '1',
        type: 'PROMO',
        acceptUrl: 'https://svezhie-produkty.example.ru/vesna',
        merchant: {
          domain: 'svezhie-produkty.example.ru',
          logoSvgUrl: 'https://svezhie-produkty.example.ru/logo.svg',
          logoPngUrl: 'https://svezhie-produkty.example.ru/logo.png',
          name: 'Свежие продукты',
        },
        appearance: { backgroundColor: '#1B5E20', fontColor: '#FFFFFF' },
        description: SECRET_TEXT,
        conditions: 'При заказе от 1500 рублей в приложении',
        discount: { type: 'PERCENT', amount: '15' },
        fee: { type: 'PERCENT', amount: '5' },
      },
    },
    newTraceparent(),
  );
  sent.addPins = await gql(url, ADD_PINS, { input: { campaignId: '1', pins: [SECRET_PIN] } }, newTraceparent());
  sent.unsampled = await gql(url, FAN_OUT, undefined, newTraceparent('00'));
  sent.stateful = await gql(url, STATEFUL, undefined, newTraceparent(), CLIENT_HEADERS);

  backendRequests = ((await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as { requests: typeof backendRequests }).requests;
  entry.child.kill('SIGTERM');
  exitCode = (await entry.exited).code;
  // Everything the process wrote, its shutdown included: 'exit' may come before stdout's end.
  const stdout = entry.child.stdout!;
  if (!stdout.readableEnded) await new Promise((resolve) => stdout.once('end', resolve));
  output = entry.output();
}, 60_000);

afterAll(async () => {
  await entry?.stop();
  await receiver?.close();
  await emulator?.close();
});

const requestSpan = (operation: string, nth = 0): ReceivedSpan => {
  const found = receiver.spans.filter((s) => s.kind === SPAN_KIND.SERVER && s.attributes['graphql.operation.name'] === operation);
  expect(found.length, `request spans of ${operation}`).toBeGreaterThan(nth);
  return found[nth]!;
};
const traceOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);
const childrenOf = (span: ReceivedSpan) => receiver.spans.filter((s) => s.parentSpanId === span.spanId);
const only = <T>(items: T[], what: string): T => {
  expect(items, what).toHaveLength(1);
  return items[0]!;
};

describe('tracing with an OTLP endpoint (built entry, production)', () => {
  it('answers every operation as without tracing, exits 0 on SIGTERM and exports over OTLP/HTTP JSON', () => {
    expect(sent.fanOut.body.data.campaigns.nodes).toHaveLength(5);
    expect(sent.fanOutAgain.body).toEqual(sent.fanOut.body);
    expect(sent.faulty.body.errors[0].extensions.code).toBe('BACKEND_UNAVAILABLE');
    expect(sent.byIds.body.data.campaignsByIds).toEqual([{ id: cid(1), card: { title: expect.any(String) } }, null]);
    expect(sent.create.body.data.createCampaign.userErrors).toEqual([]);
    expect(sent.addPins.body.data.addPins).toEqual({ addedCount: 1, userErrors: [] });
    expect(exitCode, output).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests.every((r) => r.path === '/v1/traces' && r.contentType?.startsWith('application/json'))).toBe(true);
    expect(receiver.spans[0]!.resource['service.name']).toBe(SERVICE_NAME);
  });

  it('one trace per request: request → resolver → REST call → HTTP client, for a query that fans out', () => {
    const request = requestSpan('FanOut');
    // Named as the metrics label it: a name that is neither documented nor trusted is "other".
    expect(request).toMatchObject({ name: 'query other', parentSpanId: undefined });
    expect(request.attributes).toMatchObject({
      'graphql.operation.name': 'FanOut',
      'graphql.operation.type': 'query',
      'http.request.method': 'POST',
      'http.route': '/graphql',
      'http.response.status_code': 200,
      'bff.graphql.path': 'apollo',
      'bff.graphql.outcome': 'ok',
      'bff.backend_calls': 6,
    });
    const spans = traceOf(request.traceId);
    // 1 request, 1 list resolver + 5 card resolvers, 6 REST calls, 6 HTTP client spans.
    expect(spans).toHaveLength(19);

    const resolvers = childrenOf(request);
    expect(resolvers.map((s) => s.name).sort()).toEqual(['Campaign.card', 'Campaign.card', 'Campaign.card', 'Campaign.card', 'Campaign.card', 'Query.campaigns']);
    expect(resolvers.filter((s) => s.name === 'Campaign.card').map((s) => s.attributes['graphql.field.path']).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `campaigns.nodes.${i}.card`),
    );
    for (const resolver of resolvers) {
      const rest = only(childrenOf(resolver), `REST calls under ${resolver.name}`);
      const operation = resolver.name === 'Query.campaigns' ? 'campaigns/get-all-campaigns' : 'campaigns/get';
      expect(rest).toMatchObject({ name: `campaign-api ${operation}`, kind: SPAN_KIND.INTERNAL });
      expect(rest.attributes).toMatchObject({
        'campaign_api.operation': operation,
        'campaign_api.outcome': 'success',
        'campaign_api.attempts': 1,
        'campaign_api.retries': 0,
        'campaign_api.breaker_state': 'closed',
        'http.response.status_code': 200,
      });
      expect(rest.attributes['campaign_api.request_bytes']).toBeGreaterThan(0);
      expect(rest.attributes['campaign_api.response_bytes']).toBeGreaterThan(0);
      const http = only(childrenOf(rest), `HTTP client spans under ${rest.name}`);
      expect(http).toMatchObject({ name: 'POST', kind: SPAN_KIND.CLIENT, scope: '@opentelemetry/instrumentation-undici' });
      expect(http.attributes).toMatchObject({ 'url.path': `/v1/${operation}`, 'http.response.status_code': 200 });
      expect(childrenOf(http)).toEqual([]);
    }
  });

  it('the backend received the trace: each call carried traceparent naming its HTTP client span', () => {
    const request = requestSpan('FanOut');
    const httpSpans = traceOf(request.traceId).filter((s) => s.kind === SPAN_KIND.CLIENT);
    const atBackend = backendRequests.filter((r) => r.traceparent?.split('-')[1] === request.traceId);
    expect(atBackend.map((r) => r.operation).sort()).toEqual(['campaigns/get', 'campaigns/get', 'campaigns/get', 'campaigns/get', 'campaigns/get', 'campaigns/get-all-campaigns']);
    expect(atBackend.map((r) => r.traceparent).sort()).toEqual(httpSpans.map((s) => `00-${s.traceId}-${s.spanId}-01`).sort());
  });

  it('the compiled path is traced alike and says so', () => {
    const again = requestSpan('FanOut', 1);
    expect(again.traceId).not.toBe(requestSpan('FanOut').traceId);
    expect(again.attributes['bff.graphql.path']).toBe('compiled');
    expect(traceOf(again.traceId)).toHaveLength(19);
    expect(childrenOf(again).filter((s) => s.name === 'Campaign.card')).toHaveLength(5);
  });

  it('a failing backend: one REST call span with every attempt under it, the error code on the request', () => {
    const request = requestSpan('Faulty');
    expect(request.attributes).toMatchObject({ 'bff.graphql.error_codes': ['BACKEND_UNAVAILABLE'], 'bff.graphql.outcome': 'partial' });
    expect(request.status.code).toBe(2); // ERROR
    const resolver = only(childrenOf(request), 'resolvers of Faulty');
    expect(resolver.name).toBe('Query.campaign');
    expect(resolver.status.code).toBe(2);
    const rest = only(childrenOf(resolver), 'REST calls of Faulty');
    expect(rest.attributes).toMatchObject({
      'campaign_api.operation': 'campaigns/get',
      'campaign_api.outcome': 'http',
      'campaign_api.attempts': 3,
      'campaign_api.retries': 2,
      'http.response.status_code': 500,
      'error.type': 'http',
    });
    expect(rest.events.map((e) => [e.name, e.attributes['campaign_api.attempt'], e.attributes['error.type']])).toEqual([
      ['attempt failed', 1, 'http'],
      ['attempt failed', 2, 'http'],
      ['attempt failed', 3, 'http'],
    ]);
    const attempts = childrenOf(rest);
    expect(attempts).toHaveLength(3);
    expect(attempts.map((s) => s.attributes['http.response.status_code'])).toEqual([500, 500, 500]);
    expect(attempts.map((s) => s.attributes['http.request.resend_count']).sort()).toEqual([1, 2, undefined]);
    const atBackend = backendRequests.filter((r) => r.traceparent?.split('-')[1] === request.traceId);
    expect(atBackend.map((r) => r.traceparent).sort()).toEqual(attempts.map((s) => `00-${s.traceId}-${s.spanId}-01`).sort());
  });

  it("continues a client's traceparent: same trace id, the client's span as parent, sent on to the backend", () => {
    for (const key of ['byIds', 'create', 'addPins'] as const) {
      const { traceId, parentId } = sent[key].traceparent!;
      const request = only(
        receiver.spans.filter((s) => s.kind === SPAN_KIND.SERVER && s.traceId === traceId),
        `request span of ${key}`,
      );
      expect(request.parentSpanId).toBe(parentId);
      expect(traceOf(traceId).filter((s) => s.name.startsWith('campaign-api ')).length).toBeGreaterThan(0);
      expect(backendRequests.filter((r) => r.traceparent?.split('-')[1] === traceId).length).toBeGreaterThan(0);
    }
    const create = only(childrenOf(requestSpan('Create')), 'resolvers of Create');
    expect(create.name).toBe('Mutation.createCampaign');
    // The category is checked against the directory (a cold cache here), then the campaign created.
    expect(childrenOf(create).map((s) => s.name).sort()).toEqual(['campaign-api campaigns/create', 'campaign-api categories/get']);
  });

  it("a client's trace it did not sample: no spans exported, the trace id still sent on, unsampled", () => {
    expect(sent.unsampled.body).toEqual(sent.fanOut.body);
    const { traceId } = sent.unsampled.traceparent!;
    expect(traceOf(traceId)).toEqual([]);
    const atBackend = backendRequests.filter((r) => r.traceparent?.split('-')[1] === traceId);
    expect(atBackend).toHaveLength(6);
    expect(atBackend.every((r) => r.traceparent!.endsWith('-00'))).toBe(true);
  });

  it("sends the backend only our traceparent: a client's tracestate, baggage and own headers stay out of calls and spans", () => {
    expect(sent.stateful.body.data.campaigns.nodes).toHaveLength(2);
    const { traceId, parentId } = sent.stateful.traceparent!;
    const request = only(
      receiver.spans.filter((s) => s.kind === SPAN_KIND.SERVER && s.traceId === traceId),
      'request span of Stateful',
    );
    // The client's traceparent is still continued.
    expect(request.parentSpanId).toBe(parentId);
    const httpSpans = traceOf(traceId).filter((s) => s.kind === SPAN_KIND.CLIENT);
    const atBackend = backendRequests.filter((r) => r.traceparent?.split('-')[1] === traceId);
    expect(atBackend).toHaveLength(3);
    expect(atBackend.map((r) => r.traceparent).sort()).toEqual(httpSpans.map((s) => `00-${s.traceId}-${s.spanId}-01`).sort());
    for (const call of atBackend) {
      expect(call.headers).toContain('traceparent');
      for (const name of Object.keys(CLIENT_HEADERS)) expect(call.headers, call.operation).not.toContain(name);
    }
    // Every call carried the same header names as one made for a client that sent none of it.
    const plain = backendRequests.filter((r) => r.traceparent?.split('-')[1] === requestSpan('FanOut').traceId);
    expect(new Set(atBackend.flatMap((r) => r.headers))).toEqual(new Set(plain.flatMap((r) => r.headers)));
    // Nor is the client's tracestate exported with the spans.
    expect(traceOf(traceId).map((s) => s.traceState ?? '')).toEqual(traceOf(traceId).map(() => ''));
    const everything = JSON.stringify(receiver.spans);
    for (const marker of ['CLIENTSTATE-7731', 'CLIENTBAGGAGE-5519', 'CLIENTNOTE-2208']) expect(everything).not.toContain(marker);
  });

  it('no span attribute or event holds the partner token or a value the client sent', () => {
    const everything = JSON.stringify(receiver.spans.map((s) => [s.name, s.attributes, s.events, s.status, s.resource]));
    for (const secret of [TOKEN, 'Bearer', SECRET_ID, SECRET_TEXT, '8371946025', SECRET_PIN]) {
      expect(everything, secret).not.toContain(secret);
    }
    // The values did reach the backend, through traced calls.
    expect(backendRequests.some((r) => r.operation === 'campaigns/create')).toBe(true);
    expect(backendRequests.some((r) => r.operation === 'campaigns/add-pins')).toBe(true);
    expect(output).not.toContain(TOKEN);
  });

  it('log lines carry the trace id and span id of their request', () => {
    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    const logged = lines.filter((line) => line.msg === 'graphql request' && line.operation === 'FanOut');
    expect(logged).toHaveLength(3);
    expect(logged.slice(0, 2).map((line) => [line.trace_id, line.span_id])).toEqual(
      [requestSpan('FanOut'), requestSpan('FanOut', 1)].map((span) => [span.traceId, span.spanId]),
    );
    // Unsampled, yet the line still names the client's trace.
    expect(logged[2].trace_id).toBe(sent.unsampled.traceparent!.traceId);
  });
});
