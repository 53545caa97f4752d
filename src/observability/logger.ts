import { pino, type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** Fields added to every line (the trace context when tracing is on); none when absent. */
  mixin?: () => object;
}

/**
 * JSON logs on stdout. Anything that could carry a partner token is redacted by path, and
 * request logs are built from an allow-list of fields, so a token cannot reach a log line.
 *
 * stdout is written asynchronously (sonic-boom, `sync: false`): the write happens off the main
 * thread and the lines logged while one is under way go out together in the next, so a busy
 * server makes one write per batch rather than one blocking syscall per request line. Nothing
 * waits for a buffer to fill (lines are written as soon as the previous write is done), and pino
 * flushes what is left when the process exits.
 */
export function createLogger(level: string, destination?: pino.DestinationStream, options: LoggerOptions = {}): Logger {
  return pino(
    {
      level,
      ...(options.mixin ? { mixin: options.mixin } : {}),
      base: { service: 'campaign-bff' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['token', '*.token', 'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
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
