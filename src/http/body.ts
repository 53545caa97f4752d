import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TextDecoder } from 'node:util';
import { quote } from '../text/received-value.js';
import { sendAnswerNow, type AnswerSender } from '../observability/logger.js';
import { readJson } from './json.js';
import { negotiate } from './negotiation.js';
import { HttpError } from './respond.js';

/**
 * What a request body must be before anyone reads it as text: JSON is UTF-8 by its own definition, and a body
 * decoded as UTF-8 when it is not turns every byte it cannot read into U+FFFD, which would then be
 * stored as if the client had sent it. So a declared charset other than UTF-8 is refused, and so
 * are bytes that are not UTF-8 whatever the header says. Shared by every transport that reads a
 * JSON body (GraphQL over HTTP, GraphQL over SSE).
 */

/** The charset a Content-Type header declares, lower-cased and unquoted; undefined when it declares none. */
export function declaredCharset(contentType: string): string | undefined {
  for (const parameter of contentType.split(';').slice(1)) {
    const eq = parameter.indexOf('=');
    if (eq === -1 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return parameter.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

/** Why a Content-Type's charset is refused (answered 415), or undefined when it declares UTF-8 or none. */
export function charsetProblem(contentType: string | undefined): string | undefined {
  const charset = contentType === undefined ? undefined : declaredCharset(contentType);
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return undefined;
  return `Content-Type charset ${quote(charset)} is not supported; send the JSON body encoded as UTF-8 (charset=utf-8, or no charset).`;
}

/** The client closed the connection before it had sent its body: there is nobody left to answer. */
export class ClientGoneError extends Error {}

/**
 * A refused body is still read and thrown away, up to these bounds, before the connection
 * closes: closing a socket with request bytes unread makes the kernel send a reset, which can
 * reach a client still sending before it has read the answer. Discarding costs little; the
 * bounds stop a client from holding the connection with an endless body.
 */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
export const DISCARD_MAX_MS = 5000;

/**
 * Answers a request whose body is refused before it was read (too large, of a type or encoding
 * this server does not take, from a caller refused at the door). The answer (`text`, the errors
 * as the caller's formatter wrote them) goes out when `send` runs its writes (at once unless
 * told) and says `Connection: close`, but it is ended only once the client has sent its body, or
 * past the discard bounds: Node closes a `Connection: close` socket as soon as the answer ends.
 */
export function refuseBody(
  req: IncomingMessage,
  res: ServerResponse,
  error: { readonly status: number; readonly headers?: Readonly<Record<string, string>> | undefined },
  headers: Readonly<Record<string, string>>,
  text: string,
  send: AnswerSender = sendAnswerNow,
): void {
  res.writeHead(error.status, {
    ...headers,
    ...error.headers,
    'content-type': negotiate(req.headers.accept).type,
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  if (req.complete || req.destroyed) {
    send(() => res.end(text));
    return;
  }
  send(() => res.write(text));
  let discarded = 0;
  const done = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('error', done);
    // After the refusal's text, whenever that is sent.
    send(() => res.end());
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) done();
  };
  const timer = setTimeout(done, DISCARD_MAX_MS);
  req.on('data', onData);
  req.once('end', done);
  req.once('error', done);
  req.resume();
}

/**
 * Refuses, before any of the body is read, what this server will not read: too large, another type
 * or encoding. `whose` names whose limit it is, for the message (" for an app key", say).
 */
export function checkBodyHeaders(req: IncomingMessage, limit: number, whose = ''): void {
  const header = req.headers['content-type'];
  // What clients send, checked without taking the header apart.
  const usual = header === 'application/json' || header === 'application/json; charset=utf-8';
  const type = usual ? 'application/json' : (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && type !== 'application/graphql-response+json') {
    throw new HttpError(415, `Content-Type must be application/json for POST, got ${type ? quote(type) : 'none'}.`, 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (!usual) {
    const charset = charsetProblem(header);
    if (charset) throw new HttpError(415, charset, 'UNSUPPORTED_MEDIA_TYPE');
  }
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new HttpError(
      415,
      `Content-Encoding ${quote(encoding)} is not supported; send the body uncompressed (without Content-Encoding).`,
      'UNSUPPORTED_MEDIA_TYPE',
      // The codings this server does take, so a client can send the body again as it should.
      { 'accept-encoding': 'identity' },
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, tooLarge(limit, whose), 'PAYLOAD_TOO_LARGE');
  }
}

/** The same words whether the length was declared or found while reading (the answer depends on the limit alone). */
const tooLarge = (limit: number, whose: string) => `Request body is over the limit of ${limit} bytes${whose}.`;

/** What `readBody` gives for a body whose bytes are not UTF-8: refused once read whole, as malformed JSON is. */
export const NOT_UTF8: unique symbol = Symbol('not UTF-8');

export const NOT_UTF8_MESSAGE = 'Request body is not valid UTF-8; JSON must be sent encoded as UTF-8 (characters outside it may be escaped as \\uXXXX).';

/**
 * Reads the body up to `limit` bytes as UTF-8 text; beyond it, stops keeping it and answers 413.
 * A body that comes in one piece (nearly all) is checked and decoded at once. A longer one is
 * decoded piece by piece as it arrives, so no turn of the event loop copies or decodes a large
 * body whole: what is left for one turn is reading the JSON.
 */
export function readBody(req: IncomingMessage, limit: number, whose = ''): Promise<string | typeof NOT_UTF8> {
  // Plain events rather than an async iterator: this runs for every request.
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let decoder: TextDecoder | undefined;
    let parts: string[] | undefined;
    let broken = false;
    let size = 0;
    const decode = (chunk: Buffer) => {
      if (broken) return;
      try {
        parts!.push(decoder!.decode(chunk, { stream: true }));
      } catch {
        // Not UTF-8: the rest is still read (and counted against the limit), then refused.
        broken = true;
        parts = undefined;
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Paused, so the rest waits for refuseBody to discard it rather than flowing to nobody.
        req.pause();
        req.off('data', onData);
        reject(new HttpError(413, tooLarge(limit, whose), 'PAYLOAD_TOO_LARGE'));
        return;
      }
      if (first === undefined && decoder === undefined) {
        first = chunk;
        return;
      }
      if (decoder === undefined) {
        // A byte order mark stays in the text, as a one-piece body's does (and JSON refuses it).
        decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
        parts = [];
        decode(first!);
        first = undefined;
      }
      decode(chunk);
    };
    req.on('data', onData);
    // `on`, not `once`: each of these comes at most once for the promise that matters, and `once`
    // wraps each listener in two more objects, for every request.
    req.on('end', () => {
      if (decoder === undefined) {
        const whole = first ?? Buffer.alloc(0);
        resolve(isUtf8(whole) ? whole.toString('utf8') : NOT_UTF8);
        return;
      }
      if (!broken) {
        try {
          parts!.push(decoder.decode());
        } catch {
          broken = true;
        }
      }
      resolve(broken ? NOT_UTF8 : parts!.join(''));
    });
    req.on('error', (error) => reject(new ClientGoneError(error.message)));
  });
}

/** The body as JSON: UTF-8, not empty, within the bounds of shape (json.ts), well-formed. */
export function parseJsonBody(text: string | typeof NOT_UTF8): unknown {
  if (text === NOT_UTF8) throw new HttpError(400, NOT_UTF8_MESSAGE, 'BAD_REQUEST');
  if (text.length === 0) throw new HttpError(400, 'Request body is empty; expected a JSON object with a "query".', 'BAD_REQUEST');
  const read = readJson(text, 'Request body');
  if (!read.ok) throw new HttpError(400, read.message, 'BAD_REQUEST');
  return read.value;
}
