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

/**
 * The BFF's log lines, kept in memory, so a test can read what a request logged. Request lines
 * are written at the end of the turn of the event loop that answered them: by the time a client
 * in this process has read the answer, its line is here.
 */
export function captureLogs(level = 'info'): CapturedLogs {
  const lines: string[] = [];
  const entries: Array<Record<string, any>> = [];
  const sink = new Writable({
    // One write may hold several lines: the request lines of a turn go out together.
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split(/(?<=\n)/)) {
        lines.push(line);
        entries.push(JSON.parse(line));
      }
      done();
    },
  });
  return { logger: createLogger(level, sink), lines, entries };
}
