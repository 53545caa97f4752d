import { describe, expect, it } from 'vitest';
import { Breaker, Bulkhead, QueueDeadlines, backoffDelayMs, type QueueWaiter } from '../../src/campaign-api/resilience.js';

describe('Bulkhead', () => {
  it('admits up to maxConcurrent, queues up to maxQueue, and refuses the rest', () => {
    const bulkhead = new Bulkhead(2, 1);
    expect(bulkhead.enter()).toBe(true);
    expect(bulkhead.enter()).toBe(true);
    expect(typeof bulkhead.enter()).toBe('object');
    expect(bulkhead.enter()).toBe(false);
  });

  it('hands a freed slot to the first waiter, in order', async () => {
    const bulkhead = new Bulkhead(1, 5);
    expect(bulkhead.enter()).toBe(true);
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) => {
      const entry = bulkhead.enter() as { turn: Promise<void> };
      return entry.turn.then(() => order.push(n));
    });
    bulkhead.exit();
    await waiters[0];
    expect(order).toEqual([1]);
    bulkhead.exit();
    bulkhead.exit();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
  });

  it('a waiter that gives up leaves the queue at once, and its place is free for another', async () => {
    const bulkhead = new Bulkhead(1, 1);
    expect(bulkhead.enter()).toBe(true);
    const entry = bulkhead.enter() as { turn: Promise<void>; cancel: (error: Error) => void };
    expect(bulkhead.enter()).toBe(false);
    entry.cancel(new Error('budget spent'));
    await expect(entry.turn).rejects.toThrow('budget spent');
    expect(typeof bulkhead.enter()).toBe('object');
  });

  it('a waiter that gives up after its turn came hands the slot on, so no slot leaks', async () => {
    const bulkhead = new Bulkhead(1, 5);
    expect(bulkhead.enter()).toBe(true);
    const late = bulkhead.enter() as { turn: Promise<void>; cancel: (error: Error) => void };
    const next = bulkhead.enter() as { turn: Promise<void> };
    bulkhead.exit(); // the slot goes to `late`
    late.cancel(new Error('gave up in the same tick')); // ... which hands it on to `next`
    await expect(next.turn).resolves.toBeUndefined();
    bulkhead.exit(); // `next` is done: the slot is free again
    expect(bulkhead.enter()).toBe(true);
  });

  it('waiters that end as soon as they are admitted hand the slot on in a loop, not by recursion', () => {
    const bulkhead = new Bulkhead(1, 100_000);
    expect(bulkhead.join({ admit: () => {}, prev: undefined, next: undefined })).toBe('admitted');
    const admitted: number[] = [];
    // Like calls failing at once on an open circuit: each gives its slot back inside admit().
    for (let n = 0; n < 50_000; n++) {
      const waiter: QueueWaiter = { admit: () => { admitted.push(n); bulkhead.exit(); }, prev: undefined, next: undefined };
      expect(bulkhead.join(waiter)).toBe('queued');
    }
    bulkhead.exit();
    expect(admitted).toHaveLength(50_000);
    expect(admitted.every((n, i) => n === i)).toBe(true);
    // Every slot came back: the next one is admitted at once.
    expect(bulkhead.join({ admit: () => {}, prev: undefined, next: undefined })).toBe('admitted');
  });

  it('a waiter that leaves is skipped; leaving twice or after admission says so', () => {
    const bulkhead = new Bulkhead(1, 10);
    bulkhead.enter();
    const admitted: string[] = [];
    const waiter = (name: string): QueueWaiter => ({ admit: () => admitted.push(name), prev: undefined, next: undefined });
    const [a, b, c] = [waiter('a'), waiter('b'), waiter('c')];
    [a, b, c].forEach((w) => bulkhead.join(w));
    expect(bulkhead.leave(b)).toBe(true);
    expect(bulkhead.leave(b)).toBe(false);
    bulkhead.exit();
    expect(bulkhead.leave(a)).toBe(false);
    bulkhead.exit();
    expect(admitted).toEqual(['a', 'c']);
  });

  it('expireOverdue() takes out and tells the waiters at the head whose deadline has come, and gives the next deadline', () => {
    const bulkhead = new Bulkhead(1, 10);
    bulkhead.enter();
    const told: string[] = [];
    const admitted: string[] = [];
    const waiter = (name: string, deadline: number): QueueWaiter => ({
      deadline,
      overdue: () => told.push(name),
      admit: () => admitted.push(name),
      prev: undefined,
      next: undefined,
    });
    const [a, b, c] = [waiter('a', 10), waiter('b', 20), waiter('c', 30)];
    [a, b, c].forEach((w) => bulkhead.join(w));
    expect(bulkhead.expireOverdue(5)).toBe(10);
    expect(told).toEqual([]);
    expect(bulkhead.expireOverdue(20)).toBe(30);
    expect(told).toEqual(['a', 'b']);
    expect(bulkhead.waiting).toBe(1);
    // Those told are out of the queue: the freed slot goes to the one still waiting.
    bulkhead.exit();
    expect(admitted).toEqual(['c']);
    expect(bulkhead.expireOverdue(100)).toBeUndefined();
    expect(told).toEqual(['a', 'b']);
  });

  it('QueueDeadlines ends each waiter at its own deadline with one timer, and none admitted before it', async () => {
    const bulkhead = new Bulkhead(1, 10);
    bulkhead.enter();
    const deadlines = new QueueDeadlines(bulkhead);
    const start = performance.now();
    const ended = new Map<string, number>();
    const admitted: string[] = [];
    let lastEnded!: () => void;
    const done = new Promise<void>((resolve) => (lastEnded = resolve));
    const join = (name: string, afterMs: number, overdue?: () => void) => {
      const deadline = start + afterMs;
      const end = () => {
        ended.set(name, performance.now() - start);
        overdue?.();
      };
      bulkhead.join({ deadline, overdue: end, admit: () => admitted.push(name), prev: undefined, next: undefined });
      deadlines.watch(deadline);
    };
    // When the first ends, a slot comes back: the next waiter takes it before its own deadline.
    join('first', 40, () => bulkhead.exit());
    join('admitted', 80);
    join('last', 120, lastEnded);
    await done;
    expect(ended.get('first')).toBeGreaterThanOrEqual(40);
    expect(admitted).toEqual(['admitted']);
    expect(ended.has('admitted')).toBe(false);
    expect(ended.get('last')).toBeGreaterThanOrEqual(120);
    expect(bulkhead.waiting).toBe(0);
    deadlines.close();
  });

  it('run() queues without bound and frees the slot also when the task fails', async () => {
    const bulkhead = new Bulkhead(2, Number.POSITIVE_INFINITY);
    let running = 0;
    let most = 0;
    const task = async (fail: boolean) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      if (fail) throw new Error('failed');
      return 'ok';
    };
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => bulkhead.run(task, i % 3 === 0)));
    expect(most).toBe(2);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(13);
    expect(bulkhead.enter()).toBe(true);
    expect(bulkhead.enter()).toBe(true);
  });

  it('run() frees the slot of a task that throws before giving a promise, and starts the next', async () => {
    const bulkhead = new Bulkhead(1, Number.POSITIVE_INFINITY);
    const throwing = (): Promise<string> => {
      throw new Error('thrown at once');
    };
    const first = bulkhead.run(throwing, undefined);
    const second = bulkhead.run(async (value: string) => value, 'next');
    await expect(first).rejects.toThrow('thrown at once');
    await expect(second).resolves.toBe('next');
    expect(bulkhead.enter()).toBe(true);
  });
});

describe('Breaker', () => {
  const settings = { consecutiveFailures: 2, halfOpenAfterMs: 100 };
  /** A breaker opened by two failures, its wait over: the next admit is the probe. */
  const halfOpen = () => {
    const clock = { now: 0 };
    const breaker = new Breaker(settings, () => clock.now);
    breaker.failed('closed');
    breaker.failed('closed');
    clock.now = 150;
    return { breaker, clock };
  };

  it('opens after consecutive failures only; an answer resets the count', () => {
    let now = 0;
    const breaker = new Breaker(settings, () => now);
    breaker.failed('closed');
    breaker.answered('closed');
    breaker.failed('closed');
    expect(breaker.state()).toBe('closed');
    breaker.failed('closed');
    expect(breaker.state()).toBe('open');
    expect(breaker.admit()).toBeUndefined();
    now = 100;
    expect(breaker.state()).toBe('half-open');
  });

  it('half-open: one probe goes, the others wait for it and go when it succeeds', async () => {
    const { breaker } = halfOpen();
    expect(breaker.admit()).toBe('probe');
    const waiting = [breaker.admit(), breaker.admit()];
    expect(waiting.every((w) => w instanceof Promise)).toBe(true);
    breaker.answered('probe');
    await Promise.all(waiting);
    expect([breaker.admit(), breaker.admit()]).toEqual(['closed', 'closed']);
    expect(breaker.state()).toBe('closed');
  });

  it('half-open: a failed probe opens it again and refuses those that waited', async () => {
    const { breaker, clock } = halfOpen();
    expect(breaker.admit()).toBe('probe');
    const waiting = breaker.admit();
    breaker.failed('probe');
    await waiting;
    expect(breaker.admit()).toBeUndefined();
    expect(breaker.state()).toBe('open');
    clock.now = 250;
    expect(breaker.admit()).toBe('probe');
  });

  it('half-open: a probe its caller gave up on passes the probe to the next that asks, and the others wait again', async () => {
    const { breaker } = halfOpen();
    expect(breaker.admit()).toBe('probe');
    const waiting = breaker.admit();
    breaker.abandoned('probe');
    await waiting;
    expect(breaker.admit()).toBe('probe');
    const again = breaker.admit();
    expect(again).toBeInstanceOf(Promise);
    breaker.answered('probe');
    await again;
    expect(breaker.admit()).toBe('closed');
  });

  it('half-open: a waiter that stopped waiting takes nothing, so the probe is not lost with it', async () => {
    const { breaker } = halfOpen();
    expect(breaker.admit()).toBe('probe');
    const gaveUp = breaker.admit(); // its caller's budget runs out: it never asks again
    breaker.abandoned('probe');
    await gaveUp;
    expect(breaker.state()).toBe('half-open');
    expect(breaker.admit()).toBe('probe');
  });
});

describe('backoffDelayMs', () => {
  it('draws below initialMs · 2^(retry − 1), capped at maxMs', () => {
    const backoff = { initialMs: 100, maxMs: 1000 };
    expect(backoffDelayMs(1, backoff, () => 0.999)).toBeCloseTo(99.9);
    expect(backoffDelayMs(3, backoff, () => 0.5)).toBe(200);
    expect(backoffDelayMs(10, backoff, () => 0.5)).toBe(500);
    expect(backoffDelayMs(2, backoff, () => 0)).toBe(0);
  });
});
