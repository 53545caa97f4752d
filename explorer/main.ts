import { GraphiQL, type GraphiQLProps } from 'graphiql';
import 'graphiql/style.css';
import './page.css';
import { getOperationAST, parse } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * The bundled explorer a browser gets at /graphql in development: GraphiQL, bundled with
 * everything it loads (editor workers, styles, fonts) and served by the BFF itself, so it works
 * offline and behind a proxy that lets only the API's origin through. It is the page itself with
 * `EXPLORER=graphiql`, and what Apollo Sandbox's page turns to when Sandbox cannot load
 * (sandbox.ts). Queries and mutations go over HTTP, subscriptions over the same origin's WebSocket.
 */

interface ExplorerConfig {
  /** The operation the first tab opens with. */
  query: string;
  /** The headers every tab opens with, as JSON (the demo token on the embedded emulator). */
  headers: string;
}

/** The editor's workers, bundled beside this file under names the build gives them. */
declare const EXPLORER_WORKERS: Record<'editor' | 'json' | 'graphql', string>;

(globalThis as { MonacoEnvironment?: unknown }).MonacoEnvironment = {
  getWorker(_id: string, label: string): Worker {
    const name = label === 'json' ? EXPLORER_WORKERS.json : label === 'graphql' ? EXPLORER_WORKERS.graphql : EXPLORER_WORKERS.editor;
    return new Worker(new URL(name, import.meta.url));
  },
};

const config = JSON.parse(document.getElementById('explorer-config')!.textContent!) as ExplorerConfig;
const endpoint = new URL(window.location.pathname, window.location.origin);
const socketUrl = new URL(endpoint);
socketUrl.protocol = endpoint.protocol === 'https:' ? 'wss:' : 'ws:';

/** One WebSocket per set of headers: they go as the connection's init payload, as the server reads them there. */
const sockets = new Map<string, Client>();
function socketFor(headers: Record<string, string>): Client {
  const key = JSON.stringify(headers);
  let client = sockets.get(key);
  if (!client) {
    const payload = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    sockets.set(key, (client = createClient({ url: socketUrl.href, connectionParams: payload, lazy: true })));
  }
  return client;
}

function isSubscription(query: string, operationName: string | null | undefined): boolean {
  try {
    return getOperationAST(parse(query), operationName ?? undefined)?.operation === 'subscription';
  } catch {
    return false;
  }
}

const fetcher: GraphiQLProps['fetcher'] = async (params, options) => {
  const headers = { ...(options?.headers as Record<string, string> | undefined) };
  if (isSubscription(params.query, params.operationName)) {
    return socketFor(headers).iterate({ query: params.query, variables: params.variables ?? null, operationName: params.operationName ?? null });
  }
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
    body: JSON.stringify(params),
  });
  return response.json();
};

createRoot(document.getElementById('explorer')!).render(
  createElement(GraphiQL, { fetcher, defaultQuery: config.query, defaultHeaders: config.headers, initialHeaders: config.headers, shouldPersistHeaders: false }),
);
