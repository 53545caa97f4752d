import { createHmac, randomBytes } from 'node:crypto';

/**
 * What the campaign API last said of partner tokens (accepted or refused), each kept for a
 * short while, so that a cache can serve a token the API accepted lately without asking it
 * again, and refuse a token it refused lately without a call per request.
 *
 * A token is kept only as an HMAC under a secret made for this process and never written
 * anywhere: nothing kept lets anyone check a guess of a token, in this process or out of it.
 * Every entry is one key of a fixed size and an expiry time, at most `maxEntries` of each verdict,
 * the oldest going first; expired entries go as new ones come, so a flood of made-up tokens costs
 * a bounded amount of memory, and cannot push out the tokens the API accepted.
 */
export interface TokenVerdictsOptions {
  /** How long a token the API accepted counts as accepted. */
  acceptedForMs: number;
  /** How long a token the API refused counts as refused. */
  refusedForMs: number;
  /** Tokens kept at most, of each verdict. */
  maxEntries: number;
  now?: () => number;
}

export type TokenVerdict = 'accepted' | 'refused';

/** Keys that expire after the same time: insertion order is expiry order, so the oldest go first. */
class Expiring {
  readonly #until = new Map<string, number>();

  constructor(
    private readonly forMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  has(key: string): boolean {
    const until = this.#until.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.#until.delete(key);
    return false;
  }

  add(key: string): void {
    const now = this.now();
    this.#until.delete(key);
    for (const [oldest, until] of this.#until) {
      if (until > now && this.#until.size < this.maxEntries) break;
      this.#until.delete(oldest);
    }
    this.#until.set(key, now + this.forMs);
  }

  delete(key: string): void {
    this.#until.delete(key);
  }

  get size(): number {
    return this.#until.size;
  }
}

export class TokenVerdicts {
  readonly #secret = randomBytes(32);
  readonly #accepted: Expiring;
  readonly #refused: Expiring;

  constructor(options: TokenVerdictsOptions) {
    const now = options.now ?? Date.now;
    this.#accepted = new Expiring(options.acceptedForMs, options.maxEntries, now);
    this.#refused = new Expiring(options.refusedForMs, options.maxEntries, now);
  }

  /** The key a token is kept under; compute it once per lookup and pass it to the others. */
  key(token: string): string {
    return createHmac('sha256', this.#secret).update(token).digest('base64url');
  }

  /** What the API said of the token lately, or undefined when it has not been asked (or long ago). */
  get(key: string): TokenVerdict | undefined {
    return this.#accepted.has(key) ? 'accepted' : this.#refused.has(key) ? 'refused' : undefined;
  }

  set(key: string, verdict: TokenVerdict): void {
    (verdict === 'accepted' ? this.#refused : this.#accepted).delete(key);
    (verdict === 'accepted' ? this.#accepted : this.#refused).add(key);
  }

  /** Entries kept, of each verdict (expired ones may still count until new ones push them out). */
  get size(): { accepted: number; refused: number } {
    return { accepted: this.#accepted.size, refused: this.#refused.size };
  }
}
