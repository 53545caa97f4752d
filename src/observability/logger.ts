import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * JSON logs on stdout. Anything that could carry a partner token is redacted by path, and
 * request logs are built from an allow-list of fields, so a token cannot reach a log line.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
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
