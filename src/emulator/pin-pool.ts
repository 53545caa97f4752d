import { pinKey, type PinStatus } from '../campaign-api/index.js';

const NEW_UNUSED = 0;
const ACCEPTED = 1;
const REDEEMED = 2;
const STATUS_NAMES: readonly PinStatus[] = ['new_unused', 'accepted_by_user', 'redeem_received'];

export interface PinRef {
  readonly slot: number;
  readonly value: string;
  readonly status: PinStatus;
}

/**
 * The one-off pins of one campaign, sized for a million of them: pins live in flat arrays
 * addressed by slot, the case-insensitive index maps a key to its slot, and each status keeps
 * its pins in upload order. Taking a pin, redeeming one and every counter are O(1); only
 * listing a status walks its pins.
 */
export class PinPool {
  private readonly slots = new Map<string, number>();
  private readonly values: string[] = [];
  private readonly statuses: number[] = [];
  /** Unused pins in upload order; pins before `unusedHead` have been taken. */
  private unused: number[] = [];
  private unusedHead = 0;
  /** Insertion-ordered, so listing keeps the order in which users took them. */
  private readonly accepted = new Set<number>();
  private readonly redeemed: number[] = [];

  get total(): number {
    return this.values.length;
  }
  get unusedCount(): number {
    return this.unused.length - this.unusedHead;
  }
  get acceptedCount(): number {
    return this.accepted.size;
  }
  get redeemedCount(): number {
    return this.redeemed.length;
  }

  /** Pins already present in any spelling are skipped. Returns how many were added. */
  add(pins: readonly string[]): number {
    let added = 0;
    for (const pin of pins) {
      const key = pinKey(pin);
      if (this.slots.has(key)) continue;
      const slot = this.values.length;
      this.slots.set(key, slot);
      this.values.push(pin);
      this.statuses.push(NEW_UNUSED);
      this.unused.push(slot);
      added++;
    }
    return added;
  }

  /** How many of these pins are not in the pool yet (in any spelling), counting each once. */
  countNew(pins: readonly string[]): number {
    const seen = new Set<string>();
    for (const pin of pins) {
      const key = pinKey(pin);
      if (!this.slots.has(key)) seen.add(key);
    }
    return seen.size;
  }

  /** A user takes the oldest unused pin; undefined when none is left. */
  take(): string | undefined {
    if (this.unusedHead >= this.unused.length) return undefined;
    const slot = this.unused[this.unusedHead++]!;
    // Drop the taken prefix now and then so the queue does not grow without bound.
    if (this.unusedHead > 4096 && this.unusedHead * 2 > this.unused.length) {
      this.unused = this.unused.slice(this.unusedHead);
      this.unusedHead = 0;
    }
    this.statuses[slot] = ACCEPTED;
    this.accepted.add(slot);
    return this.values[slot];
  }

  find(pin: string): PinRef | undefined {
    const slot = this.slots.get(pinKey(pin));
    if (slot === undefined) return undefined;
    return { slot, value: this.values[slot]!, status: STATUS_NAMES[this.statuses[slot]!]! };
  }

  /** An accepted pin was used: it leaves accepted_by_user for redeem_received. */
  markRedeemed(slot: number): void {
    if (this.statuses[slot] !== ACCEPTED) throw new Error(`pin slot ${slot} is not accepted_by_user`);
    this.accepted.delete(slot);
    this.statuses[slot] = REDEEMED;
    this.redeemed.push(slot);
  }

  list(status: PinStatus): string[] {
    const values = this.values;
    if (status === 'new_unused') {
      const out = new Array<string>(this.unusedCount);
      for (let i = this.unusedHead, j = 0; i < this.unused.length; i++, j++) out[j] = values[this.unused[i]!]!;
      return out;
    }
    if (status === 'accepted_by_user') return Array.from(this.accepted, (slot) => values[slot]!);
    return this.redeemed.map((slot) => values[slot]!);
  }
}
