import { describe, expect, it } from 'vitest';
import { TokenVerdicts } from '../../src/cache/token-verdicts.js';

function setup(maxEntries = 10) {
  let time = 1_000_000;
  const verdicts = new TokenVerdicts({ acceptedForMs: 60_000, refusedForMs: 5000, maxEntries, now: () => time });
  return { verdicts, advance: (ms: number) => (time += ms) };
}

describe('token verdicts', () => {
  it('keep each verdict for its own time', () => {
    const { verdicts, advance } = setup();
    const good = verdicts.key('good-token');
    const bad = verdicts.key('bad-token');
    verdicts.set(good, 'accepted');
    verdicts.set(bad, 'refused');
    expect([verdicts.get(good), verdicts.get(bad), verdicts.get(verdicts.key('other'))]).toEqual(['accepted', 'refused', undefined]);
    advance(5000);
    expect([verdicts.get(good), verdicts.get(bad)]).toEqual(['accepted', undefined]);
    advance(55_000);
    expect(verdicts.get(good)).toBeUndefined();
  });

  it('take the latest verdict on a token', () => {
    const { verdicts } = setup();
    const key = verdicts.key('revoked-token');
    verdicts.set(key, 'accepted');
    verdicts.set(key, 'refused');
    expect(verdicts.get(key)).toBe('refused');
    expect(verdicts.size).toEqual({ accepted: 0, refused: 1 });
  });

  it('keep tokens only as a keyed hash: nothing kept holds the token, or a hash anyone else can compute', () => {
    const one = setup().verdicts;
    const other = setup().verdicts;
    const token = 'secret-partner-token';
    expect(one.key(token)).not.toContain(token);
    expect(one.key(token)).toBe(one.key(token));
    // Another process (another secret) keeps the same token under another key.
    expect(other.key(token)).not.toBe(one.key(token));
  });

  it('are bounded in count, the oldest going first, and a flood of refused tokens never pushes out accepted ones', () => {
    const { verdicts } = setup(10);
    const accepted = Array.from({ length: 5 }, (_, i) => verdicts.key(`partner-${i}`));
    for (const key of accepted) verdicts.set(key, 'accepted');
    for (let i = 0; i < 100_000; i++) verdicts.set(verdicts.key(`made-up-${i}`), 'refused');
    expect(verdicts.size).toEqual({ accepted: 5, refused: 10 });
    for (const key of accepted) expect(verdicts.get(key)).toBe('accepted');
    expect(verdicts.get(verdicts.key('made-up-0'))).toBeUndefined();
    expect(verdicts.get(verdicts.key('made-up-99999'))).toBe('refused');
  });

  it('drop expired entries as new ones come', () => {
    const { verdicts, advance } = setup(1000);
    for (let i = 0; i < 100; i++) verdicts.set(verdicts.key(`partner-${i}`), 'accepted');
    advance(60_000);
    verdicts.set(verdicts.key('late'), 'accepted');
    expect(verdicts.size.accepted).toBe(1);
  });
});
