import type { Campaign } from './campaign.js';

interface Entry {
  at: number;
  campaign: Campaign;
}

/**
 * A min-heap of the next self-driven transition of each campaign, so the lazy "apply what came
 * due" before every request costs one comparison when nothing is due, however many campaigns
 * exist. Entries go stale when a campaign changes; a stale entry is recognised by comparing
 * its time with the campaign's `scheduledAt` and skipped.
 */
export class Scheduler {
  private heap: Entry[] = [];

  get size(): number {
    return this.heap.length;
  }

  schedule(campaign: Campaign, at: number | null): void {
    if (at === campaign.scheduledAt) return;
    campaign.scheduledAt = at;
    if (at === null) return;
    this.heap.push({ at, campaign });
    this.up(this.heap.length - 1);
  }

  /** Whether anything is due: the per-request fast path, free of allocations. */
  hasDue(now: number): boolean {
    return this.heap.length > 0 && this.heap[0]!.at <= now;
  }

  /** Campaigns whose scheduled time is at or before `now`, each once. */
  *due(now: number): Generator<Campaign> {
    while (this.heap.length > 0 && this.heap[0]!.at <= now) {
      const entry = this.pop();
      if (entry.campaign.scheduledAt !== entry.at) continue;
      entry.campaign.scheduledAt = null;
      yield entry.campaign;
    }
  }

  clear(): void {
    this.heap = [];
  }

  private pop(): Entry {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    const heap = this.heap;
    const entry = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.at <= entry.at) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  private down(i: number): void {
    const heap = this.heap;
    const entry = heap[i]!;
    const n = heap.length;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && heap[child + 1]!.at < heap[child]!.at) child++;
      if (heap[child]!.at >= entry.at) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = entry;
  }
}
