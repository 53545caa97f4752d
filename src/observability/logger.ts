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
 * Lines are written synchronously (pino's default). sonic-boom's asynchronous mode was measured
 * (bench, warm categories and the 50-card list) and saved nothing here, while it would keep lines
 * in memory that a crash loses and a slow log reader lets grow.
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
    destination,
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
