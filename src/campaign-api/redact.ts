import { BusinessError, type CampaignApiError } from './errors.js';

/**
 * An error's stack, scrubbed when it is read. Reading it here would format it (through the source
 * maps) for every failed call, though few errors are ever logged; V8 formats a stack on its first
 * read, through an accessor of the error's own, which this wraps. A stack already formatted is
 * scrubbed at once.
 */
function scrubStackWhenRead(error: Error, scrub: (text: string) => string): void {
  const own = Object.getOwnPropertyDescriptor(error, 'stack');
  if (!own) return;
  if (!own.get) {
    if (typeof own.value === 'string') error.stack = scrub(own.value);
    return;
  }
  const read = own.get;
  Object.defineProperty(error, 'stack', {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      const text: unknown = read.call(error);
      return typeof text === 'string' ? scrub(text) : text;
    },
    set(value: unknown) {
      Object.defineProperty(error, 'stack', { value, writable: true, configurable: true, enumerable: own.enumerable });
    },
  });
}

/** Defence in depth: whatever a backend echoed back, the token never leaves in an error's text. */
export function redact(error: CampaignApiError, token: string): void {
  if (typeof token !== 'string' || token.length < 4) return;
  const scrub = (text: string) => (text.includes(token) ? text.split(token).join('[redacted]') : text);
  error.message = scrub(error.message);
  scrubStackWhenRead(error, scrub);
  if (error instanceof BusinessError) {
    const mutable = error as { -readonly [K in 'detail' | 'fields']: BusinessError[K] };
    mutable.detail = scrub(error.detail);
    mutable.fields = error.fields.map((f) => ({ field: scrub(f.field), message: scrub(f.message) }));
  }
}
