/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment CardFields on CampaignCard {\n    title\n    description\n    discountLabel\n    logoPngUrl\n    logoSvgUrl\n    backgroundColor\n    fontColor\n    backgroundImageUrl\n    actionUrl\n  }\n": typeof types.CardFieldsFragmentDoc,
    "\n  query OfferCards($first: Int, $after: String, $categoryId: ID, $platform: PlatformInput, $locale: String) {\n    feed: offerFeed(first: $first, after: $after, categoryId: $categoryId, platform: $platform, locale: $locale) {\n      totalCount\n      categories {\n        category {\n          id\n          name\n        }\n        offerCount\n      }\n      nodes {\n        id\n        card {\n          ...CardFields\n        }\n        category {\n          id\n          name\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.OfferCardsDocument,
    "\n  query CampaignList($first: Int, $after: String, $status: CampaignStatusInput) {\n    campaigns(first: $first, after: $after, withStatus: $status) {\n      totalCount\n      edges {\n        cursor\n        node {\n          id\n          ymCampaignId\n          status\n          merchant {\n            name\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.CampaignListDocument,
    "\n  query CampaignDetail($id: ID!) {\n    campaign(id: $id) {\n      id\n      partnerCampaignId\n      status\n      rawStatus\n      type\n      description\n      conditions\n      startsAt\n      endsAt\n      merchant {\n        name\n        domain\n        logoPngUrl\n      }\n      discount {\n        type\n        amount\n        value\n        currency\n        label\n      }\n      fee {\n        type\n        amount\n        min\n        max\n      }\n      category {\n        id\n        name\n      }\n      card {\n        ...CardFields\n      }\n    }\n  }\n": typeof types.CampaignDetailDocument,
    "\n  query CampaignPins($id: ID!, $status: PinStatus!, $first: Int, $after: String) {\n    campaign(id: $id) {\n      id\n      pins(status: $status, first: $first, after: $after) {\n        totalCount\n        nodes {\n          code\n          status\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.CampaignPinsDocument,
    "\n  query Categories {\n    categories {\n      id\n      name\n    }\n  }\n": typeof types.CategoriesDocument,
    "\n  mutation StartCampaign($id: ID!) {\n    startCampaign(id: $id) {\n      campaign {\n        id\n        ymCampaignId\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n": typeof types.StartCampaignDocument,
    "\n  mutation StopCampaign($id: ID!) {\n    stopCampaign(id: $id) {\n      campaign {\n        id\n        ymCampaignId\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n": typeof types.StopCampaignDocument,
    "\n  subscription CampaignChanged($ids: [ID!]) {\n    campaignChanged(ids: $ids) {\n      campaign {\n        id\n        status\n      }\n      previousStatus\n      status\n      at\n    }\n  }\n": typeof types.CampaignChangedDocument,
};
const documents: Documents = {
    "\n  fragment CardFields on CampaignCard {\n    title\n    description\n    discountLabel\n    logoPngUrl\n    logoSvgUrl\n    backgroundColor\n    fontColor\n    backgroundImageUrl\n    actionUrl\n  }\n": types.CardFieldsFragmentDoc,
    "\n  query OfferCards($first: Int, $after: String, $categoryId: ID, $platform: PlatformInput, $locale: String) {\n    feed: offerFeed(first: $first, after: $after, categoryId: $categoryId, platform: $platform, locale: $locale) {\n      totalCount\n      categories {\n        category {\n          id\n          name\n        }\n        offerCount\n      }\n      nodes {\n        id\n        card {\n          ...CardFields\n        }\n        category {\n          id\n          name\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.OfferCardsDocument,
    "\n  query CampaignList($first: Int, $after: String, $status: CampaignStatusInput) {\n    campaigns(first: $first, after: $after, withStatus: $status) {\n      totalCount\n      edges {\n        cursor\n        node {\n          id\n          ymCampaignId\n          status\n          merchant {\n            name\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.CampaignListDocument,
    "\n  query CampaignDetail($id: ID!) {\n    campaign(id: $id) {\n      id\n      partnerCampaignId\n      status\n      rawStatus\n      type\n      description\n      conditions\n      startsAt\n      endsAt\n      merchant {\n        name\n        domain\n        logoPngUrl\n      }\n      discount {\n        type\n        amount\n        value\n        currency\n        label\n      }\n      fee {\n        type\n        amount\n        min\n        max\n      }\n      category {\n        id\n        name\n      }\n      card {\n        ...CardFields\n      }\n    }\n  }\n": types.CampaignDetailDocument,
    "\n  query CampaignPins($id: ID!, $status: PinStatus!, $first: Int, $after: String) {\n    campaign(id: $id) {\n      id\n      pins(status: $status, first: $first, after: $after) {\n        totalCount\n        nodes {\n          code\n          status\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.CampaignPinsDocument,
    "\n  query Categories {\n    categories {\n      id\n      name\n    }\n  }\n": types.CategoriesDocument,
    "\n  mutation StartCampaign($id: ID!) {\n    startCampaign(id: $id) {\n      campaign {\n        id\n        ymCampaignId\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n": types.StartCampaignDocument,
    "\n  mutation StopCampaign($id: ID!) {\n    stopCampaign(id: $id) {\n      campaign {\n        id\n        ymCampaignId\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n": types.StopCampaignDocument,
    "\n  subscription CampaignChanged($ids: [ID!]) {\n    campaignChanged(ids: $ids) {\n      campaign {\n        id\n        status\n      }\n      previousStatus\n      status\n      at\n    }\n  }\n": types.CampaignChangedDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CardFields on CampaignCard {\n    title\n    description\n    discountLabel\n    logoPngUrl\n    logoSvgUrl\n    backgroundColor\n    fontColor\n    backgroundImageUrl\n    actionUrl\n  }\n"): (typeof documents)["\n  fragment CardFields on CampaignCard {\n    title\n    description\n    discountLabel\n    logoPngUrl\n    logoSvgUrl\n    backgroundColor\n    fontColor\n    backgroundImageUrl\n    actionUrl\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OfferCards($first: Int, $after: String, $categoryId: ID, $platform: PlatformInput, $locale: String) {\n    feed: offerFeed(first: $first, after: $after, categoryId: $categoryId, platform: $platform, locale: $locale) {\n      totalCount\n      categories {\n        category {\n          id\n          name\n        }\n        offerCount\n      }\n      nodes {\n        id\n        card {\n          ...CardFields\n        }\n        category {\n          id\n          name\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query OfferCards($first: Int, $after: String, $categoryId: ID, $platform: PlatformInput, $locale: String) {\n    feed: offerFeed(first: $first, after: $after, categoryId: $categoryId, platform: $platform, locale: $locale) {\n      totalCount\n      categories {\n        category {\n          id\n          name\n        }\n        offerCount\n      }\n      nodes {\n        id\n        card {\n          ...CardFields\n        }\n        category {\n          id\n          name\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CampaignList($first: Int, $after: String, $status: CampaignStatusInput) {\n    campaigns(first: $first, after: $after, withStatus: $status) {\n      totalCount\n      edges {\n        cursor\n        node {\n          id\n          ymCampaignId\n          status\n          merchant {\n            name\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query CampaignList($first: Int, $after: String, $status: CampaignStatusInput) {\n    campaigns(first: $first, after: $after, withStatus: $status) {\n      totalCount\n      edges {\n        cursor\n        node {\n          id\n          ymCampaignId\n          status\n          merchant {\n            name\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CampaignDetail($id: ID!) {\n    campaign(id: $id) {\n      id\n      partnerCampaignId\n      status\n      rawStatus\n      type\n      description\n      conditions\n      startsAt\n      endsAt\n      merchant {\n        name\n        domain\n        logoPngUrl\n      }\n      discount {\n        type\n        amount\n        value\n        currency\n        label\n      }\n      fee {\n        type\n        amount\n        min\n        max\n      }\n      category {\n        id\n        name\n      }\n      card {\n        ...CardFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query CampaignDetail($id: ID!) {\n    campaign(id: $id) {\n      id\n      partnerCampaignId\n      status\n      rawStatus\n      type\n      description\n      conditions\n      startsAt\n      endsAt\n      merchant {\n        name\n        domain\n        logoPngUrl\n      }\n      discount {\n        type\n        amount\n        value\n        currency\n        label\n      }\n      fee {\n        type\n        amount\n        min\n        max\n      }\n      category {\n        id\n        name\n      }\n      card {\n        ...CardFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CampaignPins($id: ID!, $status: PinStatus!, $first: Int, $after: String) {\n    campaign(id: $id) {\n      id\n      pins(status: $status, first: $first, after: $after) {\n        totalCount\n        nodes {\n          code\n          status\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query CampaignPins($id: ID!, $status: PinStatus!, $first: Int, $after: String) {\n    campaign(id: $id) {\n      id\n      pins(status: $status, first: $first, after: $after) {\n        totalCount\n        nodes {\n          code\n          status\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Categories {\n    categories {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query Categories {\n    categories {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartCampaign($id: ID!) {\n    startCampaign(id: $id) {\n      campaign {\n        id\n        ymCampaignId\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation StartCampaign($id: ID!) {\n    startCampaign(id: $id) {\n      campaign {\n        id\n        ymCampaignId\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StopCampaign($id: ID!) {\n    stopCampaign(id: $id) {\n      campaign {\n        id\n        ymCampaignId\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation StopCampaign($id: ID!) {\n    stopCampaign(id: $id) {\n      campaign {\n        id\n        ymCampaignId\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription CampaignChanged($ids: [ID!]) {\n    campaignChanged(ids: $ids) {\n      campaign {\n        id\n        status\n      }\n      previousStatus\n      status\n      at\n    }\n  }\n"): (typeof documents)["\n  subscription CampaignChanged($ids: [ID!]) {\n    campaignChanged(ids: $ids) {\n      campaign {\n        id\n        status\n      }\n      previousStatus\n      status\n      at\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;