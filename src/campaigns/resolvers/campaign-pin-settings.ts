import { knownOrNull } from '../backend-values.js';
import type { CampaignPinSettingsResolvers } from '../../schema/generated/resolvers-types.js';

export const CampaignPinSettings: CampaignPinSettingsResolvers = {
  pinType: (d) => knownOrNull(d.pinType),
  displayType: (d) => knownOrNull(d.pinDisplayType),
  couponCode: (d) => d.couponCode ?? null,
  expiresAt: (d) => d.pinEnd ?? null,
};
