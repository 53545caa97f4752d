import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { captureLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CREATE, newPartner, promoInput } from '../graphql/support.js';
import { cid } from '../helpers/ids.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { BODY_LIMIT_BYTES: String(64 * 1024) } });
});
afterAll(() => stack.close());

const post = (body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(stack.bffUrl, { method: 'POST', headers: { authorization: 'Bearer demo-store-token', ...headers }, body });

/** A createCampaign body with `name` as the merchant's name, as bytes (of any encoding). */
function createBody(partnerCampaignId: number, name: Buffer): Buffer {
  const [before, after] = JSON.stringify({ query: CREATE, variables: { input: promoInput(partnerCampaignId, { merchant: { name: '@NAME@' } }) } }).split('@NAME@');
  return Buffer.concat([Buffer.from(before!), name, Buffer.from(after!)]);
}

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';

describe('the HTTP layer', () => {
  it('answers a query over POST', async () => {
    const response = await post(JSON.stringify({ query: '{ categories { id } }' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
    expect(((await response.json() as any)).data.categories.length).toBeGreaterThanOrEqual(10);
  });

  it('answers a query over GET, and refuses a mutation over GET with 405', async () => {
    const query = encodeURIComponent('{ categories { id } }');
    const get = await fetch(`${stack.bffUrl}?query=${query}`, { headers: { 'apollo-require-preflight': 'true', authorization: 'Bearer demo-store-token' } });
    expect(get.status).toBe(200);
    const mutation = encodeURIComponent('mutation { stopCampaign(id: "1") { campaign { id } } }');
    const refused = await fetch(`${stack.bffUrl}?query=${mutation}`, { headers: { 'apollo-require-preflight': 'true', authorization: 'Bearer demo-store-token' } });
    expect(refused.status).toBe(405);
    expect(await stack.calls()).not.toHaveProperty('campaigns/stop');
  });

  it('refuses a GET without a preflight header (CSRF prevention)', async () => {
    const response = await fetch(`${stack.bffUrl}?query=${encodeURIComponent('{ categories { id } }')}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/CSRF|preflight/i);
  });

  it('counts every body refused before the pipeline by its reason, each time, a repeated one too', async () => {
    const counts = async () => {
      const text = await (await fetch(stack.metricsUrl)).text();
      const count = (limit: string) => Number(new RegExp(`bff_limit_rejections_total\\{limit="${limit}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
      return { malformed: count('malformed_json'), tooLarge: count('body_too_large'), mediaType: count('unsupported_media_type') };
    };
    const before = await counts();
    for (let i = 0; i < 2; i++) expect((await post('{"query": ')).status).toBe(400);
    expect((await post(Buffer.from([0x7b, 0xff, 0x7d]))).status).toBe(400);
    expect((await post(JSON.stringify({ query: `{ categories { id } } #${'x'.repeat(70 * 1024)}` }))).status).toBe(413);
    expect((await post('{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect(await counts()).toEqual({ malformed: before.malformed + 3, tooLarge: before.tooLarge + 1, mediaType: before.mediaType + 1 });
  });

  it('answers 400 to unparsable JSON, naming the problem', async () => {
    const response = await post('{"query": ');
    expect(response.status).toBe(400);
    const body = (await response.json() as any);
    expect(body.errors[0].message).toMatch(/^Request body is not valid JSON/);
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('answers 415 to a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await post('query=%7B+categories+%7B+id+%7D+%7D', { 'content-type': type });
      expect(response.status, type).toBe(415);
      expect(((await response.json() as any)).errors[0].message).toContain(type.split(';')[0]);
    }
  });

  it('quotes at most 40 characters of a long Content-Type it refuses', async () => {
    const type = `text/${'x'.repeat(10_000)}`;
    const response = await post('{}', { 'content-type': type });
    expect(response.status).toBe(415);
    expect(((await response.json() as any)).errors[0].message).toBe(`Content-Type must be application/json for POST, got "${type.slice(0, 40)}…".`);
  });

  it('answers 413 past the body limit, declared or streamed', async () => {
    const big = JSON.stringify({ query: '{ categories { id } }', variables: { pad: 'x'.repeat(70 * 1024) } });
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect(((await declared.json() as any)).errors[0]).toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' }, message: expect.stringContaining('65536 bytes') });

    const chunks = (async function* () {
      for (let i = 0; i < 80; i++) yield Buffer.alloc(1024, 0x20);
    })();
    const streamed = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunks as unknown as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('answers 415 to a Content-Encoding it does not decode, naming it, rather than reading the body as plain', async () => {
    const query = JSON.stringify({ query: '{ categories { id } }' });
    const bodies: [string, string | Buffer][] = [
      ['gzip', gzipSync(query)],
      ['gzip', query],
      ['deflate', deflateSync(query)],
      ['br', brotliCompressSync(query)],
      ['x-custom', query],
    ];
    for (const [encoding, body] of bodies) {
      const response = await post(body, { 'content-type': 'application/json', 'content-encoding': encoding });
      expect(response.status, encoding).toBe(415);
      expect(response.headers.get('accept-encoding')).toBe('identity');
      expect(((await response.json()) as any).errors).toEqual([
        { message: `Content-Encoding "${encoding}" is not supported; send the body uncompressed (without Content-Encoding).`, extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
      ]);
    }
    expect((await post(query, { 'content-type': 'application/json', 'content-encoding': 'identity' })).status).toBe(200);
  });

  it('refuses a body that is not UTF-8, by its declared charset (415) or by its bytes (400), and stores nothing', async () => {
    const partner = await newPartner(stack, 'store');
    const authorization = `Bearer ${partner}`;
    const latin1 = createBody(9001, Buffer.from('Café Crème', 'latin1'));
    await stack.resetCalls();
    const declared = await post(latin1, { 'content-type': 'application/json; charset=iso-8859-1', authorization });
    expect(declared.status).toBe(415);
    expect(((await declared.json()) as any).errors).toEqual([
      {
        message: 'Content-Type charset "iso-8859-1" is not supported; send the JSON body encoded as UTF-8 (charset=utf-8, or no charset).',
        extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' },
      },
    ]);
    for (const type of ['application/json', 'application/json; charset=utf-8']) {
      const undeclared = await post(latin1, { 'content-type': type, authorization });
      expect(undeclared.status, type).toBe(400);
      expect(((await undeclared.json()) as any).errors).toEqual([
        {
          message: 'Request body is not valid UTF-8; JSON must be sent encoded as UTF-8 (characters outside it may be escaped as \\uXXXX).',
          extensions: { code: 'BAD_REQUEST' },
        },
      ]);
    }
    // A hostile charset is quoted short.
    const long = await post(latin1, { 'content-type': `application/json; charset=${'x'.repeat(8000)}`, authorization });
    expect(long.status).toBe(415);
    expect((await long.text()).length).toBeLessThan(400);
    expect(await stack.calls()).not.toHaveProperty('campaigns/create');

    // The same name in UTF-8, with the charset written the ways clients write it, is stored as sent.
    const types = ['application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/json; charset=utf8'];
    for (const [i, type] of types.entries()) {
      const created = await post(createBody(9002 + i, Buffer.from('Café Crème')), { 'content-type': type, authorization });
      expect(created.status, type).toBe(200);
      const { data } = (await created.json()) as any;
      expect(data.createCampaign.userErrors).toEqual([]);
      const read = await stack.gql(`query ($id: ID!) { campaign(id: $id) { merchant { name } } }`, { id: data.createCampaign.campaign.id }, partner);
      expect(read.body.data.campaign.merchant.name).toBe('Café Crème');
    }
  });

  it('reads a body sent in pieces as the same UTF-8, a character split between two pieces included', async () => {
    const partner = await newPartner(stack, 'store');
    const authorization = `Bearer ${partner}`;
    /** The body in two pieces a moment apart, cut `at` bytes into the name: two reads for the server. */
    const inPieces = (bytes: Buffer, at: number) =>
      fetch(stack.bffUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: (async function* () {
          yield bytes.subarray(0, at);
          await new Promise((resolve) => setTimeout(resolve, 50));
          yield bytes.subarray(at);
        })() as unknown as ReadableStream,
        duplex: 'half',
      } as RequestInit);
    const utf8 = createBody(9101, Buffer.from('Café Crème'));
    // Between the two bytes of "é".
    const created = await inPieces(utf8, utf8.indexOf(Buffer.from('é')) + 1);
    const answer = (await created.json()) as any;
    expect({ status: created.status, errors: answer.errors }).toEqual({ status: 200, errors: undefined });
    const { data } = answer;
    expect(data.createCampaign.userErrors).toEqual([]);
    const read = await stack.gql(`query ($id: ID!) { campaign(id: $id) { merchant { name } } }`, { id: data.createCampaign.campaign.id }, partner);
    expect(read.body.data.campaign.merchant.name).toBe('Café Crème');

    await stack.resetCalls();
    const latin1 = createBody(9102, Buffer.from('Café Crème', 'latin1'));
    const refused = await inPieces(latin1, 10);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).errors[0].message).toMatch(/^Request body is not valid UTF-8/);
    expect(await stack.calls()).not.toHaveProperty('campaigns/create');
  });

  it('answers its own errors in the media type the client asked for, as Apollo answers its errors', async () => {
    const accepts: [string | undefined, string][] = [
      [undefined, JSON_TYPE],
      ['*/*', JSON_TYPE],
      ['application/json', JSON_TYPE],
      ['application/graphql-response+json', GRAPHQL_RESPONSE_TYPE],
      ['application/graphql-response+json, application/json;q=0.9', GRAPHQL_RESPONSE_TYPE],
      ['application/json, application/graphql-response+json', JSON_TYPE],
      ['application/json;q=0.5, application/graphql-response+json', GRAPHQL_RESPONSE_TYPE],
      ['application/graphql-response+json;q=0.5, */*', JSON_TYPE],
      ['application/graphql-response+json, */*;q=0.1', GRAPHQL_RESPONSE_TYPE],
    ];
    const json = { 'content-type': 'application/json' };
    for (const [accept, type] of accepts) {
      const asked: Record<string, string> = accept ? { accept } : {};
      const apollo = await post(JSON.stringify({ query: '{ nope }' }), { ...json, ...asked });
      expect(apollo.status).toBe(400);
      expect(apollo.headers.get('content-type'), `Apollo's validation error, Accept: ${accept}`).toBe(type);
      const answers: [string, Response][] = [
        ['malformed JSON', await post('{"query": ', { ...json, ...asked })],
        ['empty body', await post('', { ...json, ...asked })],
        ['415 type', await post('x', { 'content-type': 'text/plain', ...asked })],
        ['415 encoding', await post('{}', { ...json, 'content-encoding': 'gzip', ...asked })],
        ['413', await post(Buffer.alloc(70 * 1024, 0x20), { ...json, ...asked })],
        ['405', await fetch(stack.bffUrl, { method: 'PUT', headers: asked })],
      ];
      for (const [name, response] of answers) {
        expect(response.headers.get('content-type'), `${name}, Accept: ${accept}`).toBe(type);
        expect(((await response.json()) as any).errors[0].extensions.code).toEqual(expect.any(String));
      }
    }
  });

  it('refuses array batching', async () => {
    const response = await post(JSON.stringify([{ query: '{ categories { id } }' }, { query: '{ categories { name } }' }]));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/batching/i);
  });

  it('answers 405 to other methods and 404 to unknown paths', async () => {
    const put = await fetch(stack.bffUrl, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const missing = await fetch(stack.bffUrl.replace('/graphql', '/nope'));
    expect(missing.status).toBe(404);
    expect(((await missing.json() as any)).error).toMatch(/GraphQL is at \/graphql/);
  });

  it('serves liveness and readiness, and Prometheus metrics on a listener of their own', async () => {
    const base = stack.bffUrl.replace('/graphql', '');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json() as any)).toEqual({ status: 'ready', checks: { backend: { ok: true, detail: expect.stringMatching(/^(no call yet|last answer \d+ ms ago)$/) }, cache: { ok: true, detail: 'memory' } } });

    // A documented operation's name is a label value of its own (any other name is "other").
    await post(JSON.stringify({ query: 'query Categories { categories { id } }' }));
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const metrics = await (await fetch(stack.metricsUrl)).text();
    expect(metrics).toMatch(/bff_graphql_requests_total\{operation="Categories",outcome="ok"\} 1/);
    expect(metrics).toMatch(/bff_backend_calls_total\{operation="getCategories",outcome="success"\} \d+/);
    expect(metrics).toMatch(/bff_graphql_request_duration_seconds_bucket/);
    expect(metrics).toMatch(/bff_backend_call_duration_seconds_bucket/);
    expect(metrics).toMatch(/bff_backend_breaker_state 0/);
    expect(metrics).toMatch(/bff_dependency_up\{dependency="backend"\} 1/);
    expect(metrics).toMatch(/bff_cache_lookups_total\{cache="categories",result="(hit|miss)"\}/);
    expect(metrics).toMatch(/process_resident_memory_bytes/);
  });
});

describe('readiness without a backend', () => {
  it('stays ready: the backend\'s state is told in the checks, in bff_dependency_up and in the log, from real calls, never a probe', async () => {
    const logs = captureLogs();
    const lonely = await startStack({
      env: { BACKEND_ATTEMPT_TIMEOUT_MS: '200', BACKEND_BUDGET_MS: '500', BACKEND_MAX_ATTEMPTS: '1', BACKEND_BREAKER_FAILURES: '2', BACKEND_BREAKER_HALF_OPEN_MS: '500' },
      logger: logs.logger,
    });
    try {
      const base = lonely.bffUrl.replace('/graphql', '');
      const readyz = async () => {
        const response = await fetch(`${base}/readyz`);
        return { status: response.status, body: (await response.json()) as any };
      };
      // However often it is asked, readiness calls nothing: no probe with a made-up token.
      for (let i = 0; i < 5; i++) expect((await readyz()).status).toBe(200);
      expect(await lonely.calls()).toEqual({});
      expect((await readyz()).body.checks.backend).toEqual({ ok: true, detail: 'no call yet' });
      // The category directory, now cached, is what every instance can still answer in an outage.
      expect((await lonely.gql('{ categories { id } }')).body.data.categories.length).toBeGreaterThan(0);

      await lonely.admin('faults', { mode: 'http500' });
      for (let i = 0; i < 2; i++) expect((await lonely.gql('{ campaign(id: "1") { id } }')).body.errors?.[0].extensions.code).toBe('BACKEND_UNAVAILABLE');
      const down = await readyz();
      expect(down).toEqual({
        status: 200,
        body: { status: 'ready', checks: { backend: { ok: false, detail: expect.stringMatching(/^the campaign API fails: circuit breaker (open|half-open); last answer \d+ ms ago$/) }, cache: { ok: true, detail: 'memory' } } },
      });
      expect(await (await fetch(lonely.metricsUrl)).text()).toMatch(/bff_dependency_up\{dependency="backend"\} 0/);
      expect(logs.entries).toContainEqual(expect.objectContaining({ level: 40, dependency: 'backend', msg: 'dependency down: backend; still serving what does not need it' }));
      // Answers that need no backend call are still given.
      expect((await lonely.gql('{ categories { id } }')).body.data.categories.length).toBeGreaterThan(0);

      await lonely.admin('faults', undefined, 'DELETE');
      await until(async () => (await lonely.gql('{ campaign(id: "1") { id } }')).body.data?.campaign?.id === cid(1), 'a call to pass the half-open breaker');
      expect((await readyz()).body.checks.backend).toEqual({ ok: true, detail: expect.stringMatching(/^last answer \d+ ms ago$/) });
      expect(logs.entries).toContainEqual(expect.objectContaining({ level: 30, dependency: 'backend', msg: 'dependency up again: backend' }));
    } finally {
      await lonely.close();
    }
  });
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Against the built entry in its own process: in-process, client and server share one event loop
 * and the race below hardly shows; across processes a reset beat the 413 in about a third of tries.
 */
describe('a body over the limit from a client still sending it', () => {
  let entry: BuiltEntry;
  beforeAll(async () => {
    entry = await startBuiltEntry({ env: { LOG_LEVEL: 'warn' } });
  });
  afterAll(() => entry?.stop());

  const TWENTY_MB = 20 * 1024 * 1024;

  it('gets the 413 every time, not a reset (undici fetch of 20 MB, declared and streamed)', async () => {
    const outcomes: string[] = [];
    const declared = Buffer.alloc(TWENTY_MB, 0x20);
    const streamed = () =>
      new ReadableStream({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(0x20));
          controller.close();
        },
      });
    for (const [client, send] of [
      ['undici', undiciFetch as unknown as typeof fetch],
      ['node fetch', fetch],
    ] as const) {
      for (let i = 0; i < 8; i++) {
        for (const [kind, body] of [
          ['declared', () => declared],
          ['streamed', streamed],
        ] as const) {
          try {
            const response = await send(entry.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(), duplex: 'half' } as RequestInit);
            const answer = (await response.json()) as any;
            outcomes.push(`${client} ${kind}: ${response.status} ${answer.errors[0].extensions.code} ${response.headers.get('connection')}`);
          } catch (error) {
            outcomes.push(`${client} ${kind}: ${String((error as Error).cause ?? error)}`);
          }
        }
      }
    }
    expect(outcomes.filter((o) => !o.endsWith(': 413 PAYLOAD_TOO_LARGE close'))).toEqual([]);
  });

  it('is answered while still sending, and a body that stalls is cut off after at most 5 s', async () => {
    const { hostname, port } = new URL(entry.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${TWENTY_MB}\r\n\r\n`);
    socket.write(Buffer.alloc(1024 * 1024, 0x20));

    const deadline = Date.now() + 2000;
    while (!received.includes('PAYLOAD_TOO_LARGE') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const answeredAt = Date.now();
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(received).toContain('"code":"PAYLOAD_TOO_LARGE"');

    // The client sends nothing more: the server stops waiting for the rest within its bound.
    expect((await closed) - answeredAt).toBeLessThan(6000);
  }, 15_000);
});
