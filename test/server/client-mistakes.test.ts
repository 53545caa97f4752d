import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { metric } from '../subscriptions/support.js';

/**
 * A client's mistake is answered 4xx with a stable code, and logged as what it is: the request's
 * own info line with its error code, never an "unexpected error" at error level with a stack.
 */
let stack: Stack;
const log = captureLogs();
const lines = log.entries;
let n = 0;

beforeAll(async () => {
  stack = await startStack({ logger: log.logger });
});
afterAll(() => stack.close());

async function send(body: unknown) {
  const requestId = `mistake-${++n}`;
  const response = await fetch(stack.bffUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer demo-store-token', 'x-request-id': requestId },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), logs: lines.filter((line) => line.requestId === requestId) };
}

const QUERY = '{ categories { id } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('client mistakes', () => {
  it.each([
    ['a subscription over POST', { query: 'subscription { campaignChanged { status } }' }, 400, 'GRAPHQL_VALIDATION_FAILED', /WebSocket .* \/graphql .* SSE .* \/graphql\/stream/],
    [
      'a persisted-query hash that does not match its query',
      { query: QUERY, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(`${QUERY} `) } } },
      400,
      'BAD_REQUEST',
      /does not match/,
    ],
    [
      'a persisted query of version 2',
      { query: QUERY, extensions: { persistedQuery: { version: 2, sha256Hash: sha256(QUERY) } } },
      400,
      'BAD_REQUEST',
      /version/,
    ],
  ])('%s: a 4xx with a stable code, logged below error level without a stack', async (_name, body, status, code, message) => {
    // The same query text answered before, so the compiled path knows it and its answer is
    // remembered (a directory read): both get their chance too, and neither may take these.
    for (let i = 0; i < 2; i++) expect((await send({ query: QUERY })).status).toBe(200);
    expect((await send({ query: QUERY })).logs[0]).toMatchObject({ path: 'remembered' });

    for (let i = 0; i < 2; i++) {
      const answer = await send(body);
      expect(answer.status).toBe(status);
      const errors = JSON.parse(answer.text).errors;
      expect(errors).toEqual([expect.objectContaining({ message: expect.stringMatching(message), extensions: { code } })]);
      expect(answer.logs.filter((line) => line.level >= 50)).toEqual([]);
      expect(JSON.stringify(answer.logs)).not.toMatch(/stack|unexpected error/);
      expect(answer.logs).toEqual([expect.objectContaining({ level: 30, msg: 'graphql request', outcome: code, errorCodes: [code] })]);
    }
  });

  it.each([
    ['a method other than GET and POST', 'PUT', { 'content-type': 'application/json' }, '{}', 405, 'METHOD_NOT_ALLOWED'],
    ['a body of another type', 'POST', { 'content-type': 'text/plain' }, '{ categories { id } }', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a compressed body', 'POST', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'x', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a body over the limit', 'POST', { 'content-type': 'application/json' }, `{"query":"${'x'.repeat(6_000_000)}"}`, 413, 'PAYLOAD_TOO_LARGE'],
    ['a body that is not JSON', 'POST', { 'content-type': 'application/json' }, '{"query": ', 400, 'BAD_REQUEST'],
  ])('%s, refused before GraphQL: its own request line (path http) and the request metric', async (_name, method, headers, body, status, code) => {
    const requestId = `refused-${++n}`;
    const counted = () => metric(stack.metricsUrl, 'bff_graphql_requests_total', `outcome="${code}"`);
    const before = await counted();
    const response = await fetch(stack.bffUrl, { method, headers: { ...headers, 'x-request-id': requestId }, body });
    expect(response.status).toBe(status);
    expect(JSON.parse(await response.text()).errors[0].extensions.code).toBe(code);
    expect(lines.filter((line) => line.requestId === requestId)).toEqual([
      expect.objectContaining({ level: 30, msg: 'graphql request', operation: 'anonymous', outcome: code, errorCodes: [code], backendCalls: 0, path: 'http' }),
    ]);
    expect(await counted()).toBe(before + 1);
  });

  it('a client that goes away in the middle of its body: nothing logged at error level', async () => {
    const before = lines.length;
    const { hostname, port } = new URL(stack.bffUrl);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"query":`);
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.slice(before).filter((line) => line.level >= 50)).toEqual([]);
    expect((await send({ query: QUERY })).status).toBe(200);
  });
});
