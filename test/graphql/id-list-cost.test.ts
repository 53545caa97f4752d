import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { warmPath } from '../helpers/executor.js';
import { cid } from '../helpers/ids.js';
import { captureLogs, type CapturedLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * A list of ids costs a backend call per id: `nodes(ids:)` and `campaignsByIds(ids:)` read each
 * id by a call of its own, so aliases of them with 100 ids each must count as hundreds of calls.
 * Refused before any call (the emulator's counters stay empty), by literal and by variables, over
 * POST on its first run and again (when a document that passes runs on the compiled path) and
 * over GET, with the limit named; what a partner legitimately asks still passes.
 */
const LIMIT = 500;
const AUTH = { authorization: `Bearer ${DEMO_TOKENS.store}` };

interface Answer {
  status: number;
  requestId: string;
  body: { data?: any; errors?: any[] };
}

let stack: Stack;
let logs: CapturedLogs;
beforeAll(async () => {
  logs = captureLogs();
  stack = await startStack({ logger: logs.logger });
  // The category directory is read once at start: the counters below are the request's alone.
  await stack.gql('{ categories { id } }');
});
afterAll(() => stack?.close());
beforeEach(() => stack.resetCalls());

async function answer(response: Response): Promise<Answer> {
  return { status: response.status, requestId: response.headers.get('x-request-id') ?? '', body: (await response.json()) as Answer['body'] };
}

const post = async (query: string, variables?: Record<string, unknown>) =>
  answer(await fetch(stack.bffUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...AUTH }, body: JSON.stringify({ query, ...(variables ? { variables } : {}) }) }));

async function get(query: string, variables?: Record<string, unknown>): Promise<Answer> {
  const url = new URL(stack.bffUrl);
  url.searchParams.set('query', query);
  if (variables) url.searchParams.set('variables', JSON.stringify(variables));
  return answer(await fetch(url, { headers: { accept: 'application/json', 'apollo-require-preflight': 'true', ...AUTH } }));
}

/** The request's log line: which path answered it and the backend calls it made. */
function logged(response: Answer): { path: string; backendCalls: number } {
  const lines = logs.entries.filter((entry) => entry.msg === 'graphql request' && entry.requestId === response.requestId);
  expect(lines).toHaveLength(1);
  return { path: lines[0]!.path, backendCalls: lines[0]!.backendCalls };
}

/** Refused by the cost limit, naming it and the estimate, with no backend call made. */
async function expectRefused(response: Answer, calls: number): Promise<void> {
  expect(response.status).toBe(400);
  expect(response.body.data).toBeUndefined();
  expect(response.body.errors).toHaveLength(1);
  const [error] = response.body.errors!;
  expect(error.message).toBe(
    `Query cost limit exceeded: this operation could make ${calls} backend calls, at most ${LIMIT} are allowed. Ask for fewer items (first, ids) or fewer nested lists.`,
  );
  expect(error.extensions).toMatchObject({ code: 'QUERY_LIMIT_EXCEEDED', limit: 'backend_calls', cost: { backendCalls: calls } });
  expect(await stack.calls(), 'no backend call').toEqual({});
}

const globalIds = (count: number, from = 1) => Array.from({ length: count }, (_, i) => cid(from + i));
const numbers = (count: number, from = 1) => Array.from({ length: count }, (_, i) => String(from + i));
const literal = (ids: string[]) => `[${ids.map((id) => JSON.stringify(id)).join(',')}]`;
/** `count` aliases of `field`, each with its own 100 ids. */
const aliased = (field: 'nodes' | 'campaignsByIds', count: number, ids: (count: number, from: number) => string[]) =>
  `{ ${Array.from({ length: count }, (_, n) => `a${n}: ${field}(ids: ${literal(ids(100, n * 100 + 1))}) { id }`).join(' ')} }`;
/** The same with the ids in variables. */
function withVariables(field: 'nodes' | 'campaignsByIds', count: number, ids: (count: number, from: number) => string[]) {
  const names = Array.from({ length: count }, (_, n) => `v${n}`);
  return {
    query: `query Many(${names.map((v) => `$${v}: [ID!]!`).join(', ')}) { ${names.map((v, n) => `a${n}: ${field}(ids: $${v}) { id }`).join(' ')} }`,
    variables: Object.fromEntries(names.map((v, n) => [v, ids(100, n * 100 + 1)])),
  };
}

describe('a list of ids costs a call per id', () => {
  describe.each(['nodes', 'campaignsByIds'] as const)('%s', (field) => {
    const ids = field === 'nodes' ? globalIds : numbers;

    it('15 aliases of 100 literal ids: refused before any call over POST, first and again', async () => {
      const query = aliased(field, 15, ids);
      await expectRefused(await post(query), 1500);
      await expectRefused(await post(query), 1500);
    });

    it('15 aliases of 100 ids in variables: refused before any call over POST, first and again', async () => {
      const { query, variables } = withVariables(field, 15, ids);
      await expectRefused(await post(query, variables), 1500);
      await expectRefused(await post(query, variables), 1500);
    });

    it('over GET, by literal and by variables', async () => {
      // Short ids keep the URL within the request line's limit: the cost is counted before any id is read.
      const short = (count: number, from: number) => numbers(count, from);
      await expectRefused(await get(aliased(field, 6, short)), 600);
      const { query, variables } = withVariables(field, 6, short);
      await expectRefused(await get(query, variables), 600);
    });
  });

  it('nodes with 5,000 ids is refused without a backend call', async () => {
    const ids = globalIds(5000);
    await expectRefused(await post('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids }), 5000);
    // Written into the document, so many ids pass the token limit first.
    const literally = await post(`{ nodes(ids: ${literal(ids)}) { id } }`);
    expect(literally.status).toBe(400);
    expect(literally.body.errors![0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(await stack.calls()).toEqual({});
  });

  it('campaignsByIds of 50 ids and nodes of 100 ids still answer, each id read once, first on Apollo then on the warm path', async () => {
    const byIds = 'query ByIds($ids: [ID!]!) { campaignsByIds(ids: $ids) { id card { title } } }';
    const nodes = 'query Nodes($ids: [ID!]!) { nodes(ids: $ids) { id ... on Campaign { status card { title } } } }';
    for (const [query, variables, calls] of [
      [byIds, { ids: numbers(50) }, 50],
      [nodes, { ids: globalIds(100) }, 100],
    ] as const) {
      const answers: Answer[] = [];
      for (let run = 0; run < 2; run++) {
        await stack.resetCalls();
        const response = await post(query, variables);
        expect(response.status).toBe(200);
        expect(response.body.errors).toBeUndefined();
        expect(await stack.calls()).toEqual({ 'campaigns/get': calls });
        expect(logged(response).backendCalls).toBe(calls);
        answers.push(response);
      }
      expect(answers.map((response) => logged(response).path)).toEqual(['apollo', warmPath]);
      expect(answers[1]!.body).toEqual(answers[0]!.body);
      const list = Object.values(answers[0]!.body.data)[0] as ({ id: string; card: { title: string } } | null)[];
      expect(list).toHaveLength(calls);
      // The store's own campaigns answer; another partner's and unknown ids are null in their places.
      expect(list[0]).toMatchObject({ id: cid(1), card: { title: 'Техно Мир' } });
      expect(list.at(-1)).toBeNull();
    }
    // Over GET too.
    await stack.resetCalls();
    const response = await get('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: globalIds(100) });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(await stack.calls()).toEqual({ 'campaigns/get': 100 });
  });

  it('the limit holds the sum: 5 aliases of 100 ids pass, with a sixth they are refused', async () => {
    const five = withVariables('campaignsByIds', 5, numbers);
    const within = await post(five.query, five.variables);
    expect(within.status).toBe(200);
    expect(within.body.errors).toBeUndefined();
    expect(await stack.calls()).toEqual({ 'campaigns/get': 500 });
    await stack.resetCalls();
    const six = withVariables('campaignsByIds', 6, numbers);
    await expectRefused(await post(six.query, six.variables), 600);
  });
});
