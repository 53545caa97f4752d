import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The caller of a request over HTTP is known from its headers before its body is read, and bounds
 * it: a token longer than any partner's is refused at the door with no backend call; an unknown
 * app key is refused before its body is read; an app key or a request without a token may send
 * kilobytes, a partner megabytes, and those only once the campaign API accepted its token; and a
 * JSON body or GET parameter nested deeper than any client's is refused before it is parsed.
 */

const QUERY = '{ categories { id } }';
const APP_KEY = 'callers-app-key';
const FIVE_MB = 5 * 1024 * 1024;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function post(stack: Stack, body: string | Buffer, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(stack.bffUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

async function get(stack: Stack, params: Record<string, string>, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${stack.bffUrl}?${new URLSearchParams(params)}`, { headers: { 'apollo-require-preflight': 'true', ...headers } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A body of about `bytes` of tiny JSON values: the costliest JSON to parse for its size. */
const tinyValues = (bytes: number) => JSON.stringify({ query: QUERY, variables: { x: Array.from({ length: Math.floor(bytes / 3) }, () => ({})) } });

describe('the caller bounds the request, before its body is read', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ appKeys: { [APP_KEY]: { name: 'Callers test', partnerTokens: [DEMO_TOKENS.store] } } });
    await stack.gql(QUERY, undefined, DEMO_TOKENS.store);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses a token longer than any partner\'s with UNAUTHENTICATED, by POST and GET, with no backend call', async () => {
    await stack.resetCalls();
    // Up to what Node's header limit lets through (a longer header is answered 431 before any of this).
    for (const length of [2049, 8 * 1024, 15 * 1024]) {
      const token = 'A'.repeat(length);
      for (const answer of [await post(stack, JSON.stringify({ query: QUERY }), { authorization: `Bearer ${token}` }), await get(stack, { query: QUERY }, { authorization: `Bearer ${token}` })]) {
        expect(answer.status).toBe(401);
        expect(answer.headers.get('www-authenticate')).toBe('Bearer');
        expect(answer.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
        expect(answer.body.errors[0].message).toContain(`holds ${length + 7} characters, more than any partner token (at most 2048)`);
        // The token is not echoed, whole or in part.
        expect(JSON.stringify(answer.body)).not.toContain('AAAAAAAA');
      }
    }
    expect(await stack.calls()).toEqual({});
    // A token of the longest length taken reaches the campaign API, which says what it thinks of it.
    const longest = await post(stack, JSON.stringify({ query: QUERY }), { authorization: `Bearer ${'B'.repeat(2048)}` });
    expect(longest.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await stack.calls()).toEqual({ 'categories/get': 1 });
  });

  it('refuses an unknown app key before its body is read, however large', async () => {
    const answer = await post(stack, tinyValues(FIVE_MB - 1024), { 'x-app-key': 'made-up-app-key' });
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('bounds an app key\'s and an anonymous body by PUBLIC_BODY_LIMIT_BYTES, declared or streamed', async () => {
    for (const headers of [{ 'x-app-key': APP_KEY }, {}] as Record<string, string>[]) {
      const answer = await post(stack, tinyValues(FIVE_MB - 1024), headers);
      expect(answer.status).toBe(413);
      expect(answer.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
      expect(answer.body.errors[0].message).toMatch(/over the limit of 65536 bytes for (an app key|a request without a partner token)/);
    }
    const small = await post(stack, JSON.stringify({ query: '{ offerFeed(first: 1) { totalCount } }' }), { 'x-app-key': APP_KEY });
    expect(small.status).toBe(200);
  });

  it('reads a partner\'s large body only once the campaign API accepted its token', async () => {
    await stack.resetCalls();
    const refused = await post(stack, tinyValues(FIVE_MB - 1024), { authorization: 'Bearer a-made-up-token-with-a-large-body' });
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // One check of the token, and nothing else.
    expect(await stack.calls()).toEqual({ 'campaigns/get-all-campaigns': 1 });
    // The demo store's token is accepted: its large body is read, and refused for its shape.
    const accepted = await post(stack, tinyValues(FIVE_MB - 1024), { authorization: `Bearer ${DEMO_TOKENS.store}` });
    expect(accepted.status).toBe(400);
    expect(accepted.body.errors[0].message).toBe('Request body holds more than 10000 objects and arrays.');
    const pins = Array.from({ length: 100_000 }, (_, i) => `PIN-${String(i).padStart(10, '0')}`);
    const upload = await post(stack, JSON.stringify({ query: 'mutation ($pins: [String!]!) { addPins(input: { campaignId: "999999", pins: $pins }) { userErrors { code } } }', variables: { pins } }), {
      authorization: `Bearer ${DEMO_TOKENS.store}`,
    });
    expect(upload.status).toBe(200);
    expect(upload.body.data.addPins.userErrors[0].code).toBe('CAMPAIGN_NOT_FOUND');
  });

  it('refuses JSON nested deeper than any client\'s, in a body or a GET parameter, naming the bound', async () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const byPost = await post(stack, `{"query":"query ($ids: [ID!]!) { campaignsByIds(ids: $ids) { id } }","variables":{"ids":${deep(2_000_000)}}}`, {
      authorization: `Bearer ${DEMO_TOKENS.store}`,
    });
    expect(byPost.status).toBe(400);
    expect(byPost.body.errors[0]).toMatchObject({ message: 'Request body nests objects and arrays more than 64 levels deep.', extensions: { code: 'BAD_REQUEST' } });
    const unused = await post(stack, `{"query":"{ categories { id } }","variables":{"unused":${deep(1000)}}}`, { authorization: `Bearer ${DEMO_TOKENS.store}` });
    expect(unused.status).toBe(400);
    const byGet = await get(stack, { query: QUERY, variables: `{"x":${deep(1000)}}` }, { authorization: `Bearer ${DEMO_TOKENS.store}` });
    expect(byGet.status).toBe(400);
    expect(byGet.body.errors[0]).toMatchObject({ message: 'The "variables" parameter nests objects and arrays more than 64 levels deep.', extensions: { code: 'BAD_REQUEST' } });
    // Brackets inside strings are text, however many.
    const strings = await post(stack, JSON.stringify({ query: QUERY, variables: { text: '['.repeat(10_000) } }), { authorization: `Bearer ${DEMO_TOKENS.store}` });
    expect(strings.status).toBe(200);
  });
});
