import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { activeTracer } from '../../src/tracing/index.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** Tracing off (no OTEL_* variables, as in every other suite): the BFF as it always was. */
describe('tracing off', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it("starts nothing, and a client's traceparent goes no further than the BFF", async () => {
    expect(activeTracer()).toBeUndefined();
    await stack.admin('requests', undefined, 'DELETE');
    const response = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${DEMO_TOKENS.store}`,
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
      body: JSON.stringify({ query: '{ campaigns(first: 2) { nodes { id card { title } } } }' }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).data.campaigns.nodes).toHaveLength(2);
    const { requests } = await stack.admin('requests');
    expect(requests.map((r: { operation: string }) => r.operation).sort()).toEqual(['campaigns/get', 'campaigns/get', 'campaigns/get-all-campaigns']);
    expect(requests.every((r: { traceparent: string | null }) => r.traceparent === null)).toBe(true);
  });
});
