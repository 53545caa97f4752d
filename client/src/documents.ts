import { graphql } from './gql/index.js';

/**
 * The kit's documents. Each is what one screen asks for; the client preset types them and lists
 * them in the trusted-documents manifest.
 */

/** What a card draws. Shared by the feed and the campaign page, so both read one cached card. */
export const CardFields = graphql(`
  fragment CardFields on CampaignCard {
    title
    description
    discountLabel
    logoPngUrl
    logoSvgUrl
    backgroundColor
    fontColor
    backgroundImageUrl
    actionUrl
  }
`);

/**
 * The card feed a mobile app draws: `offerFeed`, the running campaigns of the partners an app key
 * reads for (or of the calling partner, with a partner token), newest first, with the feed's
 * category tabs. Read through the alias `feed`; the kit's cache pages `offerFeed` with
 * `connectionPagination()` (one list per `categoryId`/`platform`/`locale`).
 */
export const OfferCards = graphql(`
  query OfferCards($first: Int, $after: String, $categoryId: ID, $platform: PlatformInput, $locale: String) {
    feed: offerFeed(first: $first, after: $after, categoryId: $categoryId, platform: $platform, locale: $locale) {
      totalCount
      categories {
        category {
          id
          name
        }
        offerCount
      }
      nodes {
        id
        card {
          ...CardFields
        }
        category {
          id
          name
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/**
 * A dashboard list: every campaign, a page at a time, with edges (cursor per row). `ymCampaignId`
 * is the list's order, which `keepCampaignLists` reads to place a campaign.
 */
export const CampaignList = graphql(`
  query CampaignList($first: Int, $after: String, $status: CampaignStatusInput) {
    campaigns(first: $first, after: $after, withStatus: $status) {
      totalCount
      edges {
        cursor
        node {
          id
          ymCampaignId
          status
          merchant {
            name
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** One campaign in full, for its page. */
export const CampaignDetail = graphql(`
  query CampaignDetail($id: ID!) {
    campaign(id: $id) {
      id
      partnerCampaignId
      status
      rawStatus
      type
      description
      conditions
      startsAt
      endsAt
      merchant {
        name
        domain
        logoPngUrl
      }
      discount {
        type
        amount
        value
        currency
        label
      }
      fee {
        type
        amount
        min
        max
      }
      category {
        id
        name
      }
      card {
        ...CardFields
      }
    }
  }
`);

/** The promo codes of one status, a page at a time. */
export const CampaignPins = graphql(`
  query CampaignPins($id: ID!, $status: PinStatus!, $first: Int, $after: String) {
    campaign(id: $id) {
      id
      pins(status: $status, first: $first, after: $after) {
        totalCount
        nodes {
          code
          status
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

export const Categories = graphql(`
  query Categories {
    categories {
      id
      name
    }
  }
`);

export const StartCampaign = graphql(`
  mutation StartCampaign($id: ID!) {
    startCampaign(id: $id) {
      campaign {
        id
        ymCampaignId
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

export const StopCampaign = graphql(`
  mutation StopCampaign($id: ID!) {
    stopCampaign(id: $id) {
      campaign {
        id
        ymCampaignId
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

/**
 * Live status: an event each time one of the partner's campaigns changes status, over WebSocket
 * (GraphQLWsLink) or SSE. `campaign { id status }` updates `Campaign:<id>` in the normalized
 * cache, so every screen showing the campaign redraws; it costs the server nothing per event.
 */
export const CampaignChanged = graphql(`
  subscription CampaignChanged($ids: [ID!]) {
    campaignChanged(ids: $ids) {
      campaign {
        id
        status
      }
      previousStatus
      status
      at
    }
  }
`);
