import { isDeepStrictEqual } from 'node:util';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { DEMO_APP_KEY } from '../apps/support.js';
import type { CapturedLogs } from '../helpers/log-capture.js';
import { metric, streamUrl, wsUrl } from '../subscriptions/support.js';
import { describe } from './support.js';

/**
 * How the differential test talks to a BFF, and what it compares: over HTTP (POST, GET) the
 * status, the headers a client acts on, the body byte for byte and the request's log line; over
 * the streams (the graphql-ws protocol on WebSocket, graphql-sse's distinct connections) what the
 * client is told: a refusal of the caller, errors, a first result, or a subscription that runs.
 */

/** One BFF under test: where it listens, and its log lines. */
export interface Bff {
  readonly name: string;
  readonly url: string;
  readonly metricsUrl: string;
  readonly logs: CapturedLogs;
}

export type CallerName = 'partner' | 'app' | 'none' | 'refused';
export const CALLERS: readonly CallerName[] = ['partner', 'app', 'none', 'refused'];

/** A caller's headers. `refused` names a token the campaign API refuses, new for each run of a property. */
export function headersOf(caller: CallerName, refused: string): Record<string, string> {
  if (caller === 'partner') return { authorization: `Bearer ${DEMO_TOKENS.store}` };
  if (caller === 'app') return { 'x-app-key': DEMO_APP_KEY };
  if (caller === 'refused') return { authorization: `Bearer ${refused}` };
  return {};
}

/** A GraphQL request as its JSON body: a text, a trusted document's id, or a persisted query's hash (in `extensions`). */
export type Payload = Readonly<Record<string, unknown>> & { readonly variables: Record<string, unknown> };

/** What the request's log line says, but where it was answered (which differs by design). */
export interface LogLine {
  operation: unknown;
  operationType: unknown;
  outcome: unknown;
  errorCodes: unknown;
  backendCalls: unknown;
}

export interface Observed {
  status: number;
  headers: Record<string, string | null>;
  body: string;
  log: LogLine;
  /** Lines at level error the request caused (an error that left as an internal one). */
  unexpected: number;
  /** What answered (apollo, compiled, remembered, gate, http): shown, not compared. */
  path: string;
}

export const HEADERS = ['content-type', 'cache-control', 'etag', 'vary', 'allow', 'retry-after'];
/** The longest GET URL sent: Node refuses a longer request line (431) before the server sees it. */
export const MAX_GET_URL = 8000;

let requests = 0;

/** A GET of the request: strings as they are, objects (variables, extensions) as JSON. */
export function getUrl(bff: Bff, payload: Payload): string {
  const params = Object.entries(payload).map(([name, value]): [string, string] => [name, typeof value === 'string' ? value : JSON.stringify(value)]);
  return `${bff.url}?${new URLSearchParams(params)}`;
}

export const fitsGet = (bff: Bff, payload: Payload) => getUrl(bff, payload).length <= MAX_GET_URL;

export async function send(bff: Bff, method: 'POST' | 'GET', payload: Payload, headers: Record<string, string>): Promise<Observed> {
  const requestId = `parity-${++requests}`;
  const response =
    method === 'POST'
      ? await fetch(bff.url, { method, headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...headers }, body: JSON.stringify(payload) })
      : await fetch(getUrl(bff, payload), { headers: { 'apollo-require-preflight': 'true', 'x-request-id': requestId, ...headers } });
  const body = await response.text();
  const lines = bff.logs.entries.filter((entry) => entry.requestId === requestId);
  const line = lines.find((entry) => entry.msg === 'graphql request');
  // Every request to /graphql has its line: one missing would leave nothing to compare.
  if (!line) throw new Error(`${bff.name} logged no line for ${method} ${describe(payload)}: ${response.status} ${body.slice(0, 300)}`);
  return {
    status: response.status,
    headers: Object.fromEntries(HEADERS.map((name) => [name, response.headers.get(name)])),
    body,
    log: { operation: line.operation, operationType: line.operationType, outcome: line.outcome, errorCodes: line.errorCodes, backendCalls: line.backendCalls },
    unexpected: lines.filter((entry) => entry.level >= 50).length,
    path: line.path,
  };
}

const show = (observed: Observed) => describe({ ...observed, body: observed.body.length > 1500 ? `${observed.body.slice(0, 1500)}…` : observed.body });

export interface AgreeOptions {
  /** Headers that differ by design between the two (an app's cacheable GET has caching headers). */
  exceptHeaders?: readonly string[];
  /**
   * The same step of the same sequence on two instances: the backend calls must agree too. Between
   * a first run and a later one they need not (the later one may find what the first one read).
   */
  sameStep?: boolean;
}

/** Fails with the request and both answers unless they agree on every field compared. */
export function agree(request: string, [nameA, a]: [string, Observed], [nameB, b]: [string, Observed], options: AgreeOptions = {}): void {
  const except = options.exceptHeaders ?? [];
  const logOf = (observed: Observed) => (options.sameStep ? observed.log : { ...observed.log, backendCalls: undefined });
  const differ = [
    ...(a.status === b.status ? [] : ['status']),
    ...HEADERS.filter((name) => !except.includes(name) && a.headers[name] !== b.headers[name]),
    ...(a.body === b.body ? [] : ['body']),
    ...(isDeepStrictEqual(logOf(a), logOf(b)) ? [] : ['log line']),
    ...(a.unexpected === b.unexpected ? [] : ['unexpected errors logged']),
  ];
  if (!differ.length) return;
  let at = 0;
  while (at < a.body.length && a.body[at] === b.body[at]) at++;
  const around = (body: string) => JSON.stringify(body.slice(Math.max(0, at - 200), at + 300));
  const bodies = differ.includes('body') ? `\nthe bodies differ from character ${at}:\n${nameA}: …${around(a.body)}…\n${nameB}: …${around(b.body)}…` : '';
  throw new Error(`${nameA} and ${nameB} disagree on ${differ.join(', ')}\nrequest: ${request}\n${nameA}: ${show(a)}\n${nameB}: ${show(b)}${bodies}`);
}

/**
 * A GET answer against the POST answer of the same request: the same but for its caching headers,
 * which only an app's cacheable GET has (public, validated, varying by Origin, X-App-Key and Accept,
 * and by Accept-Encoding when it is long enough to be compressed).
 */
export function agreeGet(request: string, post: [string, Observed], get: [string, Observed], caller: CallerName, options: AgreeOptions = {}): void {
  const cacheable = get[1].headers['cache-control']?.startsWith('public');
  if (cacheable && (caller !== 'app' || get[1].status !== 200 || post[1].headers['cache-control'] !== 'no-store' || !get[1].headers.etag || !/^Origin, X-App-Key, Accept(?:, Accept-Encoding)?$/.test(get[1].headers.vary ?? ''))) {
    throw new Error(`a public GET answer where none may be\nrequest: ${request}\n${post[0]}: ${show(post[1])}\n${get[0]}: ${show(get[1])}`);
  }
  agree(request, post, get, { ...options, exceptHeaders: cacheable ? ['cache-control', 'etag', 'vary'] : [] });
}

/** How a subscription request ended: the caller refused, errors, a first result, or running. */
export type LiveOutcome = { refused: number } | { errors: unknown } | { result: unknown } | { running: true };
export type Stream = 'websocket' | 'sse';

/** The same refusal by either stream: a WebSocket close code and an HTTP status (4400: graphql-ws's bad request). */
const CLOSE_STATUS: Record<number, number> = { 4400: 400, 4401: 401, 4403: 403, 4429: 429 };

/**
 * A result of the first event: errors alone whether they came before execution or from it. The
 * streams frame these apart differently (graphql-ws: an `error` message before execution, a
 * `next` after; graphql-sse: a `next` either way), so what the client is told is the errors.
 */
const resultOf = (result: Record<string, unknown>): LiveOutcome => (Object.keys(result).length === 1 && result.errors ? { errors: result.errors } : { result });

/** Whether two outcomes say the same, whichever stream each came over. */
export function sameOutcome(a: LiveOutcome, b: LiveOutcome): boolean {
  if ('refused' in a && 'refused' in b) return (CLOSE_STATUS[a.refused] ?? a.refused) === (CLOSE_STATUS[b.refused] ?? b.refused);
  return isDeepStrictEqual(a, b);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the instance holds a running subscription (it is watching for events). */
async function running(bff: Bff, settled: () => boolean): Promise<{ running: true } | undefined> {
  while (!settled()) {
    if ((await metric(bff.metricsUrl, 'bff_live_subscriptions')) > 0) return { running: true };
    await sleep(15);
  }
  return undefined;
}

/** Waits until the instance holds no subscription: each run sees only its own. */
export async function noneRunning(bff: Bff): Promise<boolean> {
  const deadline = Date.now() + 5000;
  while ((await metric(bff.metricsUrl, 'bff_live_subscriptions')) > 0) {
    if (Date.now() > deadline) return false;
    await sleep(15);
  }
  return true;
}

/** A subscription over the graphql-ws protocol: the app key on the upgrade, a partner token in `connection_init`. */
async function overWebSocket(bff: Bff, headers: Record<string, string>, payload: Payload): Promise<LiveOutcome> {
  const socket = new WebSocket(wsUrl(bff.url), 'graphql-transport-ws', { headers: headers['x-app-key'] ? { 'x-app-key': headers['x-app-key'] } : {} });
  let settled = false;
  try {
    const outcome = new Promise<LiveOutcome>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('close', (code) => resolve({ refused: code }));
      socket.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload }));
        else if (message.type === 'error') resolve({ errors: message.payload });
        else if (message.type === 'next') resolve(resultOf(message.payload));
      });
      socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: headers.authorization ? { authorization: headers.authorization } : {} })));
    }).finally(() => (settled = true));
    return (await Promise.race([outcome, running(bff, () => settled)]))!;
  } finally {
    settled = true;
    socket.terminate();
  }
}

/** A subscription over graphql-sse (distinct connections: one POST per subscription). */
async function overSse(bff: Bff, headers: Record<string, string>, payload: Payload): Promise<LiveOutcome> {
  const abort = new AbortController();
  let settled = false;
  try {
    const response = await fetch(streamUrl(bff.url), {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(payload),
      signal: abort.signal,
    });
    if (response.status !== 200) {
      await response.arrayBuffer();
      return { refused: response.status };
    }
    const reader = response.body!.getReader();
    const outcome = (async (): Promise<LiveOutcome> => {
      let text = '';
      for (;;) {
        const next = /event: next\ndata: (.*)\n/.exec(text);
        if (next) return resultOf(JSON.parse(next[1]!));
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended without a result: ${text}`);
        text += new TextDecoder().decode(value);
      }
    })().finally(() => (settled = true));
    return (await Promise.race([outcome, running(bff, () => settled)]))!;
  } finally {
    settled = true;
    abort.abort();
  }
}

export const subscribe = (stream: Stream, bff: Bff, headers: Record<string, string>, payload: Payload): Promise<LiveOutcome> =>
  stream === 'websocket' ? overWebSocket(bff, headers, payload) : overSse(bff, headers, payload);
