import { campaignNodeId, campaignNumberOf, offerNodeId } from '../../src/campaigns/campaign-id.js';

/** `Campaign.id` of the campaign with this number in the campaign API (the emulator's fixtures are 1-15). */
export const cid = (ymCampaignId: number): string => campaignNodeId(ymCampaignId);

/** `Offer.id` of the offer of the campaign with this number. */
export const oid = (ymCampaignId: number): string => offerNodeId(ymCampaignId);

/** The campaign API's number in a `Campaign.id`, for the emulator's admin and REST calls. */
export function numberOf(id: string): number {
  const n = campaignNumberOf(id);
  if (n === null) throw new Error(`not a campaign id: ${JSON.stringify(id)}`);
  return n;
}

/** The `Campaign.id` an `Offer.id` names (an offer names its campaign by the same number). */
export const campaignOf = (offerId: string): string => cid(numberOf(offerId));
