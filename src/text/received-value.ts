import { escapeNotText } from './text-rule.js';

/**
 * How every message quotes a value it received: at most `QUOTE_LIMIT` characters of it, then
 * "…", so a huge input is never echoed whole (SECURITY.md promises 40).
 */
export const QUOTE_LIMIT = 40;

/** The first `limit` UTF-16 units of `text`, without splitting a surrogate pair. */
function prefix(text: string, limit: number): string {
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}

/**
 * A received string as a message quotes it: at most 40 characters (never half of one), an
 * ellipsis when cut, and every character the text rule refuses written as an escape, so a message
 * is always plain text however hostile the value.
 */
export function quote(text: string): string {
  let end = 0;
  for (let chars = 0; chars < QUOTE_LIMIT && end < text.length; chars++) {
    const code = text.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
    end += pair ? 2 : 1;
  }
  const cut = end < text.length;
  return escapeNotText(JSON.stringify(cut ? `${text.slice(0, end)}…` : text));
}

/**
 * Any received value (a variable's JSON: scalars, lists, objects), written the way graphql-js
 * writes values in its messages (`{ pins: ["A1"] }`) and cut after 40 characters with "…".
 * Stops reading as soon as it has enough, so a huge or deeply nested value costs nothing. Every
 * double quote in it opens or closes a string (a key that is not a plain name is quoted too, and
 * a string cut short is closed), so a message quoting it can still be read quote by quote.
 */
export function preview(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  const out = { text: '' };
  write(value, out);
  return shorten(out.text);
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

function write(value: unknown, out: { text: string }): void {
  const full = () => out.text.length > QUOTE_LIMIT;
  if (typeof value === 'string') {
    out.text += JSON.stringify(value.slice(0, QUOTE_LIMIT + 1));
  } else if (Array.isArray(value)) {
    out.text += '[';
    for (let i = 0; i < value.length && !full(); i++) {
      if (i > 0) out.text += ', ';
      write(value[i], out);
    }
    out.text += ']';
  } else if (value !== null && typeof value === 'object') {
    let first = true;
    for (const key in value) {
      if (full()) break;
      if (!Object.hasOwn(value, key)) continue;
      const shown = key.slice(0, QUOTE_LIMIT + 1);
      out.text += `${first ? '{ ' : ', '}${NAME.test(shown) ? shown : JSON.stringify(shown)}: `;
      first = false;
      write((value as Record<string, unknown>)[key], out);
    }
    out.text += first ? '{}' : ' }';
  } else {
    out.text += String(value);
  }
}

/**
 * Text that writes strings in double quotes with backslash escapes (JSON, a printed GraphQL
 * literal), as is up to 40 characters, else its first 40 and "…", closing a string it cuts into.
 */
export function shorten(text: string): string {
  if (text.length <= QUOTE_LIMIT) return text;
  let inString = false;
  let end = 0;
  while (end < QUOTE_LIMIT) {
    const char = text[end]!;
    // An escape sequence stays whole or goes whole.
    const width = inString && char === '\\' ? (text[end + 1] === 'u' ? 6 : 2) : 1;
    if (end + width > QUOTE_LIMIT) break;
    if (char === '"') inString = !inString;
    end += width;
  }
  return `${prefix(text, end)}…${inString ? '"' : ''}`;
}
