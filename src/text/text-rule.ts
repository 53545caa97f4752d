/**
 * The text rule of every free-text field. Stored text goes to every client
 * that lists the campaign, so it must be text each of them can decode and show as sent:
 *
 * - well-formed Unicode: no lone surrogate (`\uD800`), which JSON can only write as an escape
 *   that strict decoders refuse;
 * - no control character (C0, DEL, C1): NUL and friends break storage and strict parsers, and a
 *   card has nothing to show for them. Only `conditions` may hold line breaks, written `\n`; a
 *   card shows its one-line fields on one line, and `\r` or a tab renders differently everywhere;
 * - no bidirectional control (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069): invisible,
 *   they make text display in another order than it is stored (a name that reads as another);
 * - no other invisible format character (U+180E, U+200B, U+2060-U+2064, U+206A-U+206F, U+FEFF,
 *   U+FFF9-U+FFFB) nor line or paragraph separator (U+2028, U+2029); joiners (U+200C, U+200D)
 *   and variation selectors stay allowed, emoji and many scripts need them;
 * - no noncharacter (U+FDD0-U+FDEF, U+xxFFFE, U+xxFFFF);
 * - not empty, and not blank: at least one character that is neither white space nor a default
 *   ignorable one. An optional field is left out rather than sent blank.
 *
 * Anything else, emoji, Cyrillic, markup-like text included, is stored byte for byte as sent.
 */
export interface TextOptions {
  /** Line breaks (`\n` only) are allowed: long text shown as paragraphs. */
  multiline?: boolean;
}

const NOT_TEXT =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001F\u007F-\u009F\u061C\u180E\u200B\u200E\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFDD0-\uFDEF\uFEFF\uFFF9-\uFFFB\uD800-\uDFFF]|[\uFFFE\uFFFF\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{3FFFE}\u{3FFFF}\u{4FFFE}\u{4FFFF}\u{5FFFE}\u{5FFFF}\u{6FFFE}\u{6FFFF}\u{7FFFE}\u{7FFFF}\u{8FFFE}\u{8FFFF}\u{9FFFE}\u{9FFFF}\u{AFFFE}\u{AFFFF}\u{BFFFE}\u{BFFFF}\u{CFFFE}\u{CFFFF}\u{DFFFE}\u{DFFFF}\u{EFFFE}\u{EFFFF}\u{FFFFE}\u{FFFFF}\u{10FFFE}\u{10FFFF}]/gu;
const BLANK = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}]*$/u;

/** `U+202E`: how a message names a character, never the character itself. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

const LINE_BREAKS: ReadonlySet<string> = new Set(['\n', '\r', '\u2028', '\u2029']);

/** What a refused character is, and why that matters where it is not obvious. */
function whatIs(cp: number): [what: string, why: string] {
  if (cp === 0x09) return ['a tab', ''];
  if (cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f)) return ['a control character', ''];
  if (cp >= 0xd800 && cp <= 0xdfff) return ['a lone surrogate', ', half of a character cut in two (not valid Unicode)'];
  if (cp === 0x061c || cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
    return ['an invisible bidirectional control', ', which makes text display in another order than it is stored'];
  }
  if ((cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) return ['a noncharacter', ''];
  return ['an invisible format character', ''];
}

/** Why `value` is not text this API stores, and whether that is a missing value or a malformed one. */
export interface TextIssue {
  message: string;
  /** `required`: empty or blank, nothing was given; `format`: characters no client can show. */
  kind: 'required' | 'format';
}

/** Why `value` is not text this API stores (see TextOptions), or null when it is. */
export function textProblem(value: string, options: TextOptions = {}): string | null {
  return textIssue(value, options)?.message ?? null;
}

/** `textProblem` with the kind of problem it is. */
export function textIssue(value: string, options: TextOptions = {}): TextIssue | null {
  const format = (message: string): TextIssue => ({ message, kind: 'format' });
  if (value.length === 0) return { message: 'must not be empty', kind: 'required' };
  NOT_TEXT.lastIndex = 0;
  for (let match = NOT_TEXT.exec(value); match; match = NOT_TEXT.exec(value)) {
    const char = match[0];
    if (char === '\n' && options.multiline) continue;
    // Positions count characters from 1, as a person counts them in the text they sent.
    const where = `(${codePointName(char)}) at position ${[...value.slice(0, match.index)].length + 1}`;
    if (LINE_BREAKS.has(char)) {
      return format(options.multiline ? `must write line breaks as \\n alone: it holds ${char === '\r' ? 'a carriage return' : 'a line or paragraph separator'} ${where}` : `must be one line: it holds a line break ${where}`);
    }
    const [what, why] = whatIs(char.codePointAt(0)!);
    return format(`must be plain text: it holds ${what} ${where}${why}`);
  }
  if (BLANK.test(value)) return { message: 'must not be blank: it holds only white space or invisible characters', kind: 'required' };
  return null;
}

/** The characters the text rule refuses, written as `\uXXXX` escapes (for messages that quote). */
export function escapeNotText(value: string): string {
  return value.replace(NOT_TEXT, (char) => {
    let escaped = '';
    for (let i = 0; i < char.length; i++) escaped += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}

