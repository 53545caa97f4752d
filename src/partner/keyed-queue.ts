/**
 * Runs tasks that share a key one after another, in arrival order; tasks of other keys run at
 * once. Shared by every request of one process. A key's entry lives only while tasks for it are
 * queued or running, so the map holds no more keys than there are tasks in flight.
 */
export class KeyedQueue {
  // bounded: a key only while tasks for it are queued or running.
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    // The next task waits for this one, which waits for the one before: a chain per key.
    const tail = previous ? previous.then(() => finished) : finished;
    this.tails.set(key, tail);
    try {
      if (previous) await previous;
      return await task();
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with tasks queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
