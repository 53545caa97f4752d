import { decodeNodeId, encodeNodeId } from '../graphql/node-id.js';
import { parsePositiveId } from '../graphql/pagination.js';

/** The `Node` type name of a campaign, as its global id carries it. */
export const CAMPAIGN_NODE = 'Campaign';

/** `Campaign.id`: the campaign's global id, made from the campaign API's number. */
export function campaignNodeId(ymCampaignId: number): string {
  return encodeNodeId(CAMPAIGN_NODE, ymCampaignId);
}

/** The campaign API's number in a campaign's global id, or null when the id names no campaign. */
export function campaignNumberOf(id: string): number | null {
  const node = decodeNodeId(id);
  return node && node.type === CAMPAIGN_NODE ? parsePositiveId(node.key) : null;
}

/**
 * The campaign an argument names: its `id`, or the campaign API's number itself (`ymCampaignId`,
 * digits only), which partners hold in records and links made before ids were global. Null when
 * it is neither.
 */
export function parseCampaignId(id: string): number | null {
  return parsePositiveId(id) ?? campaignNumberOf(id);
}
