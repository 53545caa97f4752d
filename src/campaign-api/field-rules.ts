/**
 * Value rules of reference section 2.1 and design 4.12 as plain predicates, so the zod contract,
 * the emulator and the BFF's pre-flight checks all apply the very same definitions.
 */

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const CYRILLIC = /[\u0400-\u04FF]/;
const MONEY = /^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/;
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

/** Luminance above this is "light" and not allowed as a background (design 4.12). */
export const MAX_BACKGROUND_LUMINANCE = 0.5;
/** WCAG AA contrast for normal text. */
export const MIN_FONT_CONTRAST = 4.5;

export function isHexColor(value: string): boolean {
  return HEX_COLOR.test(value);
}

function channels(hex: string): [number, number, number] {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2 relative luminance of a `#RGB` or `#RRGGBB` colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio between two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export function hasCyrillic(value: string): boolean {
  return CYRILLIC.test(value);
}

/** A non-negative decimal with at most two decimals, such as "15", "0.5" or "10.00". */
export function isMoney(value: string): boolean {
  return MONEY.test(value);
}

/** A percentage in (0, 100], written as a decimal string. */
export function isPercent(value: string): boolean {
  if (!isMoney(value)) return false;
  const n = Number(value);
  return n > 0 && n <= 100;
}

/**
 * A bare host name as the reference wants it: no scheme, no `www.`, no path or trailing slash.
 * Returns the reason it is not, or null.
 */
export function merchantDomainProblem(value: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return 'must not start with a scheme such as https://';
  if (/^www\./i.test(value)) return 'must not start with www.';
  if (value.includes('/')) return 'must not contain a path or a trailing slash';
  const labels = value.split('.');
  if (labels.length < 2 || !labels.every((l) => HOST_LABEL.test(l))) return 'must be a host name such as shop.example.ru';
  return null;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The text rule of every free-text field (design 4.12, issue 11). Stored text goes to every client
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

const LINE_BREAKS = new Set(['\n', '\r', '\u2028', '\u2029']);

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

/** Why `value` is not text this API stores (see TextOptions), or null when it is. */
export function textProblem(value: string, options: TextOptions = {}): string | null {
  if (value.length === 0) return 'must not be empty';
  NOT_TEXT.lastIndex = 0;
  for (let match = NOT_TEXT.exec(value); match; match = NOT_TEXT.exec(value)) {
    const char = match[0];
    if (char === '\n' && options.multiline) continue;
    // Positions count characters from 1, as a person counts them in the text they sent.
    const where = `(${codePointName(char)}) at position ${[...value.slice(0, match.index)].length + 1}`;
    if (LINE_BREAKS.has(char)) {
      return options.multiline ? `must write line breaks as \\n alone: it holds ${char === '\r' ? 'a carriage return' : 'a line or paragraph separator'} ${where}` : `must be one line: it holds a line break ${where}`;
    }
    const [what, why] = whatIs(char.codePointAt(0)!);
    return `must be plain text: it holds ${what} ${where}${why}`;
  }
  if (BLANK.test(value)) return 'must not be blank: it holds only white space or invisible characters';
  return null;
}

/** The characters the text rule refuses, written as `\uXXXX` escapes (for messages that quote). */
function escapeNotText(value: string): string {
  return value.replace(NOT_TEXT, (char) => {
    let escaped = '';
    for (let i = 0; i < char.length; i++) escaped += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}

/** Longest received value a message quotes, in characters (SECURITY.md). */
export const MAX_QUOTED = 40;

/**
 * A received value as a message quotes it: at most 40 characters (never half of one), an
 * ellipsis when cut, and every character the text rule refuses written as an escape, so a message
 * is always plain text however hostile the value.
 */
export function quote(value: string): string {
  let end = 0;
  for (let chars = 0; chars < MAX_QUOTED && end < value.length; chars++) {
    const code = value.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && (value.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
    end += pair ? 2 : 1;
  }
  const cut = end < value.length;
  return escapeNotText(JSON.stringify(cut ? `${value.slice(0, end)}…` : value));
}

export const EAN_13 = /^\d{13}$/;
export const MAX_TEXT_PIN_LENGTH = 255;

/**
 * Why a pin does not fit the campaign's display type, or null when it does. Messages name the
 * display type as `pinDisplayType <value>` (see crossFieldIssues).
 */
export function pinProblem(pin: string, displayType: 'text' | 'ean_13'): string | null {
  if (displayType === 'ean_13') return EAN_13.test(pin) ? null : `must be exactly 13 digits for pinDisplayType ean_13, got ${quote(pin)}`;
  const text = textProblem(pin);
  if (text) return text;
  if (pin.trim() !== pin) return 'must not start or end with white space';
  if (pin.length > MAX_TEXT_PIN_LENGTH) return `must be at most ${MAX_TEXT_PIN_LENGTH} characters for pinDisplayType text, got ${pin.length}`;
  return null;
}

/** Pins are matched case-insensitively (design 4.10). */
export function pinKey(pin: string): string {
  return pin.toLowerCase();
}
