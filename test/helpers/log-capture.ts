import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/observability/logger.js';

export interface CapturedLogs {
  /** A logger writing into this capture, for `startStack({ logger })`. */
  logger: Logger;
  /** Every line as written (one JSON object each). */
  lines: string[];
  /** The same lines, parsed. */
  entries: Array<Record<string, any>>;
}

/** The BFF's log lines, kept in memory, so a test can read what a request logged. */
export function captureLogs(level = 'info'): CapturedLogs {
  const lines: string[] = [];
  const entries: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      const line = chunk.toString();
      lines.push(line);
      entries.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger(level, sink), lines, entries };
}
