import {
  BusinessError,
  CODE_CAMPAIGN_TYPES,
  isUnknownEnumValue,
  PARSE_OPTIONS,
  operations,
  type CampaignDetails,
} from '../../campaign-api/index.js';
import { quote } from '../../text/received-value.js';
import type { GraphQLContext } from '../../schema/context.js';
import { CampaignTypeValues } from '../../schema/enum-values.js';
import type { ReportLeadInput } from '../../schema/generated/resolvers-types.js';
import type { LeadModel, UserErrorModel } from '../../schema/models.js';
import { parseCampaignId } from '../campaign-id.js';
import { campaignRef } from '../campaign-ref.js';
import { CAMPAIGN_NAMES } from './input-fields.js';
import { problem, userError, userErrorsFromBusiness, userErrorsFromIssues } from './user-errors.js';

export interface ReportLeadPayloadModel {
  lead: LeadModel | null;
  userErrors: UserErrorModel[];
}

const ROOT = ['input'];
const rename = (path: string[]) => (path[0] === 'ymCampaignId' ? ['campaignId', ...path.slice(1)] : path);

/** Which of pinContent / clickId the campaign's kind needs; null when the kind is unknown. */
function kindProblems(details: CampaignDetails, input: ReportLeadInput): UserErrorModel[] {
  const type = details.campaignType;
  if (isUnknownEnumValue(type) || isUnknownEnumValue(details.pinType ?? '')) return [];
  const isCode = CODE_CAMPAIGN_TYPES.includes(type);
  const kind = `a campaign of type ${Object.entries(CampaignTypeValues).find(([, v]) => v === type)?.[0] ?? type}`;
  if (isCode && details.pinType === 'one-off') {
    return input.pinContent ? [] : [problem([...ROOT, 'pinContent'], 'required', `is required for ${kind} with pinSettings.pinType ONE_OFF: send the promo code the user used`)];
  }
  if (isCode && details.pinType === undefined) return [];
  if (input.clickId) return [];
  return [problem([...ROOT, 'clickId'], 'required', `is required for ${kind}${isCode ? ' with pinSettings.pinType REUSABLE' : ''}: send the clickId the campaign API appended to acceptUrl`)];
}

/**
 * reportLead → campaigns/redeem. The input's values are checked with the contract (no backend
 * call when they fail), then pinContent / clickId against the campaign's kind (one read of the
 * campaign), before redeem.
 */
export async function reportLead(ctx: GraphQLContext, input: ReportLeadInput): Promise<ReportLeadPayloadModel> {
  const ymCampaignId = parseCampaignId(input.campaignId);
  if (ymCampaignId === null) {
    return { lead: null, userErrors: [userError([...ROOT, 'campaignId'], 'campaignNotFound', `no campaign has id ${quote(input.campaignId)}; pass a Campaign.id`)] };
  }
  const request: Record<string, unknown> = { ymCampaignId };
  for (const [key, value] of Object.entries(input)) {
    if (key !== 'campaignId' && value !== null && value !== undefined) request[key] = value;
  }
  if (input.bonusDescription) {
    const { category } = input.bonusDescription;
    request.bonusDescription = category === null || category === undefined ? {} : { category };
  }

  const parsed = operations.redeem.request.safeParse(request, PARSE_OPTIONS);
  // Values the contract refuses are the caller's to fix before anything is read or sent.
  if (!parsed.success) return { lead: null, userErrors: userErrorsFromIssues(parsed.error, ROOT, rename, CAMPAIGN_NAMES) };
  const userErrors: UserErrorModel[] = [];
  const details = await ctx.loaders.details.load(ymCampaignId);
  if (!details) {
    return { lead: null, userErrors: [userError([...ROOT, 'campaignId'], 'campaignNotFound', `no campaign with id ${quote(input.campaignId)} belongs to this partner`)] };
  }
  userErrors.push(...kindProblems(details, input));
  if (userErrors.length) return { lead: null, userErrors };

  try {
    const result = await ctx.partner.redeem(parsed.data);
    return {
      lead: {
        campaign: campaignRef(ymCampaignId, details.campaignStatus, details),
        transactionId: result.transactionId,
        state: result.state,
        redeemStatus: parsed.data.redeemStatus ?? 'used',
      },
      userErrors: [],
    };
  } catch (error) {
    if (!(error instanceof BusinessError)) throw error;
    return { lead: null, userErrors: userErrorsFromBusiness(error, (path) => [...ROOT, ...rename(path)], null, CAMPAIGN_NAMES) };
  }
}
