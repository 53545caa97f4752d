import { BoundedMemory, type ExpiringStore } from '../bounded/index.js';
import { keyedHashes, type KeyedHashes } from '../secrets/index.js';
import { CacheTimeoutError, withinMs } from './bounded.js';
import type { CacheStore } from './store.js';

/**
 * What the campaign API last said of partner tokens (accepted or refused), each kept for a
 * short while: one memory for the process, asked by everything that serves a token from a cache
 * (the category directory, the answers remembered over it) or checks a token before serving it
 * (live status connections and subscriptions). A token one of them saw accepted is accepted by
 * the others without another backend call, and a token one saw refused is refused by all.
 *
 * A token is kept only as its keyed hash (src/secrets/): under a secret made for this process,
 * or, when the fleet shares verdicts on Redis, under a key derived from `CURSOR_SECRET`, which
 * every instance of the fleet has and nobody else. Nothing kept lets anyone check a guess of a
 * token without that secret. Every entry is one key of a fixed size and an expiry time, at most `maxEntries` of each
 * verdict, the least recently used going first; expired entries go as new ones come, so a flood
 * of made-up tokens costs a bounded amount of memory, and cannot push out the tokens the API
 * accepted.
 */
export interface TokenVerdictsOptions {
  /** How long a token the API accepted counts as accepted. */
  acceptedForMs: number;
  /** How long a token the API refused counts as refused. */
  refusedForMs: number;
  /** Tokens kept at most in this process, of each verdict. */
  maxEntries: number;
  now?: () => number;
  /** What a token is kept under; default: keyed hashes under a secret of this process. */
  hashes?: KeyedHashes;
  /** Verdicts seen by every instance of a fleet (`hashes` must then be the fleet's); without it they stay in this process. */
  shared?: SharedVerdictsOptions;
}

export interface SharedVerdictsOptions {
  store: VerdictStore;
  /** Longest wait for the store before a check goes on without it; default 200 ms. */
  timeoutMs?: number;
  /** After a wait that ran out, how long the store is not asked; default 1 s. */
  pauseAfterTimeoutMs?: number;
  /** Told about a store that failed or did not answer in time (the caller counts it). */
  onError?: (error: unknown) => void;
}

export type TokenVerdict = 'accepted' | 'refused';

/** A verdict as the fleet keeps it: what the API said and until when it counts (epoch ms). */
export interface StoredVerdict {
  verdict: TokenVerdict;
  until: number;
}

/** Where a fleet keeps its verdicts: Redis, or memory in tests. */
export interface VerdictStore {
  get(key: string): Promise<StoredVerdict | undefined>;
  set(key: string, value: StoredVerdict, ttlMs: number): Promise<unknown>;
}

/** The defaults: accepted for a minute, refused for five seconds, 10,000 of each. */
export const TOKEN_ACCEPTED_FOR_MS = 60_000;
export const TOKEN_REFUSED_FOR_MS = 5000;
export const TOKEN_VERDICTS_MAX = 10_000;

const isStoredVerdict = (value: unknown): value is StoredVerdict =>
  typeof value === 'object' &&
  value !== null &&
  ((value as StoredVerdict).verdict === 'accepted' || (value as StoredVerdict).verdict === 'refused') &&
  Number.isFinite((value as StoredVerdict).until);

/** What a verdict holds on Redis: its key and a short JSON object. */
const STORED_VERDICT_BYTES = 256;

/**
 * A verdict store over a namespace of the shared cache. A value that is not a verdict (written by
 * something else) reads as none: a check then asks the API, as without the store.
 */
export function verdictStore(store: ExpiringStore<StoredVerdict>): VerdictStore {
  return {
    async get(key) {
      const value: unknown = await store.get(key);
      return isStoredVerdict(value) ? { verdict: value.verdict, until: value.until } : undefined;
    },
    set: (key, value, ttlMs) => store.set(key, value, ttlMs),
  };
}

/** Keys that expire, each at its own time; at most `maxEntries`, the least recently used going first. */
class Expiring {
  readonly #until: BoundedMemory<string, number>;

  constructor(
    readonly forMs: number,
    maxEntries: number,
    private readonly now: () => number,
  ) {
    this.#until = new BoundedMemory({ maxEntries, now });
  }

  /** Until when the key counts, or undefined when it does not (any more). */
  until(key: string): number | undefined {
    return this.#until.get(key);
  }

  add(key: string, until: number): void {
    this.#until.set(key, until, until - this.now());
  }

  delete(key: string): void {
    this.#until.delete(key);
  }

  get size(): number {
    return this.#until.size;
  }
}

/** Checks under way at most; past it a check of another token is not joined by later ones. */
const MAX_CHECKING = 10_000;

export class TokenVerdicts {
  readonly #hashes: KeyedHashes;
  readonly #accepted: Expiring;
  readonly #refused: Expiring;
  readonly #now: () => number;
  readonly #shared: (SharedVerdictsOptions & { timeoutMs: number; pauseAfterTimeoutMs: number }) | undefined;
  /** Checks under way, by token key: every caller asking about the same token waits for the same one. */
  readonly #checking = new BoundedMemory<string, Promise<TokenVerdict>>({ maxEntries: MAX_CHECKING });
  /** The store is not asked before this time (it did not answer in time lately). */
  #sharedPausedUntil = -Infinity;

  constructor(options: TokenVerdictsOptions) {
    this.#now = options.now ?? Date.now;
    this.#accepted = new Expiring(options.acceptedForMs, options.maxEntries, this.#now);
    this.#refused = new Expiring(options.refusedForMs, options.maxEntries, this.#now);
    const shared = options.shared;
    this.#hashes = options.hashes ?? keyedHashes();
    // Instances find each other's verdicts only under the fleet's key, and only the fleet has it.
    if (shared && !this.#hashes.shared) throw new Error('token verdicts are shared only under keyed hashes of the fleet\'s secret');
    this.#shared = shared && { ...shared, timeoutMs: shared.timeoutMs ?? 200, pauseAfterTimeoutMs: shared.pauseAfterTimeoutMs ?? 1000 };
  }

  /** Whether verdicts are shared with the other instances of a fleet. */
  get shared(): boolean {
    return this.#shared !== undefined;
  }

  /** The key a token is kept under, its keyed hash; compute it once per lookup and pass it to the others. */
  key(token: string): string {
    return this.#hashes.of('token-verdicts', token);
  }

  /**
   * What the API said of the token lately, as this process knows it: a synchronous look in
   * memory, for the hot path. Undefined when it has not been asked (or long ago) as far as this
   * process knows; `check` then asks the fleet, then the API.
   */
  get(key: string): TokenVerdict | undefined {
    return this.#accepted.until(key) !== undefined ? 'accepted' : this.#refused.until(key) !== undefined ? 'refused' : undefined;
  }

  /**
   * Whether the token was accepted lately with more than half its time left: then a call made
   * with it need not tell again what it learns of the token (`set`), which keeps it fresh.
   */
  acceptedWithTimeLeft(key: string): boolean {
    const until = this.#accepted.until(key);
    return until !== undefined && until - this.#now() > this.#accepted.forMs / 2;
  }

  /** Records what the API said of a token (from any call made with it), here and for the fleet. */
  set(key: string, verdict: TokenVerdict): void {
    const kept = verdict === 'accepted' ? this.#accepted : this.#refused;
    const until = this.#now() + kept.forMs;
    // The fleet already has this verdict for more than half its time: no write per request or poll.
    const known = kept.until(key);
    this.#remember(key, verdict, until);
    if (!this.#shared || (known !== undefined && known - this.#now() > kept.forMs / 2)) return;
    const { store, onError } = this.#shared;
    store.set(key, { verdict, until }, kept.forMs).catch((error: unknown) => onError?.(error));
  }

  /**
   * What the API says of the token: known in this process, then known to the fleet (a short,
   * bounded wait for the store), then `ask`ed. Concurrent checks of the same token wait for one
   * `ask` between them, whoever started it. `ask` resolves with the API's verdict, or rejects
   * when the API could not say (it is down): then nothing is recorded and the check rejects with
   * that error. Without a shared store (or with its lookups paused) `ask` is called before this
   * returns, so a caller can see its call under way at once.
   */
  check(key: string, ask: () => Promise<TokenVerdict>): Promise<TokenVerdict> {
    const known = this.get(key);
    if (known) return Promise.resolve(known);
    let check = this.#checking.get(key);
    if (check) return check;
    const asking = async (): Promise<TokenVerdict> => {
      const verdict = await ask();
      this.set(key, verdict);
      return verdict;
    };
    check = this.#sharedLookupNow() ? this.#fromFleet(key).then((told) => told ?? asking()) : asking();
    const settled = check.finally(() => {
      if (this.#checking.peek(key) === check) this.#checking.delete(key);
    });
    // The check's own rejection goes to its callers; this copy only clears the entry.
    settled.catch(() => {});
    this.#checking.set(key, check);
    return check;
  }

  /** Entries kept in this process, of each verdict (expired ones may still count until new ones push them out). */
  get size(): { accepted: number; refused: number } {
    return { accepted: this.#accepted.size, refused: this.#refused.size };
  }

  #remember(key: string, verdict: TokenVerdict, until: number): void {
    (verdict === 'accepted' ? this.#refused : this.#accepted).delete(key);
    (verdict === 'accepted' ? this.#accepted : this.#refused).add(key, until);
  }

  #sharedLookupNow(): boolean {
    return this.#shared !== undefined && this.#now() >= this.#sharedPausedUntil;
  }

  /**
   * The fleet's verdict, kept here until its own time (never longer than this process would keep
   * it); undefined when the fleet has none, or the store fails or does not answer in time: Redis
   * is a cache, and a check never waits on it for longer than the bound, nor fails with it.
   */
  async #fromFleet(key: string): Promise<TokenVerdict | undefined> {
    const { store, timeoutMs, pauseAfterTimeoutMs, onError } = this.#shared!;
    let stored: StoredVerdict | undefined;
    try {
      stored = await withinMs(store.get(key), timeoutMs, 'the shared token verdicts');
    } catch (error) {
      // A store that hangs is not asked again for a while: each check would wait the bound.
      if (error instanceof CacheTimeoutError) this.#sharedPausedUntil = this.#now() + pauseAfterTimeoutMs;
      onError?.(error);
      return undefined;
    }
    if (!stored) return undefined;
    const now = this.#now();
    const kept = stored.verdict === 'accepted' ? this.#accepted : this.#refused;
    const until = Math.min(stored.until, now + kept.forMs);
    if (until <= now) return undefined;
    // A verdict this process got meanwhile (its own call answered first) is newer: it stands.
    const meanwhile = this.get(key);
    if (meanwhile) return meanwhile;
    this.#remember(key, stored.verdict, until);
    return stored.verdict;
  }
}

/**
 * The process's token verdicts, with the defaults. Shared by the fleet when the cache is Redis
 * and the keyed hashes are the fleet's (`CURSOR_SECRET`: every instance must compute the same key
 * from a token, and only they); otherwise each instance keeps its own, and checks a token it has
 * not seen itself.
 */
export function createTokenVerdicts(cache: CacheStore, hashes: KeyedHashes, onError?: (error: unknown) => void): TokenVerdicts {
  const options = { acceptedForMs: TOKEN_ACCEPTED_FOR_MS, refusedForMs: TOKEN_REFUSED_FOR_MS, maxEntries: TOKEN_VERDICTS_MAX, hashes };
  if (cache.kind !== 'redis' || !hashes.shared) return new TokenVerdicts(options);
  const store = cache.namespace<StoredVerdict>('token-verdicts', {
    maxBytes: TOKEN_VERDICTS_MAX * STORED_VERDICT_BYTES,
    maxEntryBytes: STORED_VERDICT_BYTES,
    sizeOf: (_, key) => key.length * 2 + 64,
  });
  return new TokenVerdicts({ ...options, shared: { store: verdictStore(store), ...(onError ? { onError } : {}) } });
}
