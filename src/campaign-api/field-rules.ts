import { isMoney } from '../text/money.js';
import { quote } from '../text/received-value.js';
import { textIssue } from '../text/text-rule.js';

/**
 * The REST API's value rules (docs/adr/rest-reference.md) as plain predicates, so the zod contract,
 * the emulator and the BFF's pre-flight checks all apply the very same definitions.
 */

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const CYRILLIC = /[\u0400-\u04FF]/;
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

/** Luminance above this is "light" and not allowed as a background: light text must stay readable on it. */
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

export const EAN_13 = /^\d{13}$/;
export const MAX_TEXT_PIN_LENGTH = 255;

/**
 * Why a pin does not fit the campaign's display type, or null when it does. Messages name the
 * display type as `pinDisplayType <value>` (see crossFieldIssues).
 */
export function pinProblem(pin: string, displayType: 'text' | 'ean_13'): string | null {
  return pinIssue(pin, displayType)?.message ?? null;
}

/** `pinProblem` with the kind of problem it is. */
export function pinIssue(pin: string, displayType: 'text' | 'ean_13'): { message: string; kind: 'required' | 'format' | 'tooLong' } | null {
  if (displayType === 'ean_13') return EAN_13.test(pin) ? null : { message: `must be exactly 13 digits for pinDisplayType ean_13, got ${quote(pin)}`, kind: 'format' };
  const text = textIssue(pin);
  if (text) return text;
  if (pin.trim() !== pin) return { message: 'must not start or end with white space', kind: 'format' };
  if (pin.length > MAX_TEXT_PIN_LENGTH) return { message: `must be at most ${MAX_TEXT_PIN_LENGTH} characters for pinDisplayType text, got ${pin.length}`, kind: 'tooLong' };
  return null;
}

/** Pins are matched case-insensitively, as the REST API matches them. */
export function pinKey(pin: string): string {
  return pin.toLowerCase();
}
