import type { ResponsePath } from 'graphql';

/**
 * Text on spans. Whatever a client chooses (aliases, operation names, anything else taken from a
 * request) reaches a span only cut short and as a copy of its own: V8 keeps the whole of a string
 * alive while any slice of it lives, and the parser hands out names as slices of the request's
 * body, so even a short alias would hold a large body in memory for as long as its span waits in
 * the export queue. The SDK's attribute length limit (sdk.ts) cuts every attribute value to the
 * same length, but by slicing: it is the backstop, this is what the code sets.
 */

/** The longest text, in UTF-16 code units, that any span name, attribute or status message holds. */
export const TRACE_TEXT_MAX = 256;

const ELLIPSIS = '\u2026';

/** `value` cut to at most `max` code units (an ellipsis marks a cut), copied free of its source. */
export function traceText(value: string, max: number = TRACE_TEXT_MAX): string {
  let text = value;
  if (text.length > max) {
    let end = max - 1;
    // Never between the halves of a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--;
    text = text.slice(0, end) + ELLIPSIS;
  }
  // Decoding bytes makes a new string; a lone surrogate becomes U+FFFD, as UTF-8 exporters need.
  return Buffer.from(text, 'utf8').toString('utf8');
}

/**
 * A response path (`campaigns.nodes.3.card`) of at most TRACE_TEXT_MAX code units, built from the
 * leaf up without ever joining whole keys: each alias is cut first, and when the path is still
 * too long its root end gives way to an ellipsis. The keys are GraphQL names and list indexes.
 */
export function traceResponsePath(leaf: ResponsePath | undefined): string {
  const segmentMax = 48;
  const segments: string[] = [];
  let length = 0;
  for (let at = leaf; at; at = at.prev) {
    const key = typeof at.key === 'number' ? String(at.key) : at.key.length > segmentMax ? at.key.slice(0, segmentMax - 1) + ELLIPSIS : at.key;
    if (length + key.length + ELLIPSIS.length + 1 > TRACE_TEXT_MAX) {
      segments.push(ELLIPSIS);
      break;
    }
    segments.push(key);
    length += key.length + 1;
  }
  return traceText(segments.reverse().join('.'));
}
