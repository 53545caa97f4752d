import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyedHashes } from '../../src/secrets/index.js';
import { TokenVerdicts, type StoredVerdict, type TokenVerdict, type VerdictStore } from '../../src/cache/token-verdicts.js';

function setup(maxEntries = 10) {
  let time = 1_000_000;
  const verdicts = new TokenVerdicts({ acceptedForMs: 60_000, refusedForMs: 5000, maxEntries, now: () => time });
  return { verdicts, advance: (ms: number) => (time += ms) };
}

describe('token verdicts', () => {
  it('give a token the same key however many other tokens came between, long ones too', () => {
    const { verdicts } = setup();
    const tokens = ['first-token', 'x'.repeat(20_000), ...Array.from({ length: 2500 }, (_, i) => `token-${i}`)];
    const keys = tokens.map((token) => verdicts.key(token));
    expect(new Set(keys).size).toBe(tokens.length);
    // Again, in reverse, after the earliest were let go of: the same keys.
    expect(tokens.map((token) => verdicts.key(token)).reverse()).toEqual([...keys].reverse());
    expect(verdicts.key('first-token')).toBe(keys[0]);
  });

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

/** A verdict store in memory that counts what it is asked, and can be made to hang or fail. */
function memoryStore() {
  const entries = new Map<string, StoredVerdict>();
  const counts = { get: 0, set: 0 };
  let mode: 'ok' | 'hang' | 'fail' = 'ok';
  const store: VerdictStore = {
    async get(key) {
      counts.get++;
      if (mode === 'hang') return new Promise<never>(() => {});
      if (mode === 'fail') throw new Error('store down');
      return entries.get(key);
    },
    async set(key, value) {
      counts.set++;
      entries.set(key, value);
    },
  };
  return { store, entries, counts, set mode(value: 'ok' | 'hang' | 'fail') { mode = value; } };
}

const SECRET = 'a-cursor-secret-of-at-least-32-characters';

function fleetMember(store: VerdictStore, options: { secret?: string; now?: () => number; timeoutMs?: number; pauseAfterTimeoutMs?: number } = {}) {
  return new TokenVerdicts({
    acceptedForMs: 60_000,
    refusedForMs: 5000,
    maxEntries: 10,
    ...(options.now ? { now: options.now } : {}),
    hashes: keyedHashes(options.secret ?? SECRET),
    shared: { store, timeoutMs: options.timeoutMs ?? 50, pauseAfterTimeoutMs: options.pauseAfterTimeoutMs ?? 60_000 },
  });
}

/** An ask that answers when the test says so, counting its calls. */
function scriptedAsk() {
  const waiting: ((verdict: TokenVerdict) => void)[] = [];
  const failing: ((error: Error) => void)[] = [];
  let calls = 0;
  const ask = () => {
    calls++;
    return new Promise<TokenVerdict>((resolve, reject) => {
      waiting.push(resolve);
      failing.push(reject);
    });
  };
  return {
    ask,
    get calls() {
      return calls;
    },
    answer: (verdict: TokenVerdict) => {
      failing.shift();
      waiting.shift()!(verdict);
    },
    fail: (error: Error) => {
      waiting.shift();
      failing.shift()!(error);
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('token verdict checks', () => {
  it('share one ask between concurrent checks of a token, whoever asks, and record its verdict', async () => {
    const { verdicts } = setup();
    const key = verdicts.key('partner');
    const first = scriptedAsk();
    const second = scriptedAsk();
    const checks = [verdicts.check(key, first.ask), verdicts.check(key, second.ask), verdicts.check(key, first.ask)];
    // Called before check returns: a caller sees its call under way at once.
    expect([first.calls, second.calls]).toEqual([1, 0]);
    first.answer('accepted');
    expect(await Promise.all(checks)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(verdicts.get(key)).toBe('accepted');
    // Known now: no ask at all.
    expect(await verdicts.check(key, second.ask)).toBe('accepted');
    expect(second.calls).toBe(0);
  });

  it('record nothing when the API could not say, and ask again next time', async () => {
    const { verdicts } = setup();
    const key = verdicts.key('partner');
    const backend = scriptedAsk();
    const check = verdicts.check(key, backend.ask);
    backend.fail(new Error('backend down'));
    await expect(check).rejects.toThrow('backend down');
    expect(verdicts.get(key)).toBeUndefined();
    const again = verdicts.check(key, backend.ask);
    expect(backend.calls).toBe(2);
    backend.answer('refused');
    expect(await again).toBe('refused');
  });
});

describe('token verdicts shared by a fleet', () => {
  it('are seen by every instance with the same secret, without asking the API again', async () => {
    const fleet = memoryStore();
    const a = fleetMember(fleet.store);
    const b = fleetMember(fleet.store);
    expect(b.key('good')).toBe(a.key('good'));
    const backend = scriptedAsk();
    const onA = a.check(a.key('good'), backend.ask);
    await tick();
    backend.answer('accepted');
    expect(await onA).toBe('accepted');
    const refusedOnA = a.check(a.key('bad'), backend.ask);
    await tick();
    backend.answer('refused');
    expect(await refusedOnA).toBe('refused');
    await tick();

    expect(await b.check(b.key('good'), backend.ask)).toBe('accepted');
    expect(await b.check(b.key('bad'), backend.ask)).toBe('refused');
    expect(backend.calls).toBe(2);
    // Then kept in B's memory: the hot path's synchronous look finds them.
    expect([b.get(b.key('good')), b.get(b.key('bad'))]).toEqual(['accepted', 'refused']);
  });

  it('are kept under a keyed hash of a sub-key of the secret: never the token, an unkeyed hash, or the secret\'s own HMAC', async () => {
    const fleet = memoryStore();
    const token = 'secret-partner-token';
    const a = fleetMember(fleet.store);
    a.set(a.key(token), 'accepted');
    await tick();
    const subKey = createHmac('sha256', SECRET).update('token-verdicts').digest();
    expect([...fleet.entries.keys()]).toEqual([createHmac('sha256', subKey).update(token).digest('base64url')]);
    const stored = JSON.stringify([...fleet.entries]);
    expect(stored).not.toContain(token);
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      expect(stored).not.toContain(createHash('sha256').update(token).digest(encoding).slice(0, 16));
      expect(stored).not.toContain(createHmac('sha256', SECRET).update(token).digest(encoding).slice(0, 16));
    }
    // Another secret (another fleet, or anyone without it) finds nothing.
    const outsider = fleetMember(fleet.store, { secret: 'another-secret-of-at-least-32-characters' });
    expect(outsider.key(token)).not.toBe(a.key(token));
    const backend = scriptedAsk();
    void outsider.check(outsider.key(token), backend.ask);
    await tick();
    expect(backend.calls).toBe(1);
  });

  it('take the latest verdict, and keep one the fleet told no longer than its own time', async () => {
    let time = 1_000_000;
    const now = () => time;
    const fleet = memoryStore();
    const a = fleetMember(fleet.store, { now });
    const b = fleetMember(fleet.store, { now });
    const key = a.key('revoked');
    a.set(key, 'accepted');
    b.set(key, 'refused');
    await tick();
    const c = fleetMember(fleet.store, { now });
    const backend = scriptedAsk();
    expect(await c.check(key, backend.ask)).toBe('refused');

    const other = a.key('accepted-a-minute-ago');
    a.set(other, 'accepted');
    await tick();
    time += 59_000;
    const d = fleetMember(fleet.store, { now });
    expect(await d.check(other, backend.ask)).toBe('accepted');
    time += 1000;
    // A's minute is over: D does not keep the verdict a minute of its own.
    expect(d.get(other)).toBeUndefined();
    expect(backend.calls).toBe(0);
  });

  it('write a verdict to the store once per half its time, not per request or poll', async () => {
    let time = 1_000_000;
    const fleet = memoryStore();
    const a = fleetMember(fleet.store, { now: () => time });
    const key = a.key('busy');
    for (let i = 0; i < 100; i++) a.set(key, 'accepted');
    await tick();
    expect(fleet.counts.set).toBe(1);
    time += 30_001;
    a.set(key, 'accepted');
    a.set(key, 'refused');
    await tick();
    expect(fleet.counts.set).toBe(3);
  });

  it('go on without the store when it fails, or hangs past the bound (and stop asking it for a while)', async () => {
    const fleet = memoryStore();
    const a = fleetMember(fleet.store, { timeoutMs: 50, pauseAfterTimeoutMs: 60_000 });
    const backend = scriptedAsk();

    fleet.mode = 'fail';
    const failing = a.check(a.key('one'), backend.ask);
    await tick();
    expect(backend.calls).toBe(1);
    backend.answer('accepted');
    expect(await failing).toBe('accepted');

    fleet.mode = 'hang';
    const hanging = a.check(a.key('two'), backend.ask);
    await tick();
    expect(backend.calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(backend.calls).toBe(2);
    backend.answer('refused');
    expect(await hanging).toBe('refused');

    // Paused: the next check does not wait for the store at all.
    const gets = fleet.counts.get;
    void a.check(a.key('three'), backend.ask);
    expect(backend.calls).toBe(3);
    expect(fleet.counts.get).toBe(gets);
  });
});
