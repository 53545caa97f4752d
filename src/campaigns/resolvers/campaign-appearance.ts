import { knownOrNull } from '../backend-values.js';
import type { CampaignAppearanceResolvers } from '../../schema/generated/resolvers-types.js';

export const CampaignAppearance: CampaignAppearanceResolvers = {
  backgroundColor: (d) => d.backgroundColor,
  fontColor: (d) => d.fontColor,
  backgroundImageUrl: (d) => d.backgroundImage ?? null,
  appearanceType: (d) => knownOrNull(d.appearanceType),
};
