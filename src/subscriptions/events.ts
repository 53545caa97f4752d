import { CAMPAIGN_STATUSES, isUnknownEnumValue, type CampaignStatus, type UnknownEnumValue } from '../campaign-api/index.js';

/** A status as an event carries it (`StatusEvent`, src/schema/models.ts): the backend's string exactly as sent. */
export function statusString(status: CampaignStatus | UnknownEnumValue): string {
  return isUnknownEnumValue(status) ? status.unknown : status;
}

/** Back to what the schema's enum resolvers take: a known value, or the unknown marker. */
export function statusValue(status: string): CampaignStatus | UnknownEnumValue {
  return (CAMPAIGN_STATUSES as readonly string[]).includes(status) ? (status as CampaignStatus) : { unknown: status };
}
