import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { liveClient, nextPoll, streamUrl, type LiveClient } from './support.js';

const DIR = new URL('../../docs/operations/', import.meta.url);
const example = readFileSync(new URL('subscriptions/campaign-changed.graphql', DIR), 'utf8');
const variables = JSON.parse(readFileSync(new URL('subscriptions/campaign-changed.variables.json', DIR), 'utf8')) as Record<string, unknown>;
const stopExample = readFileSync(new URL('stop-campaign.graphql', DIR), 'utf8');
const stopVariables = JSON.parse(readFileSync(new URL('stop-campaign.variables.json', DIR), 'utf8')) as Record<string, unknown>;

/**
 * The subscription example of docs/operations as README describes it, in development on the
 * embedded emulator's demo data: as Apollo Sandbox connects (graphql-ws at /graphql, with or
 * without its shared Authorization header), and as the curl line reads the SSE stream.
 */
describe('docs/operations/subscriptions in development', () => {
  let stack: Stack;
  const clients: LiveClient[] = [];

  beforeAll(async () => {
    stack = await startStack({ fallbackToken: DEMO_TOKENS.store, env: { SUBSCRIPTION_POLL_INTERVAL_MS: '150' } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stack?.close();
  });

  it('runs over graphql-ws like Apollo Sandbox, and over a raw SSE stream like the curl line', async () => {
    // Sandbox without headers: the demo store, as for queries.
    const sandbox = liveClient('websocket', stack.bffUrl, null, { connectionParams: {} });
    // Sandbox with its shared header: the connection_init payload carries it as `Authorization`.
    const aggregator = liveClient('websocket', stack.bffUrl, null, { connectionParams: { Authorization: `Bearer ${DEMO_TOKENS.aggregator}` } });
    clients.push(sandbox, aggregator);
    const asStore = sandbox.subscribe(example, variables);
    const asAggregator = aggregator.subscribe(example, variables);

    const sse = await fetch(streamUrl(stack.bffUrl), {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
      body: JSON.stringify({ query: 'subscription { campaignChanged { campaign { id status } previousStatus status at } }' }),
    });
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await nextPoll(stack.metricsUrl);

    const stopped = await stack.gql(stopExample, stopVariables);
    expect(stopped.body.data.stopCampaign.userErrors).toEqual([]);
    const id = String(stopVariables.id);
    const [event] = await asStore.waitFor(1);
    expect(event!.data.campaignChanged).toMatchObject({ campaign: { id, status: 'PAUSED' }, previousStatus: 'STARTED', status: 'PAUSED' });

    const reader = sse.body!.getReader();
    let text = '';
    while (!text.includes('event: next')) text += new TextDecoder().decode((await reader.read()).value);
    const data = JSON.parse(/event: next\ndata: (.*)\n/.exec(text)![1]!);
    expect(data.data.campaignChanged).toMatchObject({ campaign: { id, status: 'PAUSED' }, status: 'PAUSED' });
    await reader.cancel();

    await nextPoll(stack.metricsUrl);
    expect(asAggregator.results).toEqual([]);
  });
});
