import type { StatusEvent } from '../schema/models.js';

/** One campaign's status as read or as a mutation left it (the backend's string). */
export interface StatusEntry {
  id: number;
  status: string;
}

export type RecordMode = 'poll' | 'mutation';

/** A change as the bus carries it: the event, with what orders it among the changes of its campaign. */
export interface BusEvent extends StatusEvent {
  /** The stamp of the read or mutation that made it (see StatusBus). */
  stamp: number;
  /** The shared record's version once this change was in it (`<epoch>:<count>`); none on the memory bus. */
  version?: string;
}

/** The shared record of a partner as it is now: each campaign's status with its stamp, and the record's version. */
export interface Snapshot {
  version: string;
  entries: (StatusEntry & { stamp: number })[];
}

export interface Lead {
  /** Whether this instance reads the partner's statuses now: it holds, renewed or took the lease. */
  leading: boolean;
  /** The shared record's version (`<epoch>:<count>`); null while there is no record (or no shared one). */
  version: string | null;
}

/**
 * Where statuses are recorded and changes published. In memory for one instance; on Redis for a
 * fleet (src/subscriptions/redis-bus.ts), where a lease makes one instance per partner the reader
 * and pub/sub brings every change to every instance.
 *
 * Every record carries a stamp: the time the read that produced it began, or the time a mutation
 * answered. A poll that began before a mutation answered may carry the status from before it; it
 * does not overwrite the mutation's newer record (no false "changed back and forth").
 *
 * A shared record has a version: an epoch, new each time the record is made (Redis came back
 * empty, or nobody watched the partner for a while), and a count of the changes published since.
 * An instance that has not seen every change up to the version the lease reports has missed
 * some (pub/sub gives no second chance) and reads the record itself (`snapshot`).
 */
export interface StatusBus {
  readonly kind: 'memory' | 'redis';
  lead(partner: string): Promise<Lead>;
  /** Gives the lease up: no watcher of the partner is left on this instance. */
  release(partner: string): Promise<void>;
  /**
   * Records statuses and publishes each change.
   * `poll`: a complete read of the partner's campaigns; the first one sets the record without
   * publishing (there is nothing to compare with). `mutation`: a change made through this API;
   * published only when the partner is watched (has a record).
   */
  record(partner: string, entries: StatusEntry[], stampMs: number, at: string, mode: RecordMode): Promise<void>;
  /** The shared record, for an instance that missed changes; null when there is none. */
  snapshot(partner: string): Promise<Snapshot | null>;
  /** Drops the partner's record when nobody watches it, so a later watcher starts from a fresh read. */
  forget(partner: string): Promise<void>;
  /** Every published change, once per instance (while connected). */
  onEvent(listener: (event: BusEvent) => void): void;
  /** Whether the bus's connections are ready now (always, in memory). */
  connected(): boolean;
  close(): Promise<void>;
}

interface Recorded {
  status: string;
  stamp: number;
}

export function createMemoryBus(): StatusBus {
  // bounded: a record per partner watched on this instance (dropped when its last watcher leaves), each of the partner's campaigns.
  const records = new Map<string, Map<number, Recorded>>();
  const listeners: ((event: BusEvent) => void)[] = [];
  return {
    kind: 'memory',
    // One instance: nothing is shared, so there is no version to catch up with.
    lead: async () => ({ leading: true, version: null }),
    release: async () => {},
    async record(partner, entries, stampMs, at, mode) {
      let record = records.get(partner);
      if (!record) {
        if (mode === 'mutation') return;
        record = new Map(entries.map((e) => [e.id, { status: e.status, stamp: stampMs }]));
        records.set(partner, record);
        return;
      }
      for (const { id, status } of entries) {
        const current = record.get(id);
        if (current && (current.stamp > stampMs || current.status === status)) continue;
        record.set(id, { status, stamp: stampMs });
        const event: BusEvent = { partner, id, previousStatus: current?.status ?? null, status, at, stamp: stampMs };
        for (const listener of listeners) listener(event);
      }
    },
    snapshot: async () => null,
    forget: async (partner) => {
      records.delete(partner);
    },
    onEvent(listener) {
      listeners.push(listener);
    },
    connected: () => true,
    close: async () => {
      records.clear();
    },
  };
}
