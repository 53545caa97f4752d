import { decodeNodeId, encodeNodeId } from '../graphql/node-id.js';
import { parsePositiveId } from '../graphql/pagination.js';

/** The `Node` type name of a campaign, as its global id carries it. */
export const CAMPAIGN_NODE = 'Campaign';

/** `Campaign.id`: the campaign's global id, made from the campaign API's number. */
export function campaignNodeId(ymCampaignId: number): string {
  return encodeNodeId(CAMPAIGN_NODE, ymCampaignId);
}

/**
 * The `Node` type name in an offer's global id. An offer is its campaign as the feed shows it,
 * keyed by the same number; the type of its own keeps the two ids apart, as normalized caches
 * (Relay's store, Apollo's) need one type per id.
 */
export const OFFER_NODE = 'Offer';

/** `Offer.id`: the offer's global id, made from its campaign's number. */
export function offerNodeId(ymCampaignId: number): string {
  return encodeNodeId(OFFER_NODE, ymCampaignId);
}

/**
 * The campaign API's number in a campaign's global id, or in an offer's (an offer names its
 * campaign: the tap-through from a card reads the campaign by the offer's id); null when the id
 * names neither.
 */
export function campaignNumberOf(id: string): number | null {
  const node = decodeNodeId(id);
  return node && (node.type === CAMPAIGN_NODE || node.type === OFFER_NODE) ? parsePositiveId(node.key) : null;
}

/**
 * The campaign an argument names: its `id`, or the campaign API's number itself (`ymCampaignId`,
 * digits only), which partners hold in records and links made before ids were global. Null when
 * it is neither.
 */
export function parseCampaignId(id: string): number | null {
  return parsePositiveId(id) ?? campaignNumberOf(id);
}
