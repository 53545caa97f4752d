/**
 * How failures are put into words for people: configuration errors, start-up lines and log lines.
 * Nothing here imports anything, so the configuration, the logger and every module can use it.
 */

/**
 * The user info of every URL in a text (`redis://user:password@host`, `https://user@host`). It
 * runs to the last `@` before a space, so a password that holds `@`, `/`, `#` or a quote unencoded
 * (which URL parsers then misread) is hidden whole; at worst a path that holds `@` hides a little
 * more than it must. A URL without an authority (`file:///…/node_modules/@scope/…` in a stack
 * trace) has no user info.
 */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)(?!\/)[^\s@]*(?:@[^\s@]*)*@/gi;
/** The same for a text that is one URL as configured, spaces included (a URL parser takes them). */
const VALUE_USER_INFO = /^(\s*[a-z][a-z0-9+.-]*:\/\/)[^]*@/i;
const REDACTED_USER_INFO = '$1[redacted]@';

/**
 * The text with the credentials of any URL in it replaced by `[redacted]`. Every message that may
 * quote a URL from the configuration goes through this: configuration errors, the start-up
 * banner, and every log line (its message and its error, whatever library wrote it).
 */
export function redactCredentials(text: string): string {
  // Almost every text holds no URL at all: one search, no copy.
  if (!text.includes('://')) return text;
  return text.replace(URL_USER_INFO, REDACTED_USER_INFO);
}

/**
 * A configured URL (a variable's whole value) as it may be shown: without its user info, which
 * here runs to the value's last `@` even across spaces.
 */
export function redactUrlValue(value: string): string {
  return redactCredentials(value.replace(VALUE_USER_INFO, REDACTED_USER_INFO));
}
