import { isUtf8 } from 'node:buffer';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { buildOpenApiDocument } from '../campaign-api/openapi.js';
import { operationByPath, operations, OPERATION_NAMES, type OperationName } from '../campaign-api/index.js';
import { quote } from '../text/received-value.js';
import { handleAdmin, type AdminContext } from './admin.js';
import { ApiFailure } from './api-failure.js';
import { contractBreakingBody, FaultRegistry, MALFORMED_BODY, type Fault } from './faults.js';
import { handlers } from './handlers.js';
import { bearerToken, describeJsonValue, foreignCharset, MAX_BODY_BYTES, readBody, sendJson, sendText, TOO_LARGE } from './http-io.js';
import type { ModerationPolicy } from './lifecycle.js';
import { RequestLog } from './request-log.js';
import { loadFixtures } from './fixtures.js';
import { EmulatorState } from './state.js';

export interface EmulatorServerOptions {
  moderation: ModerationPolicy;
  quiet: boolean;
  /** The longest request line and headers taken, in bytes (`HEADER_LIMIT_BYTES` unless a test stands for a stricter proxy). */
  headerLimitBytes: number;
}

/**
 * The campaign API's limit on a request line and headers: past it (a long Authorization header)
 * it answers a bare 400 before anything else, no envelope, the token unread.
 */
export const HEADER_LIMIT_BYTES = 16 * 1024;
/**
 * Node's parser refuses a head past its own limit before any handler sees the request, so the
 * call would not be counted: its limit is kept well above the emulator's, which is checked here.
 * A head past this one still gets a bare 400, from the parser, uncounted.
 */
const PARSER_HEADER_LIMIT_BYTES = 64 * 1024;

/** The bytes of a request's head as received: request line, each `name: value` line, the blank line. */
function headBytes(req: IncomingMessage): number {
  let bytes = Buffer.byteLength(`${req.method} ${req.url} HTTP/${req.httpVersion}\r\n\r\n`);
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) bytes += Buffer.byteLength(raw[i]!) + Buffer.byteLength(raw[i + 1]!) + 4;
  return bytes;
}

export interface EmulatorServer {
  server: Server;
  state: EmulatorState;
  /** Stops timers and releases every connection, hanging ones included. */
  shutdown(): void;
}

const OPERATION_LIST = OPERATION_NAMES.map((n) => `/v1/${operations[n].path}`).join(', ');

function failure(code: string, message: string): ApiFailure {
  return new ApiFailure(code, message);
}

function sendFailure(res: ServerResponse, error: ApiFailure, headers?: Record<string, string>): void {
  sendJson(res, error.httpStatus, JSON.stringify(error), headers);
}

export function createEmulatorServer(options: EmulatorServerOptions): EmulatorServer {
  const state = new EmulatorState(options.moderation, loadFixtures);
  const faults = new FaultRegistry();
  const calls = new Map<string, number>();
  const requests = new RequestLog();
  /** Latency faults in progress: each timer with the way to end its wait early (reset, shutdown). */
  const delays = new Map<NodeJS.Timeout, () => void>();
  /** Bumped by every reset and by shutdown: a request from an earlier epoch is not carried out. */
  let epoch = 0;
  const sockets = new Set<Socket>();
  let openApiJson: string | null = null;

  const admin: AdminContext = {
    state,
    faults,
    calls,
    requests,
    reset() {
      // A clean state: a request still held by a latency fault was sent before the reset and
      // must not be carried out after it (a write would land in the fresh fixtures).
      epoch++;
      cancelDelays();
      state.reset();
      faults.clear();
      calls.clear();
      requests.clear();
    },
  };

  const log = (message: string) => {
    if (!options.quiet) process.stderr.write(`[emulator] ${message}\n`);
  };

  /** Waits `ms`, or less when a reset or shutdown ends the wait first. */
  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        delays.delete(timer);
        resolve();
      }, ms);
      delays.set(timer, resolve);
    });

  function cancelDelays(): void {
    for (const [timer, cancel] of delays) {
      clearTimeout(timer);
      cancel();
    }
    delays.clear();
  }

  /** Runs one operation for the caller: authentication, body, the handler. Returns status and body. */
  function execute(name: OperationName, authorization: string | undefined, raw: Buffer): [number, string] {
    const token = bearerToken(authorization);
    if (token === null) {
      const message = authorization
        ? 'the Authorization header must be "Bearer <partner token>"'
        : 'missing Authorization header: send "Authorization: Bearer <partner token>"';
      const error = failure('unauthorized', message);
      return [error.httpStatus, JSON.stringify(error)];
    }
    const partner = state.partner(token);
    if (!partner) {
      const error = failure('unauthorized', 'the partner token is not known to this service');
      return [error.httpStatus, JSON.stringify(error)];
    }
    let body: unknown = {};
    if (raw.length > 0) {
      if (!isUtf8(raw)) {
        const problem = new ApiFailure('incorrectData', 'the request body is not valid UTF-8: send the JSON encoded as UTF-8', [
          { field: '(body)', message: 'must be JSON encoded as UTF-8' },
        ]);
        return [problem.httpStatus, JSON.stringify(problem)];
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch (error) {
        const problem = new ApiFailure('incorrectData', `the request body is not valid JSON: ${(error as Error).message}`, [
          { field: '(body)', message: 'must be a JSON object' },
        ]);
        return [problem.httpStatus, JSON.stringify(problem)];
      }
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      const problem = new ApiFailure('incorrectData', `the request body must be a JSON object, got ${describeJsonValue(body)}`, [
        { field: '(body)', message: `must be a JSON object, got ${describeJsonValue(body)}` },
      ]);
      return [problem.httpStatus, JSON.stringify(problem)];
    }
    state.tick();
    try {
      return [200, handlers[name](state, partner, body)];
    } catch (error) {
      if (error instanceof ApiFailure) return [error.httpStatus, JSON.stringify(error)];
      throw error;
    }
  }

  function inflict(fault: Fault, req: IncomingMessage, res: ServerResponse, path: string): void {
    switch (fault.mode) {
      case 'http500':
        sendText(res, 500, 'Internal Server Error (injected http500 fault)');
        return;
      case 'http4xx':
        sendText(res, fault.httpStatus, `${fault.httpStatus} ${STATUS_CODES[fault.httpStatus] ?? 'Client Error'} (injected http4xx fault)`);
        return;
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'malformed':
        sendJson(res, 200, MALFORMED_BODY);
        return;
      case 'contract':
        sendJson(res, 200, contractBreakingBody(path));
        return;
      case 'error200':
        sendJson(res, 200, JSON.stringify({ status: 'error', errors: { code: fault.code, message: `injected error200 fault on ${path}` } }));
        return;
      case 'hang':
      case 'latency':
        // hang: never answer; the socket is released by shutdown() or by the client.
        return;
    }
  }

  /** Counts a POST to a known operation path, before faults, authentication and validation. */
  function arrived(req: IncomingMessage, path: string): void {
    calls.set(path, (calls.get(path) ?? 0) + 1);
    requests.record(path, req.headers.traceparent, req.rawHeaders);
  }

  /** A head over the limit: counted like any call, its body read and dropped, then a bare 400. */
  async function refuseHead(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const operationPath = path.startsWith('/v1/') ? path.slice(4) : undefined;
    if (req.method === 'POST' && operationPath !== undefined && operationByPath.has(operationPath)) arrived(req, operationPath);
    await readBody(req, MAX_BODY_BYTES);
    sendText(res, 400, `400 Bad Request: the request line and headers are over ${options.headerLimitBytes} bytes`);
  }

  async function handleOperation(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const name = operationByPath.get(path);
    if (!name) {
      sendFailure(res, failure('unknownOperation', `there is no operation /v1/${path}; the operations are ${OPERATION_LIST}`));
      return;
    }
    if (req.method !== 'POST') {
      sendFailure(res, failure('methodNotAllowed', `/v1/${path} takes POST, not ${req.method}`), { allow: 'POST' });
      return;
    }
    const charset = foreignCharset(req.headers['content-type']);
    if (charset !== undefined) {
      sendFailure(res, failure('unsupportedMediaType', `the request body must be JSON encoded as UTF-8, not charset ${quote(charset)}`));
      return;
    }
    const arrivedIn = epoch;
    arrived(req, path);
    const raw = await readBody(req, MAX_BODY_BYTES);
    if (raw === TOO_LARGE) {
      sendFailure(res, failure('payloadTooLarge', `the request body is over the limit of ${MAX_BODY_BYTES} bytes (10 MB)`));
      return;
    }
    let fault = faults.active ? faults.pick(path) : undefined;
    if (fault?.mode === 'latency') {
      await delay(fault.latencyMs);
      if (epoch !== arrivedIn) {
        // Reset (or shut down) while held: the request is dropped unexecuted, as by a restart.
        req.socket.destroy();
        return;
      }
      fault = undefined;
    }
    if (fault && !fault.afterEffect) {
      inflict(fault, req, res, path);
      return;
    }
    const [status, body] = execute(name, req.headers.authorization, raw);
    if (fault) inflict(fault, req, res, path);
    else sendJson(res, status, body);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (headBytes(req) > options.headerLimitBytes) return refuseHead(req, res, path);
    if (path.startsWith('/v1/')) return handleOperation(req, res, path.slice(4));
    if (path.startsWith('/_emulator/')) return handleAdmin(admin, req, res, path.slice('/_emulator/'.length));
    if (path === '/openapi.json' && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(res, 200, (openApiJson ??= JSON.stringify(buildOpenApiDocument())));
      return;
    }
    if (path === '/' && req.method === 'GET') {
      sendJson(res, 200, JSON.stringify({ service: 'Offer Campaign API emulator', operations: OPERATION_LIST.split(', '), admin: '/_emulator/', openapi: '/openapi.json' }));
      return;
    }
    sendJson(res, 404, JSON.stringify({ error: `nothing at ${req.method} ${path}; operations are under /v1/, the admin API under /_emulator/, the OpenAPI document at /openapi.json` }));
  }

  const server = createServer({ maxHeaderSize: Math.max(PARSER_HEADER_LIMIT_BYTES, options.headerLimitBytes) }, (req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      // A client that went away mid-body is not an error of ours.
      if (req.destroyed || res.destroyed) return;
      log(`internal error on ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
      if (!res.headersSent) sendFailure(res, failure('internalError', 'the emulator failed to handle this request; see its log'));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  return {
    server,
    state,
    shutdown() {
      epoch++;
      cancelDelays();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
}
