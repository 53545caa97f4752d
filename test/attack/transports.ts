import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';

/**
 * How the attack suite speaks each transport, at the level of bytes: what a hostile client sends
 * is sent as it is (a URL of megabytes, a message past the frame limit, a token past the header
 * limit), with node's own HTTP client and `ws`, never a GraphQL client that would refuse to send
 * it. Each exchange ends in an `Outcome`, the whole of what came back; `refusalOf` reads it as a
 * refusal or not.
 */

/** The transports a hostile input is sent over. */
export type TransportName = 'post' | 'get' | 'sse' | 'ws-init' | 'ws-subscribe' | 'ws-header';

/**
 * A GraphQL request's parameters as JSON texts, so that a value of megabytes is built once and
 * sent as it is: `variables` and `extensions` are JSON texts, never parsed here.
 */
export interface Params {
  /** A body (or `subscribe` payload) sent as it is, in place of the others: what is not a GraphQL request at all. */
  raw?: string;
  query?: string;
  documentId?: string;
  operationName?: string;
  variables?: string;
  extensions?: string;
}

/** What a caller presents: headers over HTTP and SSE, entries of `connection_init` over WebSocket (or the upgrade's headers). */
export interface Credentials {
  headers: Record<string, string>;
  /** The `connection_init` payload's entries; the same names as the headers unless a test says otherwise. */
  init?: Record<string, string>;
}

/** What came back, whole. */
export type Outcome =
  | { kind: 'http'; status: number; headers: IncomingHttpHeaders; text: string; body: any }
  | { kind: 'stream'; status: number; results: Array<{ data?: unknown; errors?: any[] }>; completed: boolean }
  | { kind: 'ws-closed'; code: number; reason: string; acked: boolean; messages: any[] }
  | { kind: 'ws-error'; errors: any[]; messages: any[] }
  | { kind: 'ws-next'; payload: any; completed: boolean; messages: any[] }
  | { kind: 'ws-acked' }
  | { kind: 'upgrade-refused'; status: number; text: string; body: any }
  | { kind: 'no-answer'; why: string };

/** How long an answer may take before the exchange counts as a hang (far beyond any real answer). */
const HANG_MS = 10_000;

/** The JSON text of a request body (or a `subscribe` payload) holding these parameters. */
export function bodyOf(params: Params): string {
  if (params.raw !== undefined) return params.raw;
  const parts: string[] = [];
  if (params.query !== undefined) parts.push(`"query":${JSON.stringify(params.query)}`);
  if (params.documentId !== undefined) parts.push(`"documentId":${JSON.stringify(params.documentId)}`);
  if (params.operationName !== undefined) parts.push(`"operationName":${JSON.stringify(params.operationName)}`);
  if (params.variables !== undefined) parts.push(`"variables":${params.variables}`);
  if (params.extensions !== undefined) parts.push(`"extensions":${params.extensions}`);
  return `{${parts.join(',')}}`;
}

/** The search of a GET carrying these parameters (a raw body as its `query`). */
export function searchOf(params: Params): string {
  const { raw, ...named } = params;
  return Object.entries(raw === undefined ? named : { query: raw })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value as string)}`)
    .join('&');
}

const parse = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export interface HttpOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The client's own address (a loopback address of its own), so that per-address limits see another client. */
  localAddress?: string;
}

/** One HTTP exchange on a connection of its own; an SSE answer is read as its events. */
export function http(url: string, options: HttpOptions): Promise<Outcome> {
  const target = new URL(url);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ kind: 'no-answer', why: `no answer within ${HANG_MS} ms` }), HANG_MS);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method,
        headers: { ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }), ...options.headers },
        agent: false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => {});
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (String(res.headers['content-type']).startsWith('text/event-stream')) {
            const results = [...text.matchAll(/^event: next\ndata: (.*)$/gm)].map((m) => parse(m[1]!) ?? { unreadable: m[1] });
            settle({ kind: 'stream', status, results, completed: /^event: complete$/m.test(text) });
          } else settle({ kind: 'http', status, headers: res.headers, text, body: parse(text) });
        });
      },
    );
    // A refusal may come while the body is still going out; the connection then closes under it.
    req.on('error', (error) => setTimeout(() => settle({ kind: 'no-answer', why: `the connection failed without an answer: ${error.message}` }), 50));
    if (options.body === undefined) req.end();
    else req.end(options.body);
  });
}

export interface WsOptions {
  /** Headers of the upgrade request. */
  headers: Record<string, string>;
  /** The `connection_init` message, as text. */
  init: string;
  /** The `subscribe` message, as text, sent once the server acknowledged; none: the acknowledgement is the outcome. */
  subscribe?: string;
  localAddress?: string;
}

/** One graphql-transport-ws exchange: the upgrade, `connection_init`, then optionally one `subscribe`. */
export function ws(url: string, options: WsOptions): Promise<Outcome> {
  return new Promise((resolve) => {
    const messages: any[] = [];
    let first: any;
    let acked = false;
    let settled = false;
    const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws', {
      headers: options.headers,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (socket.readyState === WebSocket.OPEN) socket.close(1000);
      else socket.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ kind: 'no-answer', why: `no answer within ${HANG_MS} ms (acknowledged: ${acked})` }), HANG_MS);
    socket.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', () => {});
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        settle({ kind: 'upgrade-refused', status: res.statusCode ?? 0, text, body: parse(text) });
      });
    });
    // Sending a message past the frame limit can fail under the server's close: the close frame, read first, is the answer.
    socket.on('error', () => setTimeout(() => settle({ kind: 'no-answer', why: 'the socket failed without a close code' }), 200));
    socket.on('open', () => socket.send(options.init));
    socket.on('message', (data) => {
      const message = parse(String(data));
      messages.push(message);
      if (message?.type === 'connection_ack') {
        acked = true;
        if (options.subscribe === undefined) return settle({ kind: 'ws-acked' });
        socket.send(options.subscribe);
      } else if (message?.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      else if (message?.type === 'error') settle({ kind: 'ws-error', errors: message.payload, messages });
      else if (message?.type === 'next') {
        // A result with errors alone is a refusal once the subscription is complete (graphql-ws's
        // answer to a subscription whose source failed); a result with data is the outcome at once.
        first ??= message.payload;
        if (message.payload?.data != null || message.payload?.errors === undefined) settle({ kind: 'ws-next', payload: first, completed: false, messages });
      } else if (message?.type === 'complete') settle({ kind: 'ws-next', payload: first, completed: true, messages });
    });
    socket.on('close', (code, reason) => settle({ kind: 'ws-closed', code, reason: reason.toString(), acked, messages }));
  });
}

/** A refusal as the suite reads it: whether it is one, its codes, whether data came, and what came, in short. */
export interface Refusal {
  refused: boolean;
  codes: string[];
  data: boolean;
  /** The outcome in one line, for failure messages. */
  summary: string;
  /** The size of what the client was told (an answer must not echo what it was sent). */
  bytes: number;
}

/** Whether a `data` holds anything but nulls: a field that failed is null, and tells nothing. */
const holdsData = (data: unknown): boolean =>
  data !== null && data !== undefined && (typeof data !== 'object' || Object.values(data as object).some(holdsData));

const codesOf = (errors: unknown): string[] | undefined => {
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const codes = errors.map((e) => e?.extensions?.code);
  return codes.every((c) => typeof c === 'string' && c.length > 0) ? (codes as string[]) : undefined;
};

/** The close codes of a refusal: this server's 44xx, a message too large (1009), try again later (1013). */
const REFUSING_CLOSE = (code: number) => (code >= 4400 && code <= 4499) || code === 1009 || code === 1013;

/**
 * Reads an outcome: HTTP, every error coded and no data (a field that failed is null: a made-up
 * token's query over HTTP is answered 200, its field `UNAUTHENTICATED`); SSE, the same, or a stream whose one result holds coded errors and no data; WebSocket, a refusing close
 * code before any result, or an `error` message with every error coded.
 */
export function refusalOf(outcome: Outcome): Refusal {
  const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text);
  switch (outcome.kind) {
    case 'http':
    case 'upgrade-refused': {
      const codes = codesOf(outcome.body?.errors);
      const data = holdsData(outcome.body?.data);
      const refused = codes !== undefined && !data;
      return { refused, codes: codes ?? [], data, summary: `${outcome.kind} ${outcome.status} ${short(outcome.text)}`, bytes: Buffer.byteLength(outcome.text) };
    }
    case 'stream': {
      const first = outcome.results[0];
      const codes = codesOf(first?.errors);
      const data = outcome.results.some((r) => holdsData(r.data));
      const refused = outcome.results.length === 1 && codes !== undefined && !data && outcome.completed;
      const text = JSON.stringify(outcome.results);
      return { refused, codes: codes ?? [], data, summary: `stream ${outcome.status} ${short(text)}`, bytes: Buffer.byteLength(text) };
    }
    case 'ws-closed': {
      const data = outcome.messages.some((m) => m?.type === 'next' && holdsData(m.payload?.data));
      return { refused: REFUSING_CLOSE(outcome.code) && !data, codes: [`close ${outcome.code}`], data, summary: `closed ${outcome.code} ${outcome.reason} (acknowledged: ${outcome.acked})`, bytes: Buffer.byteLength(outcome.reason) };
    }
    case 'ws-error': {
      const codes = codesOf(outcome.errors);
      const text = JSON.stringify(outcome.errors);
      return { refused: codes !== undefined, codes: codes ?? [], data: false, summary: `error message ${short(text)}`, bytes: Buffer.byteLength(text) };
    }
    case 'ws-next': {
      const text = JSON.stringify(outcome.payload) ?? 'complete';
      const data = holdsData(outcome.payload?.data);
      const codes = codesOf(outcome.payload?.errors);
      const refused = outcome.completed && codes !== undefined && !data && outcome.messages.filter((m) => m?.type === 'next').length === 1;
      return { refused, codes: codes ?? [], data, summary: `next ${short(text)}${outcome.completed ? ', complete' : ''}`, bytes: Buffer.byteLength(text) };
    }
    case 'ws-acked':
      return { refused: false, codes: [], data: false, summary: 'connection_ack', bytes: 0 };
    case 'no-answer':
      return { refused: false, codes: [], data: false, summary: outcome.why, bytes: 0 };
  }
}

/** Whether an outcome is an answer with data and no errors (what a caller allowed to run the input gets). */
export function answered(outcome: Outcome): boolean {
  return outcome.kind === 'http' && outcome.status === 200 && outcome.body?.errors === undefined && outcome.body?.data != null;
}
