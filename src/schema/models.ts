import type {
  CampaignDetails,
  CampaignInfo,
  CampaignStatus,
  PinStatus,
  RedeemStatus,
} from '../campaign-api/index.js';
import type { GraphQLError } from 'graphql';
import type { Page } from '../graphql/pagination.js';
import type { UNKNOWN_VALUE, UserErrorCodeValues } from './enum-values.js';

/**
 * What resolvers pass around for the schema's object types (codegen `mappers`). Objects carry
 * only what the parent already knows, so a field costs a backend call only when it is asked for.
 */

/**
 * A campaign as far as it is known: a list row knows only its number and status, and its other
 * fields load the record through the request's DataLoader; `campaign(id)` already holds the
 * record. The fields every source knows are properties under their schema names (made by
 * `campaignRef`), so a list of ids and statuses is read without a resolver call per item.
 */
export interface CampaignRef {
  /** `Campaign.id`: the global id. */
  readonly id: string;
  readonly ymCampaignId: number;
  readonly status: CampaignStatus | typeof UNKNOWN_VALUE;
  readonly rawStatus: string;
  readonly details?: CampaignDetails;
}

/**
 * A campaign's card: the plain fields under their schema names (see `cardOf`), the record for
 * `discountLabel`, and the feed's locale when the card came from `offerFeed(locale:)`.
 */
export interface CardModel {
  title: string;
  description: string;
  conditions: string;
  logoSvgUrl: string;
  logoPngUrl: string;
  backgroundColor: string;
  fontColor: string;
  backgroundImageUrl: string | null;
  actionUrl: string | null;
  record: CampaignDetails;
  feedLocale: string | null;
}

export type CampaignPage = Page<CampaignRef | null>;

export interface PinModel {
  code: string;
  status: PinStatus;
}
export type PinPage = Page<PinModel>;

export interface CategoryModel {
  categoryId: number;
  categoryName: string;
}

export type CampaignStatsModel = CampaignInfo;
export type PinCountsModel = CampaignInfo['campaignPinsStats'];
export type LeadCountsModel = CampaignInfo['campaignRedeemStats'];

export interface LeadModel {
  campaign: CampaignRef;
  transactionId: string;
  state: string;
  redeemStatus: RedeemStatus;
}

export type UserErrorCodeValue = (typeof UserErrorCodeValues)[keyof typeof UserErrorCodeValues];

export interface UserErrorModel {
  field: string[] | null;
  message: string;
  code: UserErrorCodeValue;
}

/**
 * `CampaignStatusEvent`'s model: a campaign's status changed. Statuses are the backend's strings
 * exactly as sent (an unknown one included), so an event crosses Redis as plain JSON and reads
 * back the same.
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

/**
 * A subscription that ends with an error: delivered as its last event, so the client gets the
 * error in a result (`errors`, then `complete`) over WebSocket and SSE alike.
 */
export interface WatchFailure {
  failure: GraphQLError;
}

/** What the `campaignChanged` subscription yields: an event, or the failure that ends it. */
export type WatchItem = StatusEvent | WatchFailure;
