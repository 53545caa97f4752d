import { Offer, OfferConnection, OfferEdge, OfferFeedCategory, offerFeedQuery } from '../../apps/feed-resolvers.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import { Campaign } from './campaign.js';
import { CampaignAppearance } from './campaign-appearance.js';
import { CampaignCard } from './campaign-card.js';
import { CampaignCashback } from './campaign-cashback.js';
import { CampaignConnection } from './campaign-connection.js';
import { CampaignDiscount } from './campaign-discount.js';
import { CampaignFee } from './campaign-fee.js';
import { CampaignMerchant } from './campaign-merchant.js';
import { CampaignPinSettings } from './campaign-pin-settings.js';
import { CampaignStats } from './campaign-stats.js';
import { Category } from './category.js';
import { enumResolvers } from './enums.js';
import { Lead } from './lead.js';
import { LeadCounts } from './lead-counts.js';
import { Mutation } from './mutation.js';
import { PinConnection } from './pin-connection.js';
import { PinCounts } from './pin-counts.js';
import { Query } from './query.js';
import { UserError } from './user-error.js';
import { CampaignStatusEvent, Subscription } from '../../subscriptions/resolvers.js';

export const resolvers: Resolvers = {
  ...enumResolvers,
  Query: { ...Query, ...offerFeedQuery },
  Mutation,
  Subscription,
  CampaignStatusEvent,
  Campaign,
  CampaignMerchant,
  CampaignAppearance,
  CampaignDiscount,
  CampaignFee,
  CampaignPinSettings,
  CampaignCashback,
  CampaignCard,
  CampaignConnection,
  CampaignStats,
  PinCounts,
  LeadCounts,
  PinConnection,
  Category,
  Lead,
  UserError,
  Offer,
  OfferConnection,
  OfferEdge,
  OfferFeedCategory,
};
