import { pino, type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** Fields added to every line (the trace context when tracing is on); none when absent. */
  mixin?: () => object;
}

/**
 * JSON logs on stdout. Anything that could carry a partner token is redacted by path, and
 * request logs are built from an allow-list of fields, so a token cannot reach a log line.
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
