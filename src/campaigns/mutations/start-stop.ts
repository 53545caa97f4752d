import { BusinessError } from '../../campaign-api/index.js';
import { quote } from '../../text/received-value.js';
import type { GraphQLContext } from '../../schema/context.js';
import type { CampaignRef, UserErrorModel } from '../../schema/models.js';
import { parseCampaignId } from '../campaign-id.js';
import { campaignRef } from '../campaign-ref.js';
import { CAMPAIGN_NAMES } from './input-fields.js';
import { userError, userErrorsFromBusiness } from './user-errors.js';

export interface StatusChangePayload {
  campaign: CampaignRef | null;
  userErrors: UserErrorModel[];
}

/**
 * start and stop: the payload carries the campaign with its current status whether the change
 * happened or not, from the error's `current` when the backend refused. A campaign that is not
 * the caller's (not found, or another partner's for stop) is never returned.
 */
export async function changeStatus(ctx: GraphQLContext, id: string, operation: 'start' | 'stop'): Promise<StatusChangePayload> {
  const ymCampaignId = parseCampaignId(id);
  if (ymCampaignId === null) {
    return { campaign: null, userErrors: [userError(['id'], 'campaignNotFound', `no campaign has id ${quote(id)}; pass a Campaign.id`)] };
  }
  try {
    const result = await ctx.partner[operation]({ ymCampaignId });
    return { campaign: campaignRef(result.ymCampaignId, result.campaignStatus), userErrors: [] };
  } catch (error) {
    if (!(error instanceof BusinessError)) throw error;
    const userErrors = userErrorsFromBusiness(error, (path) => (path[0] === 'ymCampaignId' ? ['id'] : path), ['id'], CAMPAIGN_NAMES);
    if (error.code === 'campaignNotFound' || error.code === 'failMerchant') return { campaign: null, userErrors };
    if (error.current) return { campaign: campaignRef(ymCampaignId, error.current.campaignStatus), userErrors };
    // The backend did not say: read the status, so the payload still tells the truth.
    const details = await ctx.loaders.details.load(ymCampaignId);
    return { campaign: details ? campaignRef(ymCampaignId, details.campaignStatus, details) : null, userErrors };
  }
}
