import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMPRESSION_THRESHOLD_BYTES, codedEtag, coded, codingFor } from './compression.js';
import { GRAPHQL_RESPONSE_TYPE } from './negotiation.js';
import { sendAnswerNow, type AnswerSender } from '../observability/logger.js';

/**
 * Writing a complete answer over HTTP: a 304 where the client holds it already; compressed when
 * the client accepts it and the body is worth it. Each representation of a body (its media type,
 * its coding) is an entity of its own, with an ETag of its own, and the answer varies by the
 * headers that choose it (`Accept`, `Accept-Encoding`), so no cache, shared or the client's, can
 * give one for another or validate one with the other's tag.
 */

/** Whether `If-None-Match` names this ETag (weak or strong, or `*`). */
export function matchesEtag(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** The ETag of a body's representation in a media type: JSON keeps the body's own, GraphQL's response type gets its own. */
export function typedEtag(etag: string, contentType: string): string {
  if (contentType !== GRAPHQL_RESPONSE_TYPE) return etag;
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-graphql"` : `${etag}-graphql`;
}

const addVary = (headers: Record<string, string | number>, name: string) => {
  headers.vary = headers.vary ? `${headers.vary}, ${name}` : name;
};

export interface AnswerOptions {
  /** Whether answers worth it go out in brotli or gzip when the client accepts one. */
  compression: boolean;
  /** What lives as long as the body (a remembered answer): its compressed copies are kept with it. */
  owner?: object;
  /**
   * Runs what writes the answer's body, now or later in the turn (after the request's log line);
   * at once when not given. The head is set first, at once, so that an answer under way shows as
   * sent (`headersSent`) to anything that would answer the request again.
   */
  send?: AnswerSender;
}

/**
 * Writes `bytes` with `headers` (the answer's own, made for it: the media type's and coding's ETag,
 * `Vary`, the coding and the length are added to it). Returns a promise only while a body is
 * being compressed.
 */
export function writeAnswer(req: IncomingMessage, res: ServerResponse, headers: Record<string, string | number>, bytes: Buffer, options: AnswerOptions): void | Promise<void> {
  const deliver = options.send ?? sendAnswerNow;
  const coding = options.compression && bytes.length >= COMPRESSION_THRESHOLD_BYTES ? codingFor(req.headers['accept-encoding']) : undefined;
  if (headers.etag) {
    headers.etag = typedEtag(String(headers.etag), String(headers['content-type']));
    addVary(headers, 'Accept');
  }
  if (coding) {
    addVary(headers, 'Accept-Encoding');
    if (headers.etag) headers.etag = codedEtag(String(headers.etag), coding);
  }
  if (headers.etag && matchesEtag(req.headers['if-none-match'], String(headers.etag))) {
    res.writeHead(304, headers);
    deliver(() => res.end());
    return;
  }
  if (!coding || coding === 'identity') {
    headers['content-length'] = bytes.length;
    res.writeHead(200, headers);
    deliver(() => res.end(bytes));
    return;
  }
  const sendCoded = (encoded: Buffer) => {
    // The client may have gone while its answer was compressed.
    if (res.destroyed || res.headersSent) return;
    headers['content-encoding'] = coding;
    headers['content-length'] = encoded.length;
    res.writeHead(200, headers);
    deliver(() => res.end(encoded));
  };
  const encoded = coded(bytes, coding, options.owner);
  return Buffer.isBuffer(encoded) ? sendCoded(encoded) : encoded.then(sendCoded);
}

const CSRF_MESSAGE =
  'This GET request has been blocked as a potential cross-site request forgery: send it with a header a browser form cannot set ' +
  '(apollo-require-preflight: true, or x-apollo-operation-name), or send the operation as a POST with Content-Type: application/json.';

/**
 * Why a GET is refused as a possible cross-site request (a link or a form can send one with the
 * user's cookies), or undefined: it must carry a header only a script can set, as Apollo's clients
 * do; an app's key is one.
 */
export function csrfProblem(req: IncomingMessage): string | undefined {
  const { headers } = req;
  return headers['apollo-require-preflight'] === undefined && headers['x-apollo-operation-name'] === undefined && headers['x-app-key'] === undefined ? CSRF_MESSAGE : undefined;
}
