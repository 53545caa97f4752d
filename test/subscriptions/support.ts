import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import WebSocket from 'ws';

export type Transport = 'websocket' | 'sse';

export const CAMPAIGN_CHANGED = `subscription Changed($ids: [ID!]) {
  campaignChanged(ids: $ids) { campaign { id status } previousStatus status at }
}`;

export interface Received {
  data?: any;
  errors?: any[];
}

/** One subscription as a test sees it: what arrived, in order, and ways to wait for more. */
export interface Subscription {
  results: Received[];
  /** Resolves when `count` results have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  /** Resolves when the server completed it (or it failed). */
  ended: Promise<{ error?: unknown }>;
  unsubscribe(): void;
}

/** A real client of one transport for one token: graphql-ws's client, or graphql-sse's. */
export interface LiveClient {
  /** `extra`: more of the payload, such as `extensions` or `documentId` (trusted documents). */
  subscribe(query: string, variables?: Record<string, unknown>, extra?: Record<string, unknown>): Subscription;
  close(): Promise<void>;
  /** WebSocket only: the close event of the socket, once it closed. */
  closed?: Promise<{ code: number; reason: string }>;
}

export function wsUrl(bffUrl: string): string {
  return bffUrl.replace(/^http/, 'ws');
}

export function streamUrl(bffUrl: string): string {
  return `${bffUrl}/stream`;
}

function track(start: (sink: { next(value: Received): void; error(error: unknown): void; complete(): void }) => () => void): Subscription {
  const results: Received[] = [];
  const waiters: (() => void)[] = [];
  let end!: (value: { error?: unknown }) => void;
  const ended = new Promise<{ error?: unknown }>((resolve) => (end = resolve));
  const notify = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const stop = start({
    next(value) {
      results.push(value);
      notify();
    },
    error(error) {
      end({ error });
      notify();
    },
    complete() {
      end({});
      notify();
    },
  });
  let done = false;
  void ended.then(() => (done = true));
  return {
    results,
    ended,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (results.length < count) {
        if (done) throw new Error(`the subscription ended after ${results.length} of ${count} results: ${JSON.stringify(results)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`only ${results.length} of ${count} results within ${timeoutMs} ms: ${JSON.stringify(results)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return results.slice(0, count);
    },
    unsubscribe: () => stop(),
  };
}

export function liveClient(transport: Transport, bffUrl: string, token: string | null, options: { connectionParams?: Record<string, unknown>; keepOpen?: boolean } = {}): LiveClient {
  if (transport === 'websocket') {
    let resolveClosed!: (value: { code: number; reason: string }) => void;
    const closed = new Promise<{ code: number; reason: string }>((resolve) => (resolveClosed = resolve));
    const client: WsClient = createWsClient({
      url: wsUrl(bffUrl),
      webSocketImpl: WebSocket,
      connectionParams: options.connectionParams ?? (token === null ? {} : { authorization: `Bearer ${token}` }),
      retryAttempts: 0,
      // Lazy: the socket opens with the first subscription and closes after the last one;
      // `keepOpen` holds it open to see how the server closes it.
      lazy: !options.keepOpen,
      // The server closing a kept-open socket is what such tests look at, not an error to print.
      onNonLazyError: () => {},
      on: {
        closed: (event: any) => resolveClosed({ code: event.code, reason: String(event.reason) }),
      },
    });
    return {
      subscribe: (query, variables, extra) => track((sink) => client.subscribe({ query, ...(variables ? { variables } : {}), ...extra }, sink as any)),
      close: () => client.dispose() as Promise<void>,
      closed,
    };
  }
  const client: SseClient = createSseClient({
    url: streamUrl(bffUrl),
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  return {
    subscribe: (query, variables, extra) => track((sink) => client.subscribe({ query, ...(variables ? { variables } : {}), ...extra }, sink as any)),
    close: async () => client.dispose(),
  };
}

/** Reads a counter or gauge of the BFF's /metrics (its own listener: `metricsUrl`), summed over its labels or of one label set. */
export async function metric(metricsUrl: string | undefined, name: string, labels?: string): Promise<number> {
  if (!metricsUrl) throw new Error('this BFF serves no metrics (METRICS_PORT=off)');
  const text = await (await fetch(metricsUrl)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (!(rest.startsWith(' ') || rest.startsWith('{'))) continue;
    if (labels && !rest.includes(labels)) continue;
    sum += Number(line.split(' ').pop());
  }
  return sum;
}

export async function until<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits for the next successful status read of the instance (the record that later reads are compared with). */
export async function nextPoll(metricsUrl: string | undefined): Promise<void> {
  const before = await metric(metricsUrl, 'bff_live_polls_total', 'outcome="success"');
  await until('a status read', async () => (await metric(metricsUrl, 'bff_live_polls_total', 'outcome="success"')) > before);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens a raw graphql-ws socket (with these handshake headers) and sends `connection_init` with
 * this payload: 'ack' once the server took it (the socket is then closed), or how it closed the
 * socket.
 */
export async function socketInit(bffUrl: string, payload: Record<string, unknown>, headers: Record<string, string> = {}): Promise<'ack' | { code: number; reason: string }> {
  const socket = new WebSocket(wsUrl(bffUrl), 'graphql-transport-ws', { headers });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return new Promise((resolve) => {
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type !== 'connection_ack') return;
      resolve('ack');
      socket.close(1000);
    });
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) }));
    socket.send(JSON.stringify({ type: 'connection_init', payload }));
  });
}

/** `socketInit` with the token as a partner's client sends it: 'ack', or the code the socket was closed with. */
export async function connectionInit(bffUrl: string, token: string): Promise<'ack' | { code: number }> {
  const told = await socketInit(bffUrl, { authorization: `Bearer ${token}` });
  return told === 'ack' ? told : { code: told.code };
}

/**
 * An SSE request whose token is checked, with a body that is then refused for itself (a query that is not a string):
 * 400 when the token was taken, 401 when it was refused, and no subscription either way.
 */
export async function streamTokenCheck(bffUrl: string, token: string): Promise<number> {
  const response = await fetch(streamUrl(bffUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: '{"query":1}',
  });
  await response.arrayBuffer();
  return response.status;
}
