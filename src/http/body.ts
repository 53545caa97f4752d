import { isUtf8 } from 'node:buffer';
import { quote } from '../campaign-api/received-value.js';

/**
 * What a request body must be before anyone reads it as text: JSON is UTF-8 (RFC 8259), and a body
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

/** Why a body's bytes are refused (answered 400), or undefined when they are UTF-8. */
export function encodingProblem(raw: Buffer): string | undefined {
  return isUtf8(raw) ? undefined : 'Request body is not valid UTF-8; JSON must be sent encoded as UTF-8 (characters outside it may be escaped as \\uXXXX).';
}
