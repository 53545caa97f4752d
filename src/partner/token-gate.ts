import { BusinessError, UnauthenticatedError } from '../campaign-api/index.js';
import type { TokenVerdict, TokenVerdicts } from '../cache/token-verdicts.js';

/**
 * What a request's calls with a partner token do while the campaign API's view of the token is
 * not known: the first call goes and tells it; the others wait for that (a request fanning out
 * over a hundred ids makes one call with a made-up token, not a hundred); a token refused lately
 * makes no call at all. A token the API accepted lately goes at once, as every warm request's does.
 * Each call's outcome is recorded in the verdicts: any answer but a refusal of the token says it
 * is accepted, which keeps an active partner's verdict fresh.
 */
export interface TokenGate {
  /**
   * Before a call: `accepted` (go, and so may every other call of this request: the token was
   * accepted lately, with time left), `tell` (go, and tell what the call learns of the token:
   * `after`), `refused` (no call), or `tell` or `refused` once the first call with it has told.
   */
  before(token: string): 'accepted' | 'tell' | 'refused' | Promise<'tell' | 'refused'>;
  /** What a call with the token told: accepted, refused, or nothing (the API did not answer: the waiting calls go). */
  after(token: string, told: TokenVerdict | 'unknown'): void;
  /**
   * What `before` would answer now if it is final, with nothing recorded: `accepted` (with time
   * left) or `refused`; undefined when a call would have to go and tell.
   */
  settled(token: string): 'accepted' | 'refused' | undefined;
}

export function createTokenGate(verdicts: TokenVerdicts): TokenGate {
  // bounded: an entry lives only while the first call with an unknown token is in flight.
  const first = new Map<string, { told: Promise<'tell' | 'refused'>; tell: (verdict: 'tell' | 'refused') => void }>();
  /** What the verdicts alone say of the token's calls; undefined when they say nothing yet. */
  const known = (key: string): 'accepted' | 'tell' | 'refused' | undefined => {
    const verdict = verdicts.get(key);
    if (verdict === 'accepted') return verdicts.acceptedWithTimeLeft(key) ? 'accepted' : 'tell';
    return verdict;
  };
  return {
    before(token) {
      const key = verdicts.key(token);
      const said = known(key);
      if (said) return said;
      const probe = first.get(key);
      if (probe) return probe.told;
      let tell!: (verdict: 'tell' | 'refused') => void;
      const told = new Promise<'tell' | 'refused'>((resolve) => (tell = resolve));
      first.set(key, { told, tell });
      return 'tell';
    },
    settled(token) {
      const said = known(verdicts.key(token));
      return said === 'tell' ? undefined : said;
    },
    after(token, told) {
      const key = verdicts.key(token);
      if (told !== 'unknown') verdicts.set(key, told);
      const probe = first.get(key);
      if (!probe) return;
      first.delete(key);
      probe.tell(told === 'refused' ? 'refused' : 'tell');
    },
  };
}

/** What a call's outcome says of its token: a refusal of it, an answer (accepted), or nothing. */
export function toldOfToken(outcome: { ok: true } | { error: unknown }): TokenVerdict | 'unknown' {
  if ('ok' in outcome) return 'accepted';
  const { error } = outcome;
  if (error instanceof UnauthenticatedError) return error.httpStatus === undefined ? 'unknown' : 'refused';
  // The campaign API answered with one of its codes: it took the token.
  return error instanceof BusinessError ? 'accepted' : 'unknown';
}
