import type { CampaignMerchantResolvers } from '../../schema/generated/resolvers-types.js';

export const CampaignMerchant: CampaignMerchantResolvers = {
  name: (d) => d.merchantName,
  domain: (d) => d.merchantDomain,
  logoSvgUrl: (d) => d.merchantLogoSvg,
  logoPngUrl: (d) => d.merchantLogoPng,
};
