import { CODE_CAMPAIGN_TYPES, isUnknownEnumValue, type CampaignDetails } from '../../campaign-api/index.js';
import { knownOrNull } from '../backend-values.js';
import type { CampaignPinSettingsResolvers } from '../../schema/generated/resolvers-types.js';

/**
 * The record as `pinSettings`, for code campaigns; null for the others. A kind this API does not
 * know has pin settings when its record holds any.
 */
export function pinSettingsOf(d: CampaignDetails): CampaignDetails | null {
  if (isUnknownEnumValue(d.campaignType)) return d.pinType !== undefined || d.pinDisplayType !== undefined || d.couponCode !== undefined ? d : null;
  return CODE_CAMPAIGN_TYPES.includes(d.campaignType) ? d : null;
}

/**
 * `pinSettings` as everyone may see it: the coupon code only where every user gets that same
 * code (`reusable`). A code a record holds for any other kind of hand-out is not shown.
 */
export function sharedPinSettingsOf(d: CampaignDetails): CampaignDetails | null {
  const settings = pinSettingsOf(d);
  if (!settings || settings.couponCode === undefined || settings.pinType === 'reusable') return settings;
  const { couponCode: _withheld, ...rest } = settings;
  return rest;
}

export const CampaignPinSettings: CampaignPinSettingsResolvers = {
  pinType: (d) => knownOrNull(d.pinType),
  displayType: (d) => knownOrNull(d.pinDisplayType),
  couponCode: (d) => d.couponCode ?? null,
  expiresAt: (d) => d.pinEnd ?? null,
};
