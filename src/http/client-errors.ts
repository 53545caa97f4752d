import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { DISCARD_MAX_BYTES, DISCARD_MAX_MS } from './body.js';
import { graphQLErrorBody } from './respond.js';

interface Answer {
  status: number;
  message: string;
  code: string;
}

/** What a refusal of Node's HTTP parser says to the client; undefined for a failure of the connection itself. */
function answerOf(error: NodeJS.ErrnoException, server: Server): Answer | undefined {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message: `The request line and headers are over the limit of ${maxHeaderSize} bytes. Send a long query by POST, in the body.`,
        code: 'BAD_REQUEST',
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'The chunk extensions of the request body are over the limit.', code: 'PAYLOAD_TOO_LARGE' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        message: `The request did not arrive in time: its headers within ${server.headersTimeout} ms, all of it within ${server.requestTimeout} ms.`,
        code: 'BAD_REQUEST',
      };
    default:
      // Node's parser names what it could not read ("Parse Error: Invalid method encountered"),
      // in its own words: none of the request's bytes.
      if (error.code?.startsWith('HPE_')) return { status: 400, message: `The request is not valid HTTP/1.1: ${error.message}.`, code: 'BAD_REQUEST' };
      return undefined;
  }
}

/**
 * Answers a request that Node's HTTP parser refused before any handler saw it: a request line
 * and headers past Node's limit (a long query string), bytes that are not HTTP/1.1, a request
 * that did not arrive in time.
 *
 * Node's own answer is a bare status line with no body and no length, and Node destroys the
 * socket right after writing it, with the rest of the request unread. Closing a socket with
 * unread bytes makes the kernel send a reset; a client still sending, or reading a body that
 * ends only with the connection (recent versions of Node's own HTTP client do), reports the
 * reset and never the status. So the answer here is a GraphQL error of the API's own, with its
 * length; the socket is half-closed, and what the client still sends is read and thrown away,
 * within the bounds a refused body has, until the client closes.
 *
 * `answering(socket)`: an answer to an earlier request on the socket is under way. A refusal
 * written then would land inside that answer, so the socket is closed instead.
 */
export function answerClientErrors(server: Server, answering: (socket: Duplex) => boolean): void {
  const discarding = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (discarding.has(socket)) {
      // The parser refuses each further chunk of the refused request as it is read.
      if ((socket as Socket).bytesRead > DISCARD_MAX_BYTES) socket.destroy();
      return;
    }
    const answer = answerOf(error, server);
    if (!answer || !socket.writable || answering(socket)) {
      socket.destroy();
      return;
    }
    discarding.add(socket);
    const body = graphQLErrorBody(answer.message, answer.code);
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    const timer = setTimeout(() => socket.destroy(), DISCARD_MAX_MS).unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
