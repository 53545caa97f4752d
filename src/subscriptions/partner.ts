import type { GraphQLError } from 'graphql';
import type { CampaignApi } from '../campaign-api/api.js';
import { MAX_PAGE_LIMIT, UnauthenticatedError } from '../campaign-api/index.js';
import type { TokenVerdicts } from '../cache/token-verdicts.js';
import type { BusEvent, Lead, Snapshot, StatusBus, StatusEntry } from './bus.js';
import { statusString } from './events.js';
import type { StatusEvent } from '../schema/models.js';
import type { Watch } from './watch.js';
import { clientError } from '../graphql/errors.js';

/** How a partner's statuses are read and shared. */
export interface ReaderOptions {
  /** The REST client itself: reads statuses and checks tokens. */
  api: CampaignApi;
  bus: StatusBus;
  pollIntervalMs: number;
  /** Longest wait between reads while the backend fails. */
  backoffMaxMs: number;
  /** Campaigns one read may cover (100 per backend call). */
  maxScan: number;
  onPoll?: (outcome: 'success' | 'failure' | 'unauthenticated', pages: number) => void;
}

/** What the watchers of a partner need of the hub they belong to. */
export interface PartnerHub {
  /** What the campaign API said of tokens lately: each read is a verdict on the token. */
  readonly verdicts: TokenVerdicts;
  /** To this instance's watchers of the event's partner. */
  deliver(event: StatusEvent): void;
  /** A failure of the backend or the bus, told at a bounded rate. */
  warn(message: string, error: unknown): void;
}

function tokenRefused(): GraphQLError {
  return clientError('The campaign API did not accept the partner token. Send a valid token as "Bearer <token>".', {
    extensions: { code: 'UNAUTHENTICATED' },
  });
}

/** What this instance's watchers of a partner were told of one campaign, and the stamp of what told them. */
interface Seen {
  status: string;
  stamp: number;
}

/** A change for the watchers of one partner, from whichever source found it. */
interface Change {
  id: number;
  status: string;
  stamp: number;
  at: string;
}

/** Changes held until the first read or record sets the view (bounded: reads catch up anyway). */
const MAX_HELD = 1000;

/**
 * The watchers of one partner on this instance, and the reader of its statuses.
 *
 * Every change reaches the watchers through one view: the status each campaign had when they were
 * last told, with the stamp of what told them. A change is delivered only when it moves the view
 * forward (a newer stamp and another status), so the several ways a change can arrive deliver it
 * once between them:
 *
 * - a mutation made on this instance, at once (also while pub/sub is reconnecting);
 * - this instance's own reads, while it holds the lease or while Redis is unreachable (then each
 *   instance reads for its own watchers);
 * - the bus: what another instance published;
 * - the shared record, read whole when this instance may have missed messages: the version the
 *   lease reports is ahead of the messages it has seen, or the record was made anew (Redis came
 *   back empty, and the reader's first read rebuilt it without publishing).
 */
export class PartnerWatch {
  // bounded: the subscriptions open on this instance for the partner, each removed when it ends.
  readonly watches = new Set<Watch>();
  /** Null until the first read or record of the partner; then what the watchers were told. */
  #view: Map<number, Seen> | null = null;
  /**
   * Before the view, changes the bus brought are delivered at once (their previous status is the
   * record's) and kept here; mutations of this instance wait for the view, which tells their
   * previous status. A read begun before a mutation answered does not hide it: its stamp is older.
   */
  // bounded: at most MAX_HELD campaigns, until the first read.
  #early = new Map<number, Seen>();
  #held: Change[] = [];
  /** The shared record's version the view has caught up with (every message up to it seen); null while unknown. */
  #version: { epoch: string; count: number } | null = null;
  /** The record's count the lease reported at the previous interval, when the view was behind it. */
  #awaited: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #failures = 0;
  #nextReadAt = 0;
  #stopped = false;
  #leading = false;
  /** The token's key in the verdicts: each read tells what the API says of the token. */
  readonly #verdictKey: string;

  /** Whether this instance reads the partner for the fleet now: it held the lease at its last look. */
  get leading(): boolean {
    return this.#leading && !this.#stopped;
  }

  constructor(
    readonly partner: string,
    /** Every watcher of this partner holds this same token (the partner key is its hash). */
    readonly token: string,
    private readonly hub: PartnerHub,
    private readonly options: ReaderOptions,
  ) {
    this.#verdictKey = hub.verdicts.key(token);
    // The first read sets the record that later reads are compared with.
    queueMicrotask(() => void this.#tick());
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    let lead: Lead | undefined;
    try {
      lead = await this.options.bus.lead(this.partner);
    } catch (error) {
      this.hub.warn('live status bus unavailable; reading for this instance\'s watchers only until it is back', error);
    }
    if (this.#stopped) return;
    if (!lead) {
      // Redis is unreachable: this instance reads for its own watchers. Whatever the bus carried
      // meanwhile is unknown, so the record is read again once it is back.
      this.#leading = false;
      this.#version = null;
      if (Date.now() >= this.#nextReadAt) await this.#read(false);
    } else {
      this.#leading = lead.leading;
      if (lead.leading && Date.now() >= this.#nextReadAt) await this.#read(true);
      await this.#catchUp(lead.version);
    }
    if (!this.#stopped) this.#timer = setTimeout(() => void this.#tick(), this.options.pollIntervalMs);
  }

  async #read(publish: boolean): Promise<void> {
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
      // A read the API answered is a verdict on the token, as good as a check: connections and
      // subscriptions of this partner (and the category directory) need no call of their own.
      this.hub.verdicts.set(this.#verdictKey, 'accepted');
      if (this.#stopped) return;
      this.#failures = 0;
      this.#nextReadAt = 0;
      this.options.onPoll?.('success', pages);
    } catch (error) {
      if (error instanceof UnauthenticatedError) {
        // The token was revoked: every watcher of it is told, and the reading stops; whatever
        // else this token asks for (the category directory too) is refused from now on.
        this.hub.verdicts.set(this.#verdictKey, 'refused');
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
    this.#see(entries.map((e) => ({ ...e, stamp, at })));
    if (!publish) return;
    try {
      await this.options.bus.record(this.partner, entries, stamp, at, 'poll');
    } catch (error) {
      this.hub.warn('live status bus unavailable; reading for this instance\'s watchers only until it is back', error);
    }
  }

  /**
   * Reads the shared record when the view may lack changes it holds: it is of another epoch, or
   * behind the count the lease reported an interval ago (messages take milliseconds, so still
   * missing then, they were lost).
   */
  async #catchUp(recordVersion: string | null): Promise<void> {
    // No shared record: the reader's next read makes one, and this is asked again then.
    if (recordVersion === null) return;
    const colon = recordVersion.lastIndexOf(':');
    const epoch = recordVersion.slice(0, colon);
    const count = Number(recordVersion.slice(colon + 1));
    const known = this.#version;
    if (known && known.epoch === epoch) {
      if (known.count >= count) {
        this.#awaited = undefined;
        return;
      }
      const missed = this.#awaited !== undefined && known.count < this.#awaited;
      this.#awaited = count;
      if (!missed) return;
    }
    let snapshot: Snapshot | null;
    try {
      snapshot = await this.options.bus.snapshot(this.partner);
    } catch (error) {
      this.hub.warn('could not read the live status record; trying again next interval', error);
      return;
    }
    if (!snapshot || this.#stopped) return;
    const at = new Date().toISOString();
    this.#see(snapshot.entries.map((e) => ({ ...e, at })));
    const colonAt = snapshot.version.lastIndexOf(':');
    this.#version = { epoch: snapshot.version.slice(0, colonAt), count: Number(snapshot.version.slice(colonAt + 1)) };
    this.#awaited = undefined;
  }

  /** A complete read or record: sets the view the first time (silently), else delivers what moved. */
  #see(changes: Change[]): void {
    if (this.#view) {
      for (const change of changes) this.#apply(change);
      return;
    }
    // bounded: the partner's campaigns, as one read covers them (maxScan at most).
    const view = new Map<number, Seen>();
    for (const { id, status, stamp } of changes) view.set(id, { status, stamp });
    // What the bus delivered before the view stays, where it is newer than this.
    for (const [id, seen] of this.#early) if ((view.get(id)?.stamp ?? -1) <= seen.stamp) view.set(id, seen);
    this.#view = view;
    this.#early.clear();
    const held = this.#held;
    this.#held = [];
    for (const change of held) this.#apply(change);
  }

  #apply(change: Change): void {
    const view = this.#view!;
    const seen = view.get(change.id);
    if (seen && seen.stamp > change.stamp) return;
    if (seen && seen.status === change.status) {
      seen.stamp = change.stamp;
      return;
    }
    view.set(change.id, { status: change.status, stamp: change.stamp });
    this.hub.deliver({ partner: this.partner, id: change.id, previousStatus: seen?.status ?? null, status: change.status, at: change.at });
  }

  /** A mutation made through this instance: to its watchers at once (or once the view is set). */
  mutated(change: Change): void {
    if (this.#view) this.#apply(change);
    else if (this.#held.length < MAX_HELD) this.#held.push(change);
  }

  /** A change another instance (or this one) published on the bus. */
  published(event: BusEvent): void {
    const change = { id: event.id, status: event.status, stamp: event.stamp, at: event.at };
    if (this.#view) {
      this.#apply(change);
    } else {
      const early = this.#early.get(event.id);
      if (early && (early.stamp > event.stamp || early.status === event.status)) return;
      if (this.#early.size >= MAX_HELD) return;
      this.#early.set(event.id, { status: event.status, stamp: event.stamp });
      this.hub.deliver({ partner: this.partner, id: event.id, previousStatus: event.previousStatus, status: event.status, at: event.at });
    }
    // Counted only in order: a message skipped (lost) leaves the version behind until the record is read.
    const known = this.#version;
    if (known && event.version) {
      const colon = event.version.lastIndexOf(':');
      if (event.version.slice(0, colon) === known.epoch && Number(event.version.slice(colon + 1)) === known.count + 1) known.count++;
    }
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
