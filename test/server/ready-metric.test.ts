import { describe, expect, it } from 'vitest';
import { metric } from '../subscriptions/support.js';
import { startStack } from '../helpers/stack.js';

describe('bff_ready', () => {
  it('is 1 while /readyz answers ready, and 0 from the moment shutdown begins, while the metrics port still answers', async () => {
    const stack = await startStack();
    const readyz = stack.bffUrl.replace('/graphql', '/readyz');
    expect((await fetch(readyz)).status).toBe(200);
    expect(await metric(stack.metricsUrl, 'bff_ready')).toBe(1);

    const closing = stack.bff.close({ delayMs: 1000 });
    expect((await fetch(readyz)).status).toBe(503);
    expect(await metric(stack.metricsUrl, 'bff_ready')).toBe(0);
    await closing;
    await stack.close();
  });
});
