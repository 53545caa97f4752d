/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Where a campaign is in its life cycle. */
export type CampaignStatus =
  /** Rejected by the moderator; update it to send it to moderation again. */
  | 'DECLINED'
  /** Archived after its end date; it cannot run again. */
  | 'FINISHED'
  /** Being checked by a moderator. */
  | 'MODERATION'
  /** Not shown: approved and waiting to be started, or stopped with `stopCampaign`. */
  | 'PAUSED'
  /** Running out of promo codes stopped it: upload codes with `addPins` and it starts again. */
  | 'PIN_REQUIRED'
  /** Running: users see the offer. */
  | 'STARTED'
  /** A status this API does not know yet; see `Campaign.rawStatus`. */
  | 'UNKNOWN';

/**
 * A status to list campaigns in (`CampaignStatus` without `UNKNOWN`, which names no status to ask
 * for: a campaign in a status this API does not know yet is listed without a filter).
 */
export type CampaignStatusInput =
  /** Rejected by the moderator. */
  | 'DECLINED'
  /** Archived after its end date. */
  | 'FINISHED'
  /** Being checked by a moderator. */
  | 'MODERATION'
  /** Not shown: approved and waiting to be started, or stopped. */
  | 'PAUSED'
  /** Stopped by running out of promo codes. */
  | 'PIN_REQUIRED'
  /** Running: users see the offer. */
  | 'STARTED';

/** The kind of offer: how a user gets the bonus. */
export type CampaignType =
  /** An image banner that links to `acceptUrl`. */
  | 'BANNER'
  /**
   * A code campaign of an older kind that the campaign API may still return. Read-only: create
   * `CODE_ONLINE` or `CODE_OFFLINE` campaigns instead.
   */
  | 'CODE'
  /** A promo code shown in a physical store (text or barcode). */
  | 'CODE_OFFLINE'
  /** A promo code for an online store; the user also follows `acceptUrl`. */
  | 'CODE_ONLINE'
  /** A promotion without a code: the user follows `acceptUrl`. */
  | 'PROMO'
  /** A kind this API does not know yet; see `Campaign.rawType`. */
  | 'UNKNOWN';

/** An ISO 4217 currency. */
export type CurrencyCode =
  /** Russian rouble (ISO 4217 numeric code 643). The default wherever a currency is optional. */
  | 'RUB'
  /** A currency code this API does not know yet. */
  | 'UNKNOWN'
  /** US dollar (ISO 4217 numeric code 840). */
  | 'USD';

/** How the discount is expressed. */
export type DiscountType =
  /** A fixed amount off, in the discount's currency. */
  | 'FIX'
  /** A percentage off, above 0 and at most 100. */
  | 'PERCENT'
  /** A bonus, gift or special offer described in Russian text. */
  | 'TEXT'
  /** A value this API does not know yet. */
  | 'UNKNOWN';

/** How the partner's fee per lead is computed. */
export type FeeType =
  /** A fixed amount per lead. */
  | 'FIX'
  /** A share of the paid order, in percent. */
  | 'PERCENT'
  /** A value this API does not know yet. */
  | 'UNKNOWN';

/** Where a promo code is in its life. */
export type PinStatus =
  /** Handed out to a user who has not used it yet. */
  | 'ACCEPTED_BY_USER'
  /** Uploaded and not yet handed out. */
  | 'NEW_UNUSED'
  /** Used: a lead with this code was reported. */
  | 'REDEEM_RECEIVED';

/** A kind of device an offer is shown on (`Platform` without `UNKNOWN`). */
export type PlatformInput =
  /** Desktop computers. */
  | 'DESKTOP'
  /** Smartphones and tablets. */
  | 'MOBILE';

/** Why a mutation could not do (all of) what was asked. */
export type UserErrorCode =
  /**
   * The campaign API answered in the middle of a multi-step mutation with something this API cannot
   * read. What was done before is reported in the payload.
   */
  | 'BACKEND_BAD_RESPONSE'
  /**
   * The campaign API could not be reached in the middle of a multi-step mutation (see `addPins`).
   * What was done before is reported in the payload; retry the rest.
   */
  | 'BACKEND_UNAVAILABLE'
  /** No campaign with this id belongs to the calling partner. */
  | 'CAMPAIGN_NOT_FOUND'
  /**
   * The campaign is finished (archived); it cannot be started or stopped any more, and
   * `updateCampaign` changes it only together with a `campaignEnd` in the future.
   */
  | 'FAIL_FINISHED'
  /** Only the partner that created the campaign may stop it. */
  | 'FAIL_MERCHANT'
  /** The campaign awaits moderation, or was declined and must be updated first. */
  | 'FAIL_MODERATOR'
  /**
   * The campaign hands out one-off promo codes and has none left unused; upload some with `addPins`
   * before starting it.
   */
  | 'FAIL_PIN'
  /**
   * A value is not in the form the field takes: a colour, URL, timestamp, decimal, host name, code
   * or id written otherwise, text that is not plain text or not in Russian where Russian is asked.
   */
  | 'FORMAT'
  /**
   * The campaign API refused a value (`field` names it): its own check, after this API's checks
   * passed. `message` says why in this API's words.
   */
  | 'INCORRECT_DATA'
  /**
   * A value the other fields rule out: both fee forms, `USD` for a discount that is not `FIX`, a
   * coupon code for `ONE_OFF` pins, pins for a campaign that takes none.
   */
  | 'NOT_ALLOWED'
  /**
   * A change the campaign's current state rules out, such as changing how codes are handed out
   * while the campaign holds one-off codes.
   */
  | 'NOT_ALLOWED_NOW'
  /** A value names something that does not exist, such as a `categoryId` the directory does not list. */
  | 'NOT_FOUND'
  /**
   * A value is beyond what is allowed, alone or against another field: a number or percentage
   * out of its bounds, `fee.min` above `fee.max`, `endsAt` not after `startsAt`, a background too
   * light or text with too little contrast against it.
   */
  | 'OUT_OF_RANGE'
  /**
   * A campaign with this `partnerCampaignId` already exists with another `discountAmount`.
   * Create it with a new `partnerCampaignId`, or keep the discount amount.
   */
  | 'REPEAT_CAMPAIGN_DATA'
  /**
   * A value is missing: a required field left out, empty or blank, `null` for a field that cannot
   * be cleared, or a field the others make necessary (`acceptUrl` for `PROMO`, both `fee.min` and
   * `fee.max`).
   */
  | 'REQUIRED'
  /**
   * Text or a list is longer than the field takes (`description` over 90 characters, more pins
   * than one call takes).
   */
  | 'TOO_LONG'
  /**
   * The campaign API refused with a code this API does not know yet, or with none at all (an HTTP
   * status alone, as a proxy in front of it may answer); `message` says what it answered.
   */
  | 'UNKNOWN';

export type CardFieldsFragment = { __typename: 'CampaignCard', title: string, description: string, discountLabel: string, logoPngUrl: string, logoSvgUrl: string, backgroundColor: string, fontColor: string, backgroundImageUrl: string | null, actionUrl: string | null };

export type OfferCardsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  categoryId?: string | number | null | undefined;
  platform?: PlatformInput | null | undefined;
  locale?: string | null | undefined;
}>;


export type OfferCardsQuery = { __typename: 'Query', feed: { __typename: 'OfferConnection', totalCount: number, categories: Array<{ __typename: 'OfferFeedCategory', offerCount: number, category: { __typename: 'Category', id: string, name: string } }>, nodes: Array<{ __typename: 'Offer', id: string, card: { __typename: 'CampaignCard', title: string, description: string, discountLabel: string, logoPngUrl: string, logoSvgUrl: string, backgroundColor: string, fontColor: string, backgroundImageUrl: string | null, actionUrl: string | null }, category: { __typename: 'Category', id: string, name: string } | null }>, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } | null };

export type CampaignListQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  status?: CampaignStatusInput | null | undefined;
}>;


export type CampaignListQuery = { __typename: 'Query', campaigns: { __typename: 'CampaignConnection', totalCount: number, edges: Array<{ __typename: 'CampaignEdge', cursor: string, node: { __typename: 'Campaign', id: string, ymCampaignId: number, status: CampaignStatus, merchant: { __typename: 'CampaignMerchant', name: string } } | null }>, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } | null };

export type CampaignDetailQueryVariables = Exact<{
  id: string | number;
}>;


export type CampaignDetailQuery = { __typename: 'Query', campaign: { __typename: 'Campaign', id: string, partnerCampaignId: number | null, status: CampaignStatus, rawStatus: string, type: CampaignType, description: string, conditions: string, startsAt: string | null, endsAt: string | null, merchant: { __typename: 'CampaignMerchant', name: string, domain: string, logoPngUrl: string }, discount: { __typename: 'CampaignDiscount', type: DiscountType, amount: string, value: string | null, currency: CurrencyCode | null, label: string }, fee: { __typename: 'CampaignFee', type: FeeType | null, amount: string | null, min: string | null, max: string | null }, category: { __typename: 'Category', id: string, name: string } | null, card: { __typename: 'CampaignCard', title: string, description: string, discountLabel: string, logoPngUrl: string, logoSvgUrl: string, backgroundColor: string, fontColor: string, backgroundImageUrl: string | null, actionUrl: string | null } } | null };

export type CampaignPinsQueryVariables = Exact<{
  id: string | number;
  status: PinStatus;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type CampaignPinsQuery = { __typename: 'Query', campaign: { __typename: 'Campaign', id: string, pins: { __typename: 'PinConnection', totalCount: number, nodes: Array<{ __typename: 'Pin', code: string, status: PinStatus }>, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } | null } | null };

export type CategoriesQueryVariables = Exact<{ [key: string]: never; }>;


export type CategoriesQuery = { __typename: 'Query', categories: Array<{ __typename: 'Category', id: string, name: string }> | null };

export type StartCampaignMutationVariables = Exact<{
  id: string | number;
}>;


export type StartCampaignMutation = { __typename: 'Mutation', startCampaign: { __typename: 'StartCampaignPayload', campaign: { __typename: 'Campaign', id: string, ymCampaignId: number, status: CampaignStatus } | null, userErrors: Array<{ __typename: 'UserError', field: Array<string> | null, message: string, code: UserErrorCode }> } };

export type StopCampaignMutationVariables = Exact<{
  id: string | number;
}>;


export type StopCampaignMutation = { __typename: 'Mutation', stopCampaign: { __typename: 'StopCampaignPayload', campaign: { __typename: 'Campaign', id: string, ymCampaignId: number, status: CampaignStatus } | null, userErrors: Array<{ __typename: 'UserError', field: Array<string> | null, message: string, code: UserErrorCode }> } };

export type CampaignChangedSubscriptionVariables = Exact<{
  ids?: Array<string | number> | string | number | null | undefined;
}>;


export type CampaignChangedSubscription = { campaignChanged: { __typename: 'CampaignStatusEvent', previousStatus: CampaignStatus | null, status: CampaignStatus, at: string, campaign: { __typename: 'Campaign', id: string, status: CampaignStatus } } };

export const CardFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CardFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CampaignCard"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"discountLabel"}},{"kind":"Field","name":{"kind":"Name","value":"logoPngUrl"}},{"kind":"Field","name":{"kind":"Name","value":"logoSvgUrl"}},{"kind":"Field","name":{"kind":"Name","value":"backgroundColor"}},{"kind":"Field","name":{"kind":"Name","value":"fontColor"}},{"kind":"Field","name":{"kind":"Name","value":"backgroundImageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"actionUrl"}}]}}]} as unknown as DocumentNode<CardFieldsFragment, unknown>;
export const OfferCardsDocument = {"__meta__":{"hash":"sha256:bae9db6057affd1eed7b1af6cdb32d3ddf7298eb2f6b6a81262496ce56c49189"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OfferCards"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"categoryId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platform"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"PlatformInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"locale"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","alias":{"kind":"Name","value":"feed"},"name":{"kind":"Name","value":"offerFeed"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"categoryId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"categoryId"}}},{"kind":"Argument","name":{"kind":"Name","value":"platform"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platform"}}},{"kind":"Argument","name":{"kind":"Name","value":"locale"},"value":{"kind":"Variable","name":{"kind":"Name","value":"locale"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"categories"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"category"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"offerCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"card"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"CardFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"category"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CardFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CampaignCard"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"discountLabel"}},{"kind":"Field","name":{"kind":"Name","value":"logoPngUrl"}},{"kind":"Field","name":{"kind":"Name","value":"logoSvgUrl"}},{"kind":"Field","name":{"kind":"Name","value":"backgroundColor"}},{"kind":"Field","name":{"kind":"Name","value":"fontColor"}},{"kind":"Field","name":{"kind":"Name","value":"backgroundImageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"actionUrl"}}]}}]} as unknown as DocumentNode<OfferCardsQuery, OfferCardsQueryVariables>;
export const CampaignListDocument = {"__meta__":{"hash":"sha256:64174c08e129e8a63353a7e25e8b5304969fc13978dcf98afddb8127a9ced465"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CampaignList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CampaignStatusInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"campaigns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"withStatus"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ymCampaignId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"merchant"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<CampaignListQuery, CampaignListQueryVariables>;
export const CampaignDetailDocument = {"__meta__":{"hash":"sha256:8c352070169d7c26ce29fb6701984e4179d51ed34f59b7b817381c62ad16e35e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CampaignDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"partnerCampaignId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rawStatus"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"conditions"}},{"kind":"Field","name":{"kind":"Name","value":"startsAt"}},{"kind":"Field","name":{"kind":"Name","value":"endsAt"}},{"kind":"Field","name":{"kind":"Name","value":"merchant"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"logoPngUrl"}}]}},{"kind":"Field","name":{"kind":"Name","value":"discount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fee"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"min"}},{"kind":"Field","name":{"kind":"Name","value":"max"}}]}},{"kind":"Field","name":{"kind":"Name","value":"category"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"card"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"CardFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CardFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CampaignCard"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"discountLabel"}},{"kind":"Field","name":{"kind":"Name","value":"logoPngUrl"}},{"kind":"Field","name":{"kind":"Name","value":"logoSvgUrl"}},{"kind":"Field","name":{"kind":"Name","value":"backgroundColor"}},{"kind":"Field","name":{"kind":"Name","value":"fontColor"}},{"kind":"Field","name":{"kind":"Name","value":"backgroundImageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"actionUrl"}}]}}]} as unknown as DocumentNode<CampaignDetailQuery, CampaignDetailQueryVariables>;
export const CampaignPinsDocument = {"__meta__":{"hash":"sha256:448af4bef7a4a83f94e99c8118e2769bc265f398bf399df9564778a535709712"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CampaignPins"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PinStatus"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"pins"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CampaignPinsQuery, CampaignPinsQueryVariables>;
export const CategoriesDocument = {"__meta__":{"hash":"sha256:3b2455c282aa18220286da77cac892befdc2ee0a7b0c1adc91d8b3bebc2a72d2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Categories"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"categories"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CategoriesQuery, CategoriesQueryVariables>;
export const StartCampaignDocument = {"__meta__":{"hash":"sha256:e4a27833cc6a205fe773c5c94e298e16cac08553f75fa3df4df04cd99831a914"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StartCampaign"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"startCampaign"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ymCampaignId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}}]}}]}}]} as unknown as DocumentNode<StartCampaignMutation, StartCampaignMutationVariables>;
export const StopCampaignDocument = {"__meta__":{"hash":"sha256:1d07a28cf18c0addcea18d525f38a35799b476ebd1262c7d8b20459a6c942a73"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StopCampaign"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"stopCampaign"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ymCampaignId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}}]}}]}}]} as unknown as DocumentNode<StopCampaignMutation, StopCampaignMutationVariables>;
export const CampaignChangedDocument = {"__meta__":{"hash":"sha256:d2954d7321919c6f659527fc69e233929b5585f678d9ff23518f1b9be8d1f58c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CampaignChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"campaignChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousStatus"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<CampaignChangedSubscription, CampaignChangedSubscriptionVariables>;