import type { GraphQLError } from 'graphql';
import type { StatusEvent, WatchItem } from '../schema/models.js';
import { clientError } from '../graphql/errors.js';

export const LiveErrorCode = {
  /** A bound of subscriptions (per connection, ids, connections per partner). */
  SUBSCRIPTION_LIMIT_EXCEEDED: 'SUBSCRIPTION_LIMIT_EXCEEDED',
  /** The server is shutting down; reconnect to another instance. */
  SHUTTING_DOWN: 'SHUTTING_DOWN',
} as const;

/**
 * One subscription's events, as the async iterator graphql-js subscribes to. `return()` (the
 * client unsubscribed, its socket closed) takes it off its partner at once.
 */
export class Watch implements AsyncIterableIterator<WatchItem> {
  #queue: WatchItem[] = [];
  #waiting: ((result: IteratorResult<WatchItem>) => void) | undefined;
  #done = false;

  constructor(
    readonly ids: ReadonlySet<number> | null,
    private readonly queueLimit: number,
    private readonly onEnd: (watch: Watch) => void,
  ) {}

  push(event: StatusEvent): void {
    if (this.#done) return;
    if (this.ids && !this.ids.has(event.id)) return;
    if (this.#queue.length >= this.queueLimit) {
      this.fail(clientError(`The client did not read its events: more than ${this.queueLimit} were waiting. Subscribe again.`, {
        extensions: { code: LiveErrorCode.SUBSCRIPTION_LIMIT_EXCEEDED, limit: 'queued_events' },
      }));
      return;
    }
    this.#deliver(event);
  }

  /** Ends with an error the client is told (the token was refused, it read too slowly). */
  fail(failure: GraphQLError): void {
    if (this.#done) return;
    this.#queue.length = 0;
    this.#deliver({ failure });
    this.end();
  }

  /** Ends normally: the client gets `complete` once it has what was queued. */
  end(): void {
    if (this.#done) return;
    this.#done = true;
    this.onEnd(this);
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  #deliver(item: WatchItem): void {
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve({ value: item, done: false });
    } else {
      this.#queue.push(item);
    }
  }

  next(): Promise<IteratorResult<WatchItem>> {
    const item = this.#queue.shift();
    if (item) return Promise.resolve({ value: item, done: false });
    if (this.#done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  return(): Promise<IteratorResult<WatchItem>> {
    this.#queue.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<WatchItem>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
