/**
 * JSON a client sends, read within bounds of shape as well as size. `JSON.parse` itself takes any
 * nesting and any number of values: a body of a few megabytes of `[{},{},…]` makes millions of
 * objects in one turn of the event loop, and a value nested a million levels deep breaks every
 * recursive reader after it. So every JSON text from a client (a POST or SSE body, a GET's
 * `variables` and `extensions`, a WebSocket message) is first scanned, in one pass without
 * allocating, for how deep it nests and how many objects and arrays it holds; only a text within
 * both is parsed. No request this API serves comes near either bound.
 */

/** Objects and arrays nested in one another, at most. */
export const MAX_JSON_DEPTH = 64;
/** Objects and arrays in one text, at most (a list of pins or ids is one array). */
export const MAX_JSON_CONTAINERS = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * Why a JSON text is refused before it is parsed (nested deeper than `MAX_JSON_DEPTH`, or more
 * than `MAX_JSON_CONTAINERS` objects and arrays), or undefined. Malformed JSON is left to the parser.
 */
export function jsonShapeProblem(text: string, what: string): string | undefined {
  let depth = 0;
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the end of the string, escapes skipped: brackets in strings are text.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_JSON_DEPTH) return `${what} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`;
      if (++containers > MAX_JSON_CONTAINERS) return `${what} holds more than ${MAX_JSON_CONTAINERS} objects and arrays.`;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return undefined;
}

/** The outcome of reading a client's JSON text: its value, or why it was refused, in words a client can act on. */
export type JsonRead = { ok: true; value: unknown } | { ok: false; message: string };

/** Scans, then parses: `what` names the text in the message ("Request body", "The \"variables\" parameter"). */
export function readJson(text: string, what: string): JsonRead {
  const problem = jsonShapeProblem(text, what);
  if (problem) return { ok: false, message: problem };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `${what} is not valid JSON: ${(error as Error).message}` };
  }
}
