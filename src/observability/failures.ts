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

/**
 * Whether an error is a mistake in code (what JavaScript itself throws for one), rather than a
 * condition of the world the service rides out: a dependency down, refused, slow or garbled.
 */
export function isBug(error: unknown): boolean {
  return !(error instanceof Error) || error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError;
}

/**
 * Log fields for a failure: for an expected condition, its cause in words (`cause`); for a bug,
 * the error with its stack (`err`), which is what finding it takes.
 */
export function failureFields(error: unknown): { cause: string } | { err: unknown } {
  return isBug(error) ? { err: error } : { cause: causeOf(error) };
}

/** The longest cause a log line quotes: what went wrong, not a library's whole report. */
const MAX_CAUSE_LENGTH = 300;

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  name?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function ownWords(error: unknown): string {
  if (error === null || typeof error !== 'object') return String(error);
  const e = error as ErrorLike;
  const message = typeof e.message === 'string' ? e.message.split('\n')[0]!.trim() : '';
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : '';
  if (message && code && !message.includes(code)) return `${message} (${code})`;
  return message || code || (typeof e.name === 'string' ? e.name : 'unknown error');
}

/**
 * What went wrong, in one line without a stack: the error's message and code, then its causes
 * (`error.cause`, and the attempts of an AggregateError, as Node reports a connection refused on
 * every address of a host), credentials redacted and cut short. For expected conditions (Redis or
 * the backend down, a collector that does not answer): a stack there is noise, only bugs get one.
 */
export function causeOf(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  // A wrapper often repeats its cause's words, or has only a code of its own (an AggregateError's message is empty).
  const add = (words: string) => {
    if (!words || parts.some((part) => part.includes(words))) return;
    if (parts.length && words.includes(parts[parts.length - 1]!)) parts[parts.length - 1] = words;
    else parts.push(words);
  };
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null && !seen.has(current); depth++) {
    seen.add(current);
    add(ownWords(current));
    const e = current as ErrorLike;
    if (Array.isArray(e.errors) && e.errors.length > 0 && (e.cause === undefined || e.cause === null)) {
      add([...new Set(e.errors.slice(0, 3).map(ownWords))].join('; '));
      break;
    }
    current = typeof current === 'object' ? e.cause : undefined;
  }
  const text = redactCredentials(parts.join(': ') || String(error));
  return text.length > MAX_CAUSE_LENGTH ? `${text.slice(0, MAX_CAUSE_LENGTH - 1)}…` : text;
}
