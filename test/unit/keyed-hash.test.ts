import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyedHashes, type KeyedUse } from '../../src/secrets/index.js';

/** The one keyed hash of everything derived from a partner token or an app key. */
const SECRET = 'a-cursor-secret-of-at-least-32-characters';
const USES: KeyedUse[] = ['token-verdicts', 'feed-partner', 'feed-partners', 'live-partner', 'cursor-partner', 'app-key'];

describe('keyed hashes', () => {
  it('are the same on every instance with the fleet secret, and differ by use, by secret and without one', () => {
    const [one, two] = [keyedHashes(SECRET), keyedHashes(SECRET)];
    expect(one.shared).toBe(true);
    for (const use of USES) expect(one.of(use, 'token')).toBe(two.of(use, 'token'));
    expect(new Set(USES.map((use) => one.of(use, 'token'))).size).toBe(USES.length);
    expect(keyedHashes('another-secret-of-at-least-32-characters').of('feed-partner', 'token')).not.toBe(one.of('feed-partner', 'token'));
    const [alone, other] = [keyedHashes(), keyedHashes()];
    expect(alone.shared).toBe(false);
    expect(alone.of('feed-partner', 'token')).not.toBe(other.of('feed-partner', 'token'));
    expect(alone.of('feed-partner', 'token')).toBe(alone.of('feed-partner', 'token'));
  });

  it('give nothing that tests a guess without the secret: not the value, no unkeyed hash, not the secret\'s own HMAC', () => {
    const hashes = keyedHashes(SECRET);
    const token = 'secret-partner-token';
    for (const use of USES) {
      const hash = hashes.of(use, token);
      expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(hash).not.toContain(token);
      for (const text of [token, `partner:${token}`]) {
        for (const encoding of ['hex', 'base64url'] as const) expect(hash).not.toContain(createHash('sha256').update(text).digest(encoding).slice(0, 16));
      }
      expect(hash).not.toBe(createHmac('sha256', SECRET).update(token).digest('base64url'));
      // HMAC(HMAC(secret, use), value): the token verdicts' keys are the ones they always had.
      expect(hash).toBe(createHmac('sha256', createHmac('sha256', SECRET).update(use).digest()).update(token).digest('base64url'));
    }
  });

  it('give a value the same hash however many others came between, long ones too', () => {
    const hashes = keyedHashes(SECRET);
    const values = ['first', 'x'.repeat(20_000), ...Array.from({ length: 2500 }, (_, i) => `token-${i}`)];
    const first = values.map((value) => hashes.of('live-partner', value));
    expect(values.map((value) => hashes.of('live-partner', value))).toEqual(first);
  });
});
