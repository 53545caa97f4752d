import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PinPool } from '../../src/emulator/pin-pool.js';
import { Campaign, type Partner } from '../../src/emulator/campaign.js';
import { Scheduler } from '../../src/emulator/scheduler.js';

describe('PinPool', () => {
  it('keeps every counter equal to the lists, whatever the sequence of adds, takes and redeems', () => {
    const action = fc.oneof(
      fc.record({ add: fc.array(fc.stringMatching(/^[A-Ca-c0-9]{1,3}$/), { maxLength: 20 }) }),
      fc.record({ take: fc.constant(true) }),
      fc.record({ redeem: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 60 }), (actions) => {
        const pool = new PinPool();
        const keys = new Set<string>();
        for (const a of actions) {
          if ('add' in a) {
            const expected = pool.countNew(a.add);
            expect(pool.add(a.add)).toBe(expected);
            for (const p of a.add) keys.add(p.toLowerCase());
          } else if ('take' in a) {
            const before = pool.unusedCount;
            const pin = pool.take();
            expect(pin === undefined).toBe(before === 0);
            if (pin !== undefined) expect(pool.find(pin)?.status).toBe('accepted_by_user');
          } else {
            const accepted = pool.list('accepted_by_user');
            if (accepted.length === 0) continue;
            const ref = pool.find(accepted[a.redeem % accepted.length]!.toUpperCase())!;
            pool.markRedeemed(ref.slot);
            expect(pool.find(ref.value)?.status).toBe('redeem_received');
          }
          const lists = [pool.list('new_unused'), pool.list('accepted_by_user'), pool.list('redeem_received')];
          expect(lists.map((l) => l.length)).toEqual([pool.unusedCount, pool.acceptedCount, pool.redeemedCount]);
          expect(pool.total).toBe(keys.size);
          expect(new Set(lists.flat().map((p) => p.toLowerCase()))).toEqual(keys);
        }
      }),
    );
  });

  it('takes pins in upload order and compacts its queue without losing any', () => {
    const pool = new PinPool();
    pool.add(Array.from({ length: 20_000 }, (_, i) => `p${i}`));
    for (let i = 0; i < 15_000; i++) expect(pool.take()).toBe(`p${i}`);
    expect(pool.list('new_unused')).toEqual(Array.from({ length: 5000 }, (_, i) => `p${i + 15_000}`));
    pool.add(['p0', 'NEW']);
    expect(pool.unusedCount).toBe(5001);
    expect(pool.list('new_unused').at(-1)).toBe('NEW');
  });

  it('refuses to redeem a pin nobody took', () => {
    const pool = new PinPool();
    pool.add(['a']);
    expect(() => pool.markRedeemed(pool.find('A')!.slot)).toThrow(/not accepted_by_user/);
  });
});

describe('Scheduler', () => {
  const partner: Partner = { kind: 'store', campaigns: [], byPartnerCampaignId: new Map() };
  const campaign = (id: number) => new Campaign(id, partner, { partnerCampaignId: id } as never);

  it('yields due campaigns in time order, once, skipping entries made stale by rescheduling', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(20), fc.integer({ min: 0, max: 1000 })), { maxLength: 80 }), fc.integer({ min: 0, max: 1000 }), (plans, now) => {
        const scheduler = new Scheduler();
        const campaigns = Array.from({ length: 21 }, (_, i) => campaign(i + 1));
        for (const [index, at] of plans) scheduler.schedule(campaigns[index]!, at);
        const expected = campaigns.filter((c) => c.scheduledAt !== null && c.scheduledAt <= now).sort((a, b) => a.scheduledAt! - b.scheduledAt!);
        const times = expected.map((c) => c.scheduledAt);
        const due = [...scheduler.due(now)];
        expect(new Set(due)).toEqual(new Set(expected));
        expect(due).toHaveLength(expected.length);
        expect(due.map((c) => times[expected.indexOf(c)])).toEqual(times);
        expect(scheduler.hasDue(now)).toBe(false);
      }),
    );
  });
});
