import type { CampaignApi } from '../campaign-api/api.js';
import { RequestRefusedError, UnauthenticatedError } from '../campaign-api/index.js';
import type { TokenVerdict, TokenVerdicts } from '../cache/token-verdicts.js';
import type { TokenStanding } from '../pipeline/rules.js';

/**
 * The process's one check of a partner token, for whatever must know before it serves one (a
 * stream when it opens and for each subscription, a large body before it is read): what the
 * campaign API said of the token lately (this process's memory, or the fleet's), else the
 * cheapest read there is, `get-all-campaigns` of one campaign, which every concurrent check of
 * the token shares (and the category directory's reads with it). Synchronous when the answer is
 * known, which is nearly always.
 *
 * `unknown` when the API could not be asked (down, slow, its breaker open): nothing is recorded,
 * and the caller is told to try again rather than admitted on a guess.
 */
export type TokenCheck = (token: string) => TokenStanding | Promise<TokenStanding>;

export function createTokenCheck(api: CampaignApi, verdicts: TokenVerdicts): TokenCheck {
  const ask = (token: string) => (): Promise<TokenVerdict> =>
    api.getAllCampaigns(token, { limit: 1, offset: 0 }).then(
      (): TokenVerdict => 'accepted',
      (error: unknown): TokenVerdict => {
        // Nothing of the call but the token is the caller's: a refusal of it (401, or a 4xx such
        // as a proxy's for a header too large) is the token's.
        if (error instanceof UnauthenticatedError || error instanceof RequestRefusedError) return 'refused';
        throw error;
      },
    );
  return (token) => {
    const key = verdicts.key(token);
    const known = verdicts.get(key);
    if (known) return known;
    return verdicts.check(key, ask(token)).catch((): TokenStanding => 'unknown');
  };
}
