import { InFlight } from '../bounded/index.js';
import { TOKEN_ACCEPTED_FOR_MS, TOKEN_REFUSED_FOR_MS, TOKEN_VERDICTS_MAX, TokenVerdicts } from '../cache/token-verdicts.js';
import { failureFields } from '../observability/failures.js';
import type { Logger } from '../observability/logger.js';
import { keyedHashes, type KeyedHashes } from '../secrets/index.js';
import type { StatusEvent } from '../schema/models.js';
import { PartnerWatch, type ReaderOptions } from './partner.js';
import { LiveErrorCode, Watch } from './watch.js';
import { clientError } from '../graphql/errors.js';

export { LiveErrorCode, Watch } from './watch.js';

export interface LiveStatusOptions extends ReaderOptions {
  /** Events one watcher may have waiting (a client that does not read); beyond, it is ended. */
  queueLimit?: number;
  logger: Logger;
  /**
   * What the campaign API said of tokens lately: the process's one memory of it, which the
   * category directory shares (a token either saw accepted is accepted by the other without a
   * call). Without it the hub keeps its own.
   */
  verdicts?: TokenVerdicts;
  /**
   * What a partner is named by in maps, Redis keys and messages: its token's keyed hash, the same
   * on every instance of a fleet (`CURSOR_SECRET`), so that they share one reader. Without it, a
   * secret of this process: it then reads for its own watchers.
   */
  hashes?: KeyedHashes;
}

/**
 * Live campaign status: the watchers of each partner share one reader of its statuses (one per
 * fleet on Redis), which publishes every change through the bus; mutations made through this API
 * publish theirs at once. Watchers are async iterators for graphql-js's `subscribe`.
 *
 * The hub owns the partners watched on this instance, their connections and what mutations
 * publish; one partner's reader and the view its watchers share are partner.ts's, one
 * subscription's queue watch.ts's.
 */
export class LiveStatus {
  // bounded: a partner while it has a subscription open here, removed with its last: the open connections bound it.
  readonly #partners = new Map<string, PartnerWatch>();
  /** What the campaign API said of tokens lately, shared with the category directory. */
  readonly verdicts: TokenVerdicts;
  // bounded: a partner while it has a connection open here (each partner a limited number of them).
  readonly #connections = new Map<string, number>();
  /** Subscriptions have ended (shutdown): none is taken any more. */
  #closed = false;
  /** The bus is closed too: nothing more is published. */
  #busClosed = false;
  /** Publications of mutations still on their way to the bus, which closing waits for. */
  readonly #publishing = new InFlight<Promise<void>>();
  #lastWarn = 0;
  readonly #hashes: KeyedHashes;

  constructor(private readonly options: LiveStatusOptions) {
    this.#hashes = options.hashes ?? keyedHashes();
    this.verdicts =
      options.verdicts ?? new TokenVerdicts({ acceptedForMs: TOKEN_ACCEPTED_FOR_MS, refusedForMs: TOKEN_REFUSED_FOR_MS, maxEntries: TOKEN_VERDICTS_MAX, hashes: this.#hashes });
    options.bus.onEvent((event) => this.#partners.get(event.partner)?.published(event));
  }

  /** To this instance's watchers of the event's partner. */
  deliver(event: StatusEvent): void {
    const partner = this.#partners.get(event.partner);
    if (partner) for (const watch of partner.watches) watch.push(event);
  }

  /** The partner a token stands for, as every shared structure names it: never the token, nor an unkeyed hash of it. */
  #partnerKey(token: string): string {
    return this.#hashes.of('live-partner', token);
  }

  /** Counts a connection of the partner; false when it already has `max`. */
  admit(token: string, max: number): boolean {
    const key = this.#partnerKey(token);
    const count = this.#connections.get(key) ?? 0;
    if (count >= max) return false;
    this.#connections.set(key, count + 1);
    return true;
  }

  leave(token: string): void {
    const key = this.#partnerKey(token);
    const count = (this.#connections.get(key) ?? 1) - 1;
    if (count <= 0) this.#connections.delete(key);
    else this.#connections.set(key, count);
  }

  /** The events of the partner's campaigns (only `ids` when given) from now on. */
  watch(token: string, ids: ReadonlySet<number> | null): Watch {
    if (this.#closed) {
      throw clientError('The server is shutting down; subscribe again to reach another instance.', {
        extensions: { code: LiveErrorCode.SHUTTING_DOWN },
      });
    }
    const key = this.#partnerKey(token);
    let partner = this.#partners.get(key);
    if (!partner) {
      partner = new PartnerWatch(key, token, this, this.options);
      this.#partners.set(key, partner);
    }
    const watch = new Watch(ids, this.options.queueLimit ?? 1000, (ended) => this.#unwatch(key, ended));
    partner.watches.add(watch);
    return watch;
  }

  #unwatch(key: string, watch: Watch): void {
    const partner = this.#partners.get(key);
    if (!partner || !partner.watches.delete(watch) || partner.watches.size > 0) return;
    // The last watcher left: nobody needs the reads any more.
    this.#partners.delete(key);
    void partner.stop();
  }

  /**
   * A write through this instance's client (a mutation's) told the campaign's status: delivered to
   * this instance's watchers at once, and published to the others. Also while subscriptions are closing in a
   * shutdown: watchers on other instances must learn what the requests still in flight did.
   */
  published(token: string, id: number, status: string): void {
    if (this.#busClosed) return;
    const stamp = Date.now();
    const key = this.#partnerKey(token);
    const at = new Date(stamp).toISOString();
    this.#partners.get(key)?.mutated({ id, status, stamp, at });
    const publishing = this.options.bus.record(key, [{ id, status }], stamp, at, 'mutation').catch((error: unknown) => {
      // Other instances find the change with their next read while Redis is away.
      this.warn('could not publish a status change on the bus; delivered on this instance, found by the others\' reads', error);
    });
    this.#publishing.addUntilSettled(publishing);
  }

  /** `leases`: the partners this instance reads for the fleet (it holds their lease; on one instance, every partner it reads). */
  stats(): { partners: number; watches: number; connections: number; leases: number } {
    let watches = 0;
    let leases = 0;
    for (const partner of this.#partners.values()) {
      watches += partner.watches.size;
      if (partner.leading) leases++;
    }
    let connections = 0;
    for (const count of this.#connections.values()) connections += count;
    return { partners: this.#partners.size, watches, connections, leases };
  }

  /** One warning per 10 s: a down backend or Redis fails every interval. */
  warn(message: string, error: unknown): void {
    if (Date.now() - this.#lastWarn < 10_000) return;
    this.#lastWarn = Date.now();
    this.options.logger.warn(failureFields(error), message);
  }

  /**
   * Completes every subscription and stops every reader (graceful shutdown). The bus stays open:
   * mutations still in flight publish what they did (`close` ends it once they are answered).
   */
  async endSubscriptions(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const partners = [...this.#partners.values()];
    for (const partner of partners) for (const watch of [...partner.watches]) watch.end();
    await Promise.all(partners.map((p) => p.stop()));
  }

  /** Ends the subscriptions if they still run, waits for the publications under way, and closes the bus. */
  async close(): Promise<void> {
    await this.endSubscriptions();
    if (this.#busClosed) return;
    this.#busClosed = true;
    // Commands fail fast while Redis is away; the bound is for one that hangs.
    await Promise.race([Promise.allSettled([...this.#publishing]), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    await this.options.bus.close();
  }
}
