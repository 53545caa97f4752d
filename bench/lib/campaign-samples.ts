/**
 * Valid campaign bodies for the bench: REST create bodies for seeding the emulator, and the
 * GraphQL `createCampaign` input of the create scenario. Both satisfy the field rules of
 * src/campaign-api/campaign-fields.ts (a dark background, white text, Russian texts).
 */

const SHOP = {
  domain: 'bench-market.example.ru',
  name: 'Бенч Маркет',
  background: '#1A237E',
  font: '#FFFFFF',
} as const;

/** A promo campaign as the REST API takes it (reference 4.1). */
export function restCampaignBody(partnerCampaignId: number): Record<string, unknown> {
  return {
    partnerCampaignId,
    categoryId: 1 + (partnerCampaignId % 12),
    campaignType: 'promo',
    acceptUrl: `https://${SHOP.domain}/promo/${partnerCampaignId}`,
    merchantDomain: SHOP.domain,
    merchantLogoSvg: `https://${SHOP.domain}/logo.svg`,
    merchantLogoPng: `https://${SHOP.domain}/logo.png`,
    merchantName: SHOP.name,
    backgroundColor: SHOP.background,
    fontColor: SHOP.font,
    description: `Скидка ${5 + (partnerCampaignId % 50)}% на всё`,
    conditions: 'Предложение действует при оформлении заказа на сайте магазина',
    discountType: 'percent',
    discountAmount: String(5 + (partnerCampaignId % 50)),
    feeType: 'percent',
    campaignFee: '5',
  };
}

/** The same campaign as `CreateCampaignInput` (the output's names and groups, GraphQL enum values, ids as strings). */
export function graphqlCreateInput(partnerCampaignId: number): Record<string, unknown> {
  const rest = restCampaignBody(partnerCampaignId);
  return {
    partnerCampaignId,
    categoryId: String(rest.categoryId),
    type: 'PROMO',
    acceptUrl: rest.acceptUrl,
    description: rest.description,
    conditions: rest.conditions,
    merchant: { name: rest.merchantName, domain: rest.merchantDomain, logoSvgUrl: rest.merchantLogoSvg, logoPngUrl: rest.merchantLogoPng },
    appearance: { backgroundColor: rest.backgroundColor, fontColor: rest.fontColor },
    discount: { type: 'PERCENT', amount: rest.discountAmount },
    fee: { type: 'PERCENT', amount: rest.campaignFee },
  };
}
