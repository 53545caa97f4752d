import { GraphQLError } from 'graphql';
import type { CampaignApi } from '../campaign-api/api.js';
import { MAX_PAGE_LIMIT, UnauthenticatedError } from '../campaign-api/index.js';
import type { Logger } from '../observability/logger.js';
import { createMemoryBus, type StatusBus, type StatusEntry } from './bus.js';
import { partnerKey, statusString, type StatusEvent } from './events.js';

export interface LiveStatusOptions {
  /** The REST client itself (not the publishing wrapper): reads statuses and checks tokens. */
  api: CampaignApi;
  bus: StatusBus;
  pollIntervalMs: number;
  /** Longest wait between reads while the backend fails. */
  backoffMaxMs: number;
  /** Campaigns one read may cover (100 per backend call). */
  maxScan: number;
  /** Events one watcher may have waiting (a client that does not read); beyond, it is ended. */
  queueLimit?: number;
  logger: Logger;
  onPoll?: (outcome: 'success' | 'failure' | 'unauthenticated', pages: number) => void;
}

/** A token check: `unknown` when the backend could not be asked (it is down). */
export type TokenCheck = 'valid' | 'invalid' | 'unknown';

const VERIFIED_FOR_MS = 60_000;

export const LiveErrorCode = {
  /** A bound of subscriptions (per connection, ids, connections per partner). */
  SUBSCRIPTION_LIMIT_EXCEEDED: 'SUBSCRIPTION_LIMIT_EXCEEDED',
  /** The server is shutting down; reconnect to another instance. */
  SHUTTING_DOWN: 'SHUTTING_DOWN',
} as const;

function tokenRefused(): GraphQLError {
  return new GraphQLError('The campaign API did not accept the partner token. Send a valid token as "Bearer <token>".', {
    extensions: { code: 'UNAUTHENTICATED' },
  });
}

/**
 * A subscription that ends with an error: delivered as its last event, so the client gets the
 * error in a result (`errors`, then `complete`) over WebSocket and SSE alike.
 */
export interface WatchFailure {
  failure: GraphQLError;
}

export type WatchItem = StatusEvent | WatchFailure;

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
      this.fail(new GraphQLError(`The client did not read its events: more than ${this.queueLimit} were waiting. Subscribe again.`, {
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

/** The watchers of one partner on this instance, and the reader of its statuses. */
class PartnerWatch {
  readonly watches = new Set<Watch>();
  lastReadAt = 0;
  /**
   * Mutations published before this instance's first read set the record (the bus drops them
   * then): replayed once it is set. Their stamps keep a read that began earlier from hiding them.
   */
  #early: { entries: StatusEntry[]; stamp: number; at: string }[] | null = [];
  #timer: NodeJS.Timeout | undefined;
  #failures = 0;
  #nextReadAt = 0;
  #stopped = false;
  #leading = false;
  /**
   * While the bus (Redis) is unreachable: a record of this instance's own, so its watchers still
   * get what its reads and mutations find, delivered here only. Redis is a cache, not a
   * dependency. Once Redis answers again, the next read delivers what changed since here, then
   * writes the shared record silently (its changes were already delivered).
   */
  #local: StatusBus | null = null;
  /** This instance's last complete read, which a local record starts from. */
  #lastRead: { entries: StatusEntry[]; stamp: number } | null = null;

  constructor(
    readonly partner: string,
    /** Every watcher of this partner holds this same token (the partner key is its hash). */
    readonly token: string,
    private readonly hub: LiveStatus,
    private readonly options: LiveStatusOptions,
  ) {
    // The first read sets the record that later reads are compared with.
    queueMicrotask(() => void this.#tick());
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    let reachable = true;
    try {
      this.#leading = await this.options.bus.lead(this.partner);
    } catch (error) {
      this.#leading = false;
      reachable = false;
      this.hub.warn('live status bus unavailable; reading for this instance\'s watchers only until it is back', error);
    }
    if (!reachable) {
      this.#local ??= await this.#localBus();
      if (Date.now() >= this.#nextReadAt) await this.#read();
    } else if (!this.#leading) {
      // Another instance reads and holds the record: mutations reach it directly.
      this.#early = null;
      this.#local = null;
    } else if (Date.now() >= this.#nextReadAt) {
      await this.#read();
    }
    if (!this.#stopped) this.#timer = setTimeout(() => void this.#tick(), this.options.pollIntervalMs);
  }

  async #read(): Promise<void> {
    const stamp = Date.now();
    let pages = 0;
    const entries: StatusEntry[] = [];
    try {
      let total = Infinity;
      for (let offset = 0; offset < total && offset < this.options.maxScan; offset += MAX_PAGE_LIMIT) {
        const page = await this.options.api.getAllCampaigns(this.token, { limit: MAX_PAGE_LIMIT, offset });
        pages++;
        total = page.total;
        for (const c of page.campaigns) entries.push({ id: c.ymCampaignId, status: statusString(c.campaignStatus) });
        if (page.campaigns.length === 0) break;
      }
      if (this.#stopped) return;
      this.#failures = 0;
      this.#nextReadAt = 0;
      this.lastReadAt = Date.now();
      this.options.onPoll?.('success', pages);
    } catch (error) {
      if (error instanceof UnauthenticatedError) {
        // The token was revoked: every watcher of it is told, and the reading stops.
        this.options.onPoll?.('unauthenticated', pages);
        for (const watch of [...this.watches]) watch.fail(tokenRefused());
        return;
      }
      this.options.onPoll?.('failure', pages);
      // Back off while the backend fails; watchers stay and are sent nothing.
      this.#failures++;
      const wait = Math.min(this.options.pollIntervalMs * 2 ** this.#failures, this.options.backoffMaxMs);
      this.#nextReadAt = Date.now() + wait;
      this.hub.warn(`reading campaign statuses failed; next read in ${wait} ms`, error);
      return;
    }
    const at = new Date().toISOString();
    this.#lastRead = { entries, stamp };
    const local = this.#local;
    if (local) {
      await local.record(this.partner, entries, stamp, at, 'poll');
      if (!this.#leading) return;
    }
    try {
      await this.options.bus.record(this.partner, entries, stamp, at, local ? 'sync' : 'poll');
      this.#local = null;
      const early = this.#early ?? [];
      this.#early = null;
      for (const m of early) await this.options.bus.record(this.partner, m.entries, m.stamp, m.at, 'mutation');
    } catch (error) {
      this.hub.warn('live status bus unavailable; reading for this instance\'s watchers only until it is back', error);
      this.#local ??= await this.#localBus();
      await this.#local.record(this.partner, entries, stamp, at, 'poll');
    }
  }

  /** A mutation answered before the first read: kept for replay (bounded; reads catch up anyway). */
  early(entries: StatusEntry[], stamp: number, at: string): void {
    if (this.#early && this.#early.length < 1000) this.#early.push({ entries, stamp, at });
  }

  /** A mutation the bus could not take: delivered here while this instance reads for itself. */
  publishLocally(entries: StatusEntry[], stamp: number, at: string): Promise<void> {
    return this.#local ? this.#local.record(this.partner, entries, stamp, at, 'mutation') : Promise.resolve();
  }

  /**
   * Starts from this instance's last read when it was the reader, so what changed since is
   * found; an instance that was not starts from its first read on its own (a change made in
   * between reaches its watchers only with the next one).
   */
  async #localBus(): Promise<StatusBus> {
    const bus = createMemoryBus();
    bus.onEvent((event) => this.hub.deliver(event));
    if (this.#lastRead) await bus.record(this.partner, this.#lastRead.entries, this.#lastRead.stamp, '', 'poll');
    return bus;
  }

  #stopping: Promise<void> | undefined;

  stop(): Promise<void> {
    this.#stopping ??= this.#release();
    return this.#stopping;
  }

  #release(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const release = this.#leading ? this.options.bus.release(this.partner) : Promise.resolve();
    return Promise.all([release, this.options.bus.forget(this.partner)]).then(
      () => {},
      (error: unknown) => this.hub.warn('could not give up the live status lease', error),
    );
  }
}

/**
 * Live campaign status: the watchers of each partner share one reader of its statuses (one per
 * fleet on Redis), which publishes every change through the bus; mutations made through this API
 * publish theirs at once. Watchers are async iterators for graphql-js's `subscribe`.
 */
export class LiveStatus {
  readonly #partners = new Map<string, PartnerWatch>();
  readonly #verified = new Map<string, number>();
  readonly #checking = new Map<string, Promise<TokenCheck>>();
  readonly #connections = new Map<string, number>();
  /** Subscriptions have ended (shutdown): none is taken any more. */
  #closed = false;
  /** The bus is closed too: nothing more is published. */
  #busClosed = false;
  /** Publications of mutations still on their way to the bus, which closing waits for. */
  readonly #publishing = new Set<Promise<void>>();
  #lastWarn = 0;

  constructor(private readonly options: LiveStatusOptions) {
    options.bus.onEvent((event) => this.deliver(event));
  }

  /** To this instance's watchers of the event's partner. */
  deliver(event: StatusEvent): void {
    const partner = this.#partners.get(event.partner);
    if (partner) for (const watch of partner.watches) watch.push(event);
  }

  /** Whether the campaign API takes the token; a recent successful read counts as yes. */
  verify(token: string): Promise<TokenCheck> {
    const key = partnerKey(token);
    const now = Date.now();
    if ((this.#verified.get(key) ?? 0) > now) return Promise.resolve('valid');
    const reader = this.#partners.get(key);
    if (reader && now - reader.lastReadAt < VERIFIED_FOR_MS) return Promise.resolve('valid');
    let check = this.#checking.get(key);
    if (!check) {
      check = this.options.api.getAllCampaigns(token, { limit: 1, offset: 0 }).then(
        (): TokenCheck => {
          if (this.#verified.size > 10_000) for (const [k, until] of this.#verified) if (until <= now) this.#verified.delete(k);
          this.#verified.set(key, Date.now() + VERIFIED_FOR_MS);
          return 'valid';
        },
        (error: unknown): TokenCheck => (error instanceof UnauthenticatedError ? 'invalid' : 'unknown'),
      );
      this.#checking.set(key, check);
      void check.finally(() => this.#checking.delete(key));
    }
    return check;
  }

  /** Counts a connection of the partner; false when it already has `max`. */
  admit(token: string, max: number): boolean {
    const key = partnerKey(token);
    const count = this.#connections.get(key) ?? 0;
    if (count >= max) return false;
    this.#connections.set(key, count + 1);
    return true;
  }

  leave(token: string): void {
    const key = partnerKey(token);
    const count = (this.#connections.get(key) ?? 1) - 1;
    if (count <= 0) this.#connections.delete(key);
    else this.#connections.set(key, count);
  }

  /** The events of the partner's campaigns (only `ids` when given) from now on. */
  watch(token: string, ids: ReadonlySet<number> | null): Watch {
    if (this.#closed) {
      throw new GraphQLError('The server is shutting down; subscribe again to reach another instance.', {
        extensions: { code: LiveErrorCode.SHUTTING_DOWN },
      });
    }
    const key = partnerKey(token);
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
   * A mutation through this API answered with the campaign's status: publish it at once. Also
   * while subscriptions are closing in a shutdown: watchers on other instances must learn what
   * the requests still in flight did.
   */
  published(token: string, id: number, status: string): void {
    if (this.#busClosed) return;
    const now = Date.now();
    const key = partnerKey(token);
    const at = new Date(now).toISOString();
    const partner = this.#partners.get(key);
    partner?.early([{ id, status }], now, at);
    const publishing = this.options.bus.record(key, [{ id, status }], now, at, 'mutation').catch((error: unknown) => {
      this.warn('could not publish a status change on the bus; delivered on this instance only', error);
      return partner?.publishLocally([{ id, status }], now, at);
    });
    this.#publishing.add(publishing);
    void publishing.finally(() => this.#publishing.delete(publishing));
  }

  stats(): { partners: number; watches: number; connections: number } {
    let watches = 0;
    for (const partner of this.#partners.values()) watches += partner.watches.size;
    let connections = 0;
    for (const count of this.#connections.values()) connections += count;
    return { partners: this.#partners.size, watches, connections };
  }

  /** One warning per 10 s: a down backend or Redis fails every interval. */
  warn(message: string, error: unknown): void {
    if (Date.now() - this.#lastWarn < 10_000) return;
    this.#lastWarn = Date.now();
    this.options.logger.warn({ err: error }, message);
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
