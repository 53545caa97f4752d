import type { StatusEvent } from './events.js';

/** One campaign's status as read or as a mutation left it (the backend's string). */
export interface StatusEntry {
  id: number;
  status: string;
}

export type RecordMode = 'poll' | 'mutation' | 'sync';

/**
 * Where statuses are recorded and changes published. In memory for one instance; on Redis for a
 * fleet (src/subscriptions/redis-bus.ts), where a lease makes one instance per partner the reader
 * and pub/sub brings every change to every instance once.
 *
 * Every record carries a stamp: the time the read that produced it began, or the time a mutation
 * answered. A poll that began before a mutation answered may carry the status from before it; it
 * does not overwrite the mutation's newer record (no false "changed back and forth").
 */
export interface StatusBus {
  readonly kind: 'memory' | 'redis';
  /** Whether this instance reads the partner's statuses now: it holds, renews or takes the lease. */
  lead(partner: string): Promise<boolean>;
  /** Gives the lease up: no watcher of the partner is left on this instance. */
  release(partner: string): Promise<void>;
  /**
   * Records statuses and publishes each change.
   * `poll`: a complete read of the partner's campaigns; the first one sets the record without
   * publishing (there is nothing to compare with). `mutation`: a change made through this API;
   * published only when the partner is watched (has a record). `sync`: a complete read whose
   * changes were already delivered another way (while Redis was unreachable): recorded silently.
   */
  record(partner: string, entries: StatusEntry[], stampMs: number, at: string, mode: RecordMode): Promise<void>;
  /** Drops the partner's record when nobody watches it, so a later watcher starts from a fresh read. */
  forget(partner: string): Promise<void>;
  /** Every published change, once per instance. */
  onEvent(listener: (event: StatusEvent) => void): void;
  close(): Promise<void>;
}

interface Recorded {
  status: string;
  stamp: number;
}

export function createMemoryBus(): StatusBus {
  const records = new Map<string, Map<number, Recorded>>();
  const listeners: ((event: StatusEvent) => void)[] = [];
  return {
    kind: 'memory',
    lead: async () => true,
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
        if (mode === 'sync') continue;
        const event: StatusEvent = { partner, id, previousStatus: current?.status ?? null, status, at };
        for (const listener of listeners) listener(event);
      }
    },
    forget: async (partner) => {
      records.delete(partner);
    },
    onEvent(listener) {
      listeners.push(listener);
    },
    close: async () => {
      records.clear();
    },
  };
}
