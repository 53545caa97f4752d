import { BusinessError, type RequestOf } from '../../campaign-api/index.js';
import type { GraphQLContext } from '../../schema/context.js';
import type { CreateCampaignInput } from '../../schema/generated/resolvers-types.js';
import type { CampaignRef, UserErrorModel } from '../../schema/models.js';
import { campaignRef } from '../campaign-ref.js';
import { atInput, checkCreateInput } from './campaign-input.js';
import { INPUT_NAMES } from './input-fields.js';
import { userErrorsFromBusiness } from './user-errors.js';

export interface CampaignPayload {
  campaign: CampaignRef | null;
  userErrors: UserErrorModel[];
}

export async function createCampaign(ctx: GraphQLContext, input: CreateCampaignInput): Promise<CampaignPayload> {
  const { request, userErrors } = await checkCreateInput(ctx, input);
  if (!request) return { campaign: null, userErrors };
  try {
    const result = await ctx.partner.create(request as RequestOf<'create'>);
    return { campaign: campaignRef(result.ymCampaignId, result.campaignStatus), userErrors: [] };
  } catch (error) {
    if (!(error instanceof BusinessError)) throw error;
    const fallback = error.code === 'repeatCampaignData' ? atInput(['discountAmount']) : null;
    return { campaign: null, userErrors: userErrorsFromBusiness(error, atInput, fallback, INPUT_NAMES) };
  }
}
