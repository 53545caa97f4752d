import { Offer, OfferConnection, OfferEdge, OfferFeedCategory, offerFeedQuery } from '../feed/resolvers.js';
import type { Resolvers } from '../schema/generated/resolvers-types.js';
import { Campaign } from '../campaigns/resolvers/campaign.js';
import { CampaignAppearance } from '../campaigns/resolvers/campaign-appearance.js';
import { CampaignCard } from '../campaigns/resolvers/campaign-card.js';
import { CampaignCashback } from '../campaigns/resolvers/campaign-cashback.js';
import { CampaignConnection } from '../campaigns/resolvers/campaign-connection.js';
import { CampaignDiscount } from '../campaigns/resolvers/campaign-discount.js';
import { CampaignFee } from '../campaigns/resolvers/campaign-fee.js';
import { CampaignMerchant } from '../campaigns/resolvers/campaign-merchant.js';
import { CampaignPinSettings } from '../campaigns/resolvers/campaign-pin-settings.js';
import { CampaignStats } from '../campaigns/resolvers/campaign-stats.js';
import { Category, categoryQueries } from '../categories/resolvers.js';
import { enumResolvers } from '../campaigns/resolvers/enums.js';
import { Lead } from '../campaigns/resolvers/lead.js';
import { LeadCounts } from '../campaigns/resolvers/lead-counts.js';
import { Mutation } from '../campaigns/resolvers/mutation.js';
import { Node } from '../campaigns/resolvers/node.js';
import { PinConnection } from '../campaigns/resolvers/pin-connection.js';
import { PinCounts } from '../campaigns/resolvers/pin-counts.js';
import { Query } from '../campaigns/resolvers/query.js';
import { UserError } from '../campaigns/resolvers/user-error.js';
import { CampaignStatusEvent, Subscription } from '../subscriptions/resolvers.js';

export const resolvers: Resolvers = {
  ...enumResolvers,
  Query: { ...Query, ...categoryQueries, ...offerFeedQuery },
  Mutation,
  Subscription,
  CampaignStatusEvent,
  Node,
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
