import { campaignNodeId, campaignNumberOf } from '../../src/campaigns/campaign-id.js';

/** `Campaign.id` of the campaign with this number in the campaign API (the emulator's fixtures are 1-15). */
export const cid = (ymCampaignId: number): string => campaignNodeId(ymCampaignId);

/** The campaign API's number in a `Campaign.id`, for the emulator's admin and REST calls. */
export function numberOf(id: string): number {
  const n = campaignNumberOf(id);
  if (n === null) throw new Error(`not a campaign id: ${JSON.stringify(id)}`);
  return n;
}
