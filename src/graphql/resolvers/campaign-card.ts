import { feedLocaleOf } from '../../apps/context.js';
import { discountLabel } from '../discount-label.js';
import type { CampaignCardResolvers } from '../generated/resolvers-types.js';

export const CampaignCard: CampaignCardResolvers = {
  title: (d) => d.merchantName,
  description: (d) => d.description,
  conditions: (d) => d.conditions,
  discountLabel: (d, { locale }) => discountLabel(d, locale ?? feedLocaleOf(d) ?? 'ru-RU'),
  logoSvgUrl: (d) => d.merchantLogoSvg,
  logoPngUrl: (d) => d.merchantLogoPng,
  backgroundColor: (d) => d.backgroundColor,
  fontColor: (d) => d.fontColor,
  backgroundImageUrl: (d) => d.backgroundImage ?? null,
  actionUrl: (d) => d.acceptUrl ?? null,
};
