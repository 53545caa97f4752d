import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { captureLogs, type CapturedLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * Requests for an answer another request is making right now wait for it and are sent its bytes
 * (src/pipeline/response-cache.ts): a burst of the same query on a cold cache is executed once. The
 * wait is no way around a policy or a deadline: a caller a remembered answer would not be given
 * executes itself, a request whose maker remembered nothing executes itself, and a request that
 * waits does so within its own deadline. Real HTTP, the embedded emulator as the backend.
 */

const CATEGORIES = 'query Categories { categories { id name } }';
const BURST = 20;
const DEADLINE_MS = 1500;

interface Answer {
  status: number;
  requestId: string;
  text: string;
}

async function post(stack: Stack, token: string = DEMO_TOKENS.store): Promise<Answer> {
  const response = await fetch(stack.bffUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: CATEGORIES }),
  });
  return { status: response.status, requestId: response.headers.get('x-request-id') ?? '', text: await response.text() };
}

const burst = (stack: Stack, tokens: readonly string[] = Array.from({ length: BURST }, () => DEMO_TOKENS.store)) => Promise.all(tokens.map((token) => post(stack, token)));

describe('answers being made', () => {
  let stack: Stack;
  let logs: CapturedLogs;

  const linesOf = (answers: readonly Answer[]) =>
    answers.map((answer) => {
      const lines = logs.entries.filter((entry) => entry.msg === 'graphql request' && entry.requestId === answer.requestId);
      expect(lines).toHaveLength(1);
      return lines[0]!;
    });

  // Each test starts from a cold process: nothing remembered, the category directory unread.
  beforeEach(async () => {
    logs = captureLogs();
    stack = await startStack({ logger: logs.logger, env: { REQUEST_TIMEOUT_MS: String(DEADLINE_MS) } });
  });
  afterEach(async () => {
    await stack?.close();
  });

  it('executes a burst of the same query on a cold cache once and sends every request the bytes it made', async () => {
    // The directory read takes a while, so the whole burst arrives while the first request runs.
    await stack.admin('faults', { mode: 'latency', operation: 'categories/get', latencyMs: 300 });
    const answers = await burst(stack);

    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(JSON.parse(answers[0]!.text).data.categories).toHaveLength(12);
    const paths = linesOf(answers).map((line) => line.path);
    expect(paths.filter((path) => path !== 'remembered')).toHaveLength(1);
    expect(paths.filter((path) => path === 'remembered')).toHaveLength(BURST - 1);
    for (const line of linesOf(answers)) expect(line).toMatchObject({ operation: 'Categories', outcome: 'ok' });
    expect((await stack.calls())['categories/get']).toBe(1);
  });

  it('has a caller the campaign API has not accepted execute itself, and refuses it as an execution does', async () => {
    await stack.admin('faults', { mode: 'latency', operation: 'categories/get', latencyMs: 300 });
    const unknown = 'a-token-nobody-issued';
    const tokens = Array.from({ length: BURST }, (_, i) => (i % 4 === 3 ? unknown : DEMO_TOKENS.store));
    const answers = await burst(stack, tokens);
    const lines = linesOf(answers);

    answers.forEach((answer, i) => {
      const body = JSON.parse(answer.text);
      if (tokens[i] === unknown) {
        expect(body.data).toEqual({ categories: null });
        expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
        expect(lines[i]!.path).not.toBe('remembered');
      } else {
        expect(body.data.categories).toHaveLength(12);
        expect(body.errors).toBeUndefined();
      }
    });
  });

  it('answers every request of a burst whose answer could not be made, and makes the next burst once', async () => {
    // Refused by the campaign API (a 4xx, which opens no breaker): an answer with errors is never remembered.
    await stack.admin('faults', { mode: 'http4xx', operation: 'categories/get', httpStatus: 429 });
    const failed = await burst(stack);
    for (const answer of failed) {
      const body = JSON.parse(answer.text);
      expect(body.data).toEqual({ categories: null });
      expect(body.errors).toHaveLength(1);
    }

    // Nothing is left waiting on the answer that was not made: the next burst is made once.
    await stack.admin('faults', { mode: 'latency', operation: 'categories/get', latencyMs: 300 });
    const answers = await burst(stack);
    expect(new Set(answers.map((answer) => JSON.parse(answer.text).data.categories.length))).toEqual(new Set([12]));
    expect(linesOf(answers).filter((line) => line.path !== 'remembered')).toHaveLength(1);
  });

  it('keeps each waiting request to its own deadline', async () => {
    await stack.admin('faults', { mode: 'hang', operation: 'categories/get' });
    const started = performance.now();
    const answers = await burst(stack);
    const elapsed = performance.now() - started;

    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('REQUEST_TIMEOUT');
    }
    // A request that waited out the first one's deadline and then ran would answer a deadline later.
    expect(elapsed).toBeLessThan(2 * DEADLINE_MS);
  });
});
