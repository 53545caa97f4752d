import { describe, expect, it } from 'vitest';
import { Admission, AdmissionLeft, type AdmissionSettings } from '../../src/server/admission.js';

const settings = (overrides: Partial<AdmissionSettings> = {}): AdmissionSettings => ({
  min: 1,
  max: 4,
  intervalMs: 0,
  busyAbove: 0.9,
  idleBelow: 0.5,
  ...overrides,
});

/** A request's signal, as the request lifetime makes it. */
const request = () => {
  const controller = new AbortController();
  return { controller, signal: () => controller.signal };
};

describe('Admission: the limit follows the event loop', () => {
  it('rests at max, falls under saturation to a fraction of the places in use (not below min), and grows back when idle', () => {
    const admission = new Admission(settings({ min: 2, max: 100 }));
    expect(admission.limit).toBe(100);
    for (let i = 0; i < 10; i++) admission.ticket(request().signal).wait();
    admission.follow(1);
    expect(admission.limit).toBe(8); // 10 in use × 0.8
    const limits: number[] = [];
    for (let i = 0; i < 5; i++) {
      admission.follow(0.95);
      limits.push(admission.limit);
    }
    expect(limits).toEqual([6, 4, 3, 2, 2]);
    admission.follow(0.7); // between the thresholds: held
    expect(admission.limit).toBe(2);
    admission.follow(0.1);
    expect(admission.limit).toBe(4); // 2 × 1.25, rounded up, + 1
    for (let i = 0; i < 30; i++) admission.follow(0);
    expect(admission.limit).toBe(100);
  });

  it('refuses settings it cannot work with', () => {
    expect(() => new Admission(settings({ min: 0 }))).toThrow(/min/);
    expect(() => new Admission(settings({ min: 5, max: 4 }))).toThrow(/max/);
  });
});

describe('Admission: tickets', () => {
  it('a lower limit takes effect as places come back; waiters go in order; a higher limit lets them in at once', async () => {
    const admission = new Admission(settings());
    const holders = Array.from({ length: 4 }, () => admission.ticket(request().signal));
    for (const holder of holders) expect(holder.wait()).toBeUndefined();
    admission.follow(1); // 4 in use → limit 3
    expect(admission.limit).toBe(3);
    const order: string[] = [];
    const a = admission.ticket(request().signal);
    const b = admission.ticket(request().signal);
    const aTurn = a.wait()!.then(() => order.push('a'));
    const bTurn = b.wait()!.then(() => order.push('b'));
    expect(admission.waiting).toBe(2);
    holders[0]!.release(); // 4 → 3 in use: still at the limit, nobody enters
    await Promise.resolve();
    expect(admission.active).toBe(3);
    expect(admission.waiting).toBe(2);
    holders[1]!.release(); // the place goes to a
    await aTurn;
    expect(order).toEqual(['a']);
    admission.follow(0); // limit 3 → 4 (capped at max): b goes in at once
    await bTurn;
    expect(order).toEqual(['a', 'b']);
    expect(admission.active).toBe(4);
    expect(a.wait()).toBeUndefined(); // holding: later calls of the request go at once
  });

  it("a waiter whose request is aborted leaves the queue with AdmissionLeft, and holds no place", async () => {
    const admission = new Admission(settings({ max: 1 }));
    const holder = admission.ticket(request().signal);
    holder.wait();
    const gone = request();
    const ticket = admission.ticket(gone.signal);
    const waiting = ticket.wait()!;
    gone.controller.abort(new Error('client went away'));
    await expect(waiting).rejects.toBeInstanceOf(AdmissionLeft);
    await expect(waiting).rejects.toThrow('client went away');
    expect(admission.waiting).toBe(0);
    ticket.release(); // the request answers afterwards: nothing to give back
    holder.release();
    expect(admission.active).toBe(0);
    expect(admission.ticket(request().signal).wait()).toBeUndefined();
  });

  it('a request aborted in the tick its turn came hands the place on, once', async () => {
    const admission = new Admission(settings({ max: 1 }));
    const holder = admission.ticket(request().signal);
    holder.wait();
    const late = request();
    const lateTicket = admission.ticket(late.signal);
    const lateTurn = lateTicket.wait()!;
    const next = admission.ticket(request().signal);
    const nextTurn = next.wait()!;
    holder.release(); // the place goes to `late`...
    late.controller.abort(new Error('gone')); // ...which leaves before it could use it: on to `next`
    await nextTurn;
    await lateTurn.catch(() => undefined);
    lateTicket.release();
    expect(admission.active).toBe(1);
    next.release();
    expect(admission.active).toBe(0);
  });

  it('a request that answered while still waiting leaves the queue', async () => {
    const admission = new Admission(settings({ max: 1 }));
    admission.ticket(request().signal).wait();
    const ticket = admission.ticket(request().signal);
    const waiting = ticket.wait()!;
    ticket.release();
    await expect(waiting).rejects.toThrow('the request has answered');
    expect(admission.waiting).toBe(0);
  });

  it('a request already aborted when it first asks does not queue', async () => {
    const admission = new Admission(settings({ max: 1 }));
    admission.ticket(request().signal).wait();
    const gone = request();
    gone.controller.abort(new Error('request deadline'));
    await expect(admission.ticket(gone.signal).wait()).rejects.toThrow('request deadline');
    expect(admission.waiting).toBe(0);
  });
});
