import type { CampaignDetails, CampaignStatus, UnknownEnumValue } from '../campaign-api/index.js';
import type { CampaignRef } from '../schema/models.js';
import type { UNKNOWN_VALUE } from '../schema/enum-values.js';
import { known, raw } from './backend-values.js';
import { campaignNodeId } from './campaign-id.js';

/**
 * A campaign's id and status as properties: GraphQL reads them as it reads any property, where a
 * resolver per field would cost each item of a list a call, its arguments and its resolve info.
 * The id and the status's spellings are made only when a query asks for them.
 */
class Ref implements CampaignRef {
  constructor(
    readonly ymCampaignId: number,
    private readonly backendStatus: CampaignStatus | UnknownEnumValue,
    readonly details?: CampaignDetails,
  ) {}

  get id(): string {
    return campaignNodeId(this.ymCampaignId);
  }

  get status(): CampaignStatus | typeof UNKNOWN_VALUE {
    return known(this.backendStatus);
  }

  get rawStatus(): string {
    return raw(this.backendStatus);
  }
}

/** The campaign numbered `ymCampaignId`, in the status its source reported, with its record when at hand. */
export function campaignRef(ymCampaignId: number, status: CampaignStatus | UnknownEnumValue, details?: CampaignDetails): CampaignRef {
  return new Ref(ymCampaignId, status, details);
}
