import type { CampaignDetails } from '../../campaign-api/index.js';
import { discountLabel } from '../discount-label.js';
import type { CampaignCard as CardFields, CampaignCardResolvers } from '../../schema/generated/resolvers-types.js';
import type { CardModel } from '../../schema/models.js';

/**
 * The card of a campaign record. Its plain fields are made once, under their schema names, so
 * graphql-jit reads them as properties: a resolver per field made a resolve-info object and a
 * path per card and field, most of a card list's garbage. Only `discountLabel`, which takes an
 * argument, stays a resolver.
 */
export function cardOf(record: CampaignDetails, feedLocale: string | null = null): CardModel {
  return {
    title: record.merchantName,
    description: record.description,
    conditions: record.conditions,
    logoSvgUrl: record.merchantLogoSvg,
    logoPngUrl: record.merchantLogoPng,
    backgroundColor: record.backgroundColor,
    fontColor: record.fontColor,
    backgroundImageUrl: record.backgroundImage ?? null,
    actionUrl: record.acceptUrl ?? null,
    record,
    feedLocale,
  } satisfies Omit<CardFields, 'discountLabel' | '__typename'> & Omit<CardModel, keyof CardFields>;
}

export const CampaignCard: CampaignCardResolvers = {
  discountLabel: (card, { locale }) => discountLabel(card.record, locale ?? card.feedLocale ?? 'ru-RU'),
};
