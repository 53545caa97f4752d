#!/usr/bin/env node
// Watches campaign status changes over GraphQL over WebSocket (graphql-ws), as a dashboard would,
// and prints each event. Against `npm start`:
//
//   node docs/operations/subscriptions/watch.mjs            every campaign of the demo store
//   node docs/operations/subscriptions/watch.mjs 1 2        only campaigns 1 and 2
//   TOKEN=demo-aggregator-token BFF_URL=ws://localhost:4000/graphql node docs/operations/subscriptions/watch.mjs
import { readFileSync } from 'node:fs';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const url = process.env.BFF_URL ?? 'ws://localhost:4000/graphql';
const token = process.env.TOKEN ?? 'demo-store-token';
const ids = process.argv.slice(2);
const query = readFileSync(new URL('./campaign-changed.graphql', import.meta.url), 'utf8');

const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` } });
console.error(`watching ${ids.length ? `campaigns ${ids.join(', ')}` : 'every campaign'} at ${url}; Ctrl-C to stop`);
client.subscribe(
  { query, variables: { ids: ids.length ? ids : null } },
  {
    next: (result) => console.log(JSON.stringify(result)),
    error: (error) => {
      console.error('subscription failed:', error instanceof Error ? error.message : JSON.stringify(error));
      process.exit(1);
    },
    complete: () => process.exit(0),
  },
);
process.on('SIGINT', () => client.dispose().then(() => process.exit(0)));
