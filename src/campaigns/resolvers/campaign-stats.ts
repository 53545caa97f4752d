import type { CampaignStatsResolvers } from '../../schema/generated/resolvers-types.js';

/** A ratio, or null when there is nothing to divide by yet. */
const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

export const CampaignStats: CampaignStatsResolvers = {
  shows: (s) => s.campaignShows,
  accepts: (s) => s.campaignAccepts,
  redeems: (s) => s.campaignRedeems,
  // campaignAccepts counts offers taken and not used yet, so "taken" is accepts + redeems.
  acceptRate: (s) => rate(s.campaignAccepts + s.campaignRedeems, s.campaignShows),
  redeemRate: (s) => rate(s.campaignRedeems, s.campaignShows),
  conversionRate: (s) => rate(s.campaignRedeems, s.campaignAccepts + s.campaignRedeems),
  pins: (s) => s.campaignPinsStats,
  leads: (s) => s.campaignRedeemStats,
  approvalRate: (s) => {
    const { usedCount, approvedCount, declinedCount } = s.campaignRedeemStats;
    return rate(approvedCount, usedCount + approvedCount + declinedCount);
  },
};
