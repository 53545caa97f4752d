import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ERROR_CODES, SERVER_ERROR_CODES } from '../../src/observability/outcomes.js';
import { createSchema } from '../../src/server/schema.js';
import { DEMO_APP, DEMO_APP_KEY } from '../apps/support.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * docs/errors.md, the one list of error codes: it has every code the server counts and every
 * `UserErrorCode`, the pages a client developer reads link to it, and the HTTP status it gives a
 * code is the one the server answers (tried here over real HTTP).
 */
const page = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
/** The table rows: code → its cells. */
const rows = new Map([...page.matchAll(/^\| `([A-Z_]+)`(?:, `([A-Z_]+)`)? \|(.*)\|$/gm)].flatMap((m) => [m[1]!, ...(m[2] ? [m[2]] : [])].map((code) => [code, m[3]!] as const)));
const requestTable = page.slice(page.indexOf('## Request and field codes'), page.indexOf('## Mutation user errors'));
const statusCell = (code: string) => [...requestTable.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)].find((m) => m[1] === code)?.[2] ?? '';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ appKeys: DEMO_APP });
});
afterAll(() => stack?.close());

describe('docs/errors.md', () => {
  it('lists every code the server answers and every UserErrorCode', () => {
    const missing = [...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES].filter((code) => !statusCell(code));
    expect(missing).toEqual([]);
    const userErrorCodes = (createSchema().getType('UserErrorCode') as unknown as { getValues(): { name: string }[] }).getValues().map((v) => v.name);
    expect(userErrorCodes.filter((code) => !rows.has(code))).toEqual([]);
  });

  it('is linked from the pages a client developer reads', () => {
    for (const file of ['README.md', 'client/README.md', 'docs/frontends.md', 'docs/apps.md', 'docs/live-status.md']) {
      expect(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'), file).toMatch(/\]\((?:\.\.\/|\.\/)?(?:docs\/)?errors\.md(?:#[\w-]+)?\)/);
    }
  });

  it('gives each code the HTTP status the server answers it with', async () => {
    const send = async (body: unknown, headers: Record<string, string> = { authorization: 'Bearer demo-store-token' }, init: RequestInit = {}) => {
      const response = await fetch(stack.bffUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body), ...init });
      const answer = (await response.json()) as { errors?: { extensions?: { code?: string } }[]; data?: unknown };
      return { status: response.status, code: answer.errors?.[0]?.extensions?.code };
    };
    const hash = 'a'.repeat(64);
    const tried = [
      await send({ query: '{ categories { id } }' }, {}),
      await send({ query: '{ categories { id } }' }, { 'x-app-key': 'no-such-key' }),
      await send({ query: '{ campaigns { totalCount } }' }, { 'x-app-key': DEMO_APP_KEY }),
      await send('{'),
      await send({ query: '{ categories { id }' }),
      await send({ query: '{ nope }' }),
      await send({ query: 'query A { categories { id } } query B { categories { id } }' }),
      await send({ query: '{ campaigns(first: 1000) { totalCount } }' }),
      await send({ query: 'query ($first: Int) { campaigns(first: $first) { totalCount } }', variables: { first: 'ten' } }),
      await send({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }),
      await send({ documentId: `sha256:${hash}` }),
      await send({ query: '{ categories { id } }' }, { authorization: 'Bearer demo-store-token' }, { method: 'PUT' }),
      await send({ query: '{ categories { id } }' }, { authorization: 'Bearer demo-store-token', 'content-type': 'text/plain' }),
      await send({ query: '{ categories { id } }' }, { authorization: 'Bearer demo-store-token', accept: 'text/csv' }),
    ];
    const wrong = tried.filter(({ status, code }) => !code || !new RegExp(`(?:^|[^\\d])${status}(?:[^\\d]|$)`).test(statusCell(code)));
    expect(wrong).toEqual([]);
    // Each kind of answer above was tried: a code per row.
    expect(new Set(tried.map((t) => t.code)).size).toBeGreaterThanOrEqual(11);
  });
});
