import { pino, type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** Fields added to every line (the trace context when tracing is on); none when absent. */
  mixin?: () => object;
}

/**
 * pino's `isoTime`, remembered for the millisecond it names: under load many lines fall in the
 * same millisecond, and formatting the date was about a sixth of a request line's cost.
 */
function isoTimeOncePerMs(): () => string {
  let lastMs = -1;
  let last = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      last = `,"time":"${new Date(now).toISOString()}"`;
    }
    return last;
  };
}

/**
 * JSON logs on stdout. Anything that could carry a partner token is redacted by path, and
 * request logs are built from an allow-list of fields, so a token cannot reach a log line.
 *
 * Lines are written synchronously, each before the call returns. pino's own default is
 * sonic-boom's asynchronous mode: lines wait in memory while a write is under way in libuv's
 * thread pool, so a crash loses them (1,999 of 2,000 in
 * `test/unit/logger.test.ts`) and a slow log reader lets them grow without bound; and handing
 * each batch to the thread pool and back cost more CPU per request than writing it here
 * (bench/README.md, issue 15).
 */
export function createLogger(level: string, destination?: pino.DestinationStream, options: LoggerOptions = {}): Logger {
  return pino(
    {
      level,
      ...(options.mixin ? { mixin: options.mixin } : {}),
      base: { service: 'campaign-bff' },
      timestamp: isoTimeOncePerMs(),
      redact: {
        paths: ['token', '*.token', 'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/**
 * The logger for the one line per GraphQL request. That line is built from a fixed allow-list
 * of fields (request id, operation name and type, outcome, error codes, duration, backend calls,
 * path), none of which any redaction path names, so the redaction pass, which walks every field
 * of a line and was the dearest part of writing it, is skipped for it alone.
 */
export function requestLineLogger(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}
