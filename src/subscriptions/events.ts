import { CAMPAIGN_STATUSES, isUnknownEnumValue, type CampaignStatus, type UnknownEnumValue } from '../campaign-api/index.js';

/**
 * A campaign's status changed. Statuses are the backend's strings exactly as sent (an unknown
 * one included), so an event crosses Redis as plain JSON and reads back the same.
 */
export interface StatusEvent {
  /** The partner it belongs to: the token's keyed hash, never the token. */
  partner: string;
  id: number;
  previousStatus: string | null;
  status: string;
  /** ISO 8601. */
  at: string;
}

export function statusString(status: CampaignStatus | UnknownEnumValue): string {
  return isUnknownEnumValue(status) ? status.unknown : status;
}

/** Back to what the schema's enum resolvers take: a known value, or the unknown marker. */
export function statusValue(status: string): CampaignStatus | UnknownEnumValue {
  return (CAMPAIGN_STATUSES as readonly string[]).includes(status) ? (status as CampaignStatus) : { unknown: status };
}
