import { pino, type Logger } from 'pino';
import { redactCredentials } from './failures.js';
import { LineBatch } from './line-batch.js';
import { BoundedMemory } from '../bounded/index.js';

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
 * A file descriptor (standard output unless told), written synchronously: each line is written,
 * in order, before the call returns. sonic-boom's synchronous mode, as pino opens it, also waits
 * out a full non-blocking pipe and a partial write instead of losing or splitting a line.
 */
export function syncDestination(fd = 1): pino.DestinationStream {
  return pino.destination({ dest: fd, sync: true });
}

/**
 * What a logger made here writes with: where it holds its request lines, and its time function,
 * handed to pino, so that the request line can be written the way pino writes a line (below).
 * `mixin`: its lines get fields the request line's template does not know (pino writes those).
 */
const ownWriting = new WeakMap<Logger, { batch: LineBatch; time: () => string; mixin: boolean }>();

/**
 * JSON logs on stdout. Anything that could carry a partner token is redacted by path, and
 * request logs are built from an allow-list of fields, so a token cannot reach a log line.
 *
 * Lines are written synchronously, each before the call returns (`syncDestination`), but the
 * request lines, which are written together at the end of each turn of the event loop
 * (line-batch.ts), before any other line and before the turn's answers (`answerSender`). pino's
 * own default is sonic-boom's asynchronous mode: lines wait in memory while a write is under way
 * in libuv's thread pool, so a crash loses them (`test/unit/logger.test.ts` kills a process right
 * after it logged) and a slow log reader lets them grow without bound; and handing each batch to
 * the thread pool and back cost more CPU per request than writing it where it is made.
 */
export function createLogger(level: string, destination?: pino.DestinationStream, options: LoggerOptions = {}): Logger {
  const batch = new LineBatch(destination ?? syncDestination());
  const time = isoTimeOncePerMs();
  const logger = pino(
    {
      level,
      ...(options.mixin ? { mixin: options.mixin } : {}),
      base: { service: 'campaign-bff' },
      timestamp: time,
      redact: {
        paths: ['token', '*.token', 'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'req.headers.authorization'],
        censor: '[redacted]',
      },
      // A URL's credentials never reach a line: messages, and errors whatever library wrote them
      // (a client's error may quote the URL it was given).
      serializers: { err: errorWithoutCredentials },
      hooks: {
        logMethod(args, method) {
          for (let i = 0; i < args.length; i++) {
            const arg = args[i];
            if (typeof arg === 'string') args[i] = redactCredentials(arg);
          }
          // Without a message pino makes the error's message the line's: give it, redacted.
          const only = args.length === 1 ? (args[0] as unknown) : undefined;
          const error = only instanceof Error ? only : (only as { err?: unknown } | undefined)?.err;
          if (error instanceof Error) (args as unknown[]).push(redactCredentials(error.message));
          method.apply(this, args);
        },
      },
    },
    // Every line pino writes goes after the request lines held before it.
    batch.inOrder() as pino.DestinationStream,
  );
  ownWriting.set(logger, { batch, time, mixin: options.mixin !== undefined });
  return logger;
}

function errorWithoutCredentials(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  if (serialized === null || typeof serialized !== 'object') return serialized;
  const fields = serialized as { message?: unknown; stack?: unknown };
  if (typeof fields.message === 'string') fields.message = redactCredentials(fields.message);
  if (typeof fields.stack === 'string') fields.stack = redactCredentials(fields.stack);
  return serialized;
}

/** The one line per GraphQL request: a fixed allow-list of fields, in the order they are written. */
export interface RequestLine {
  requestId: string;
  operation: string;
  operationType: string | undefined;
  outcome: string;
  errorCodes: readonly string[] | undefined;
  durationMs: number;
  backendCalls: number;
  path: string;
}

const REQUEST_LINE_MESSAGE = 'graphql request';

/**
 * JSON strings of the values lines repeat (operation names and types, outcomes, paths), made
 * once each: a few hundred at most, the rest made each time.
 */
function quoter(max: number): (value: string) => string {
  const known = new BoundedMemory<string, string>({ maxEntries: max });
  return (value) => known.remember(value, () => JSON.stringify(value), value.length <= 64);
}

/** What a request id (X-Request-Id as the HTTP layer takes it, or a UUID) is made of: nothing to escape. */
const PLAIN_ID = /^[\w.-]*$/;
const quoteId = (id: string) => (PLAIN_ID.test(id) ? `"${id}"` : JSON.stringify(id));

/** What sends an answer: called with what writes its last bytes, now or later. */
export type AnswerSender = (send: () => void) => void;

/** Sends at once: where no request line is held back. */
export const sendAnswerNow: AnswerSender = (send) => send();

/**
 * Sends answers after their request lines: `send` runs at the end of the turn, right after the
 * lines held then are written (line-batch.ts). For an answer whose line is written in the same
 * turn, so that no answer is out while its line could still be lost. Where the logger writes no
 * request line, or is not one made here, `send` runs at once.
 */
export function answerSender(logger: Logger): AnswerSender {
  const batch = ownWriting.get(logger)?.batch;
  if (!batch) return sendAnswerNow;
  return (send) => {
    if (logger.isLevelEnabled('info')) batch.afterLines(send);
    else send();
  };
}

/**
 * Writes the request line at level info with the logger's own destination, time, level filter
 * and bindings: the bytes pino writes for it (`test/unit/logger.test.ts` compares them), without
 * pino's general path for a line it knows nothing about (arguments, message formatting, a walk
 * over the object, the redaction pass), which was most of the line's cost. None of the fields
 * can carry a token, so nothing here redacts. The lines of a turn are written together at its end
 * (line-batch.ts). A logger this module did not make, or one with a mixin (trace ids when tracing
 * is on), writes the line through pino, which merges it.
 */
export function requestLineWriter(logger: Logger): (line: RequestLine) => void {
  const writing = ownWriting.get(logger);
  if (!writing || writing.mixin) {
    const lines = logger.child({}, { redact: [] });
    return (line) => {
      if (lines.isLevelEnabled('info')) lines.info(line, REQUEST_LINE_MESSAGE);
    };
  }
  const { batch, time } = writing;
  // pino's line: the level's number, the time, the bindings (the base included) as JSON fields.
  const start = `{"level":${logger.levels.values.info}`;
  const bindings = Object.entries(logger.bindings())
    .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`)
    .join('');
  const quote = quoter(512);
  return (line) => {
    if (!logger.isLevelEnabled('info')) return;
    batch.push(
      `${start}${time()}${bindings},"requestId":${quoteId(line.requestId)},"operation":${quote(line.operation)}` +
        `${line.operationType === undefined ? '' : `,"operationType":${quote(line.operationType)}`},"outcome":${quote(line.outcome)}` +
        `${line.errorCodes === undefined ? '' : `,"errorCodes":${JSON.stringify(line.errorCodes)}`}` +
        `,"durationMs":${JSON.stringify(line.durationMs)},"backendCalls":${JSON.stringify(line.backendCalls)},"path":${quote(line.path)}` +
        `,"msg":"${REQUEST_LINE_MESSAGE}"}\n`,
    );
  };
}
