import type { z } from 'zod';
import { ApiFailure, incorrectData } from './api-failure.js';
import type { Campaign, Partner } from './campaign.js';
import type { EmulatorState } from './state.js';
import { parseOrFail } from './validation.js';

/** A handler answers with the serialized success body, so hot reads can serve a cached string. */
export type Handler = (state: EmulatorState, partner: Partner, body: unknown) => string;

export const success = (result: unknown): string => `{"status":"success","result":${JSON.stringify(result)}}`;

const ID_HINT =
  'is required: send the ymCampaignId that campaigns/create returned (partnerCampaignId keys only campaigns/update)';

/** Design 4.1: name ymCampaignId when it is missing, so a client keyed by partnerCampaignId learns why. */
export function parseWithId<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const missingId = isObject(body) && body.ymCampaignId === undefined;
  try {
    return parseOrFail(schema, body);
  } catch (error) {
    if (missingId && error instanceof ApiFailure && error.fields) {
      const fields = error.fields.map((f) => (f.field === 'ymCampaignId' ? { field: f.field, message: ID_HINT } : f));
      throw incorrectData(fields);
    }
    throw error;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function ownCampaign(state: EmulatorState, partner: Partner, ymCampaignId: number): Campaign {
  const campaign = state.campaigns.get(ymCampaignId);
  // Another partner's campaign is reported as absent, so ids reveal nothing (design 4.5).
  if (!campaign || campaign.owner !== partner) {
    throw new ApiFailure('campaignNotFound', `no campaign with ymCampaignId ${ymCampaignId} for this partner`);
  }
  return campaign;
}

