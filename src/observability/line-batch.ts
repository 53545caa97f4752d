/**
 * Request lines written a turn of the event loop at a time. Under load a turn answers many
 * requests, and a write to the log's file descriptor per line was a system call per request, a
 * large share of what a line cost; the lines of a turn now go out in one write at its end (or
 * sooner, once they fill a buffer). Every other line is still written at once, after the request
 * lines before it, so the log keeps its order and a warning or an error is never held back.
 *
 * An answer waits for its line: what sends it is held too (`afterLines`) and run at the end of the
 * turn, right after the lines are written, so a process killed outright (SIGKILL, the kernel's
 * OOM killer) has written the line of every answer it sent, whenever it is killed. A process that
 * exits (shutdown, a crash's exception) writes the lines it holds first. Never more than one
 * turn's lines are held, and never more than `MAX_PENDING` characters.
 */

/** Where the lines go: a synchronous destination (pino's sonic-boom in sync mode, or a test's). */
export interface LineSink {
  write(text: string): unknown;
}

/** Lines held at most before they are written at once, whatever the turn. */
const MAX_PENDING = 64 * 1024;

export class LineBatch {
  #pending = '';
  #scheduled = false;
  // bounded: emptied at the end of every turn; at most the answers of one turn.
  #sends: Array<() => void> = [];
  readonly #flushAtTurnEnd = () => {
    this.#scheduled = false;
    this.flush();
    // Run only here, never by a flush within the turn: a send held before its line was pushed (a
    // compressed answer's line follows it a microtask later) waits for that line too.
    const sends = this.#sends;
    if (sends.length === 0) return;
    this.#sends = [];
    let failure: { error: unknown } | undefined;
    for (const send of sends) {
      try {
        send();
      } catch (error) {
        failure ??= { error };
      }
    }
    // One send's failure does not keep the others' answers; it is thrown as any callback's is.
    if (failure) throw failure.error;
  };

  constructor(private readonly sink: LineSink) {
    atExit(this);
  }

  /** Holds a line (with its newline) for the end of this turn. */
  push(line: string): void {
    this.#pending += line;
    if (this.#pending.length >= MAX_PENDING) this.flush();
    else this.#atTurnEnd();
  }

  /**
   * Runs `send` at the end of this turn, in order with the others, after the lines held by then
   * are written: for what sends an answer whose request line is pushed in the same turn.
   */
  afterLines(send: () => void): void {
    this.#sends.push(send);
    this.#atTurnEnd();
  }

  #atTurnEnd(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#flushAtTurnEnd);
  }

  /** Writes what is held, now. */
  flush(): void {
    if (this.#pending.length === 0) return;
    const text = this.#pending;
    this.#pending = '';
    this.sink.write(text);
  }

  /** A sink that writes what is held first, then its own text: for every line that is not a request line. */
  inOrder(): LineSink {
    return {
      write: (text) => {
        this.flush();
        return this.sink.write(text);
      },
    };
  }
}

// bounded: one reference per logger the process makes (one in production), pruned as they are collected.
const batches = new Set<WeakRef<LineBatch>>();
let hooked = false;

function atExit(batch: LineBatch): void {
  for (const ref of batches) if (!ref.deref()) batches.delete(ref);
  batches.add(new WeakRef(batch));
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const ref of batches) ref.deref()?.flush();
  });
}
