import { graphql } from 'relay-runtime';

/**
 * A Relay dashboard's documents, as a team writes them: the campaigns list and the offer feed as
 * pagination fragments (`@connection`, refetched through their generated queries), a campaign's
 * fields as a `@refetchable` fragment (refetched through `node(id:)`), and its pins as a
 * pagination fragment on `Campaign`. test/relay/relay.test.ts compiles them with relay-compiler
 * and runs what it generates against the server.
 */
export const dashboard = graphql`
  query DashboardQuery($count: Int!) {
    ...Dashboard_campaigns @arguments(count: $count)
    ...Dashboard_feed @arguments(count: $count)
  }
`;

export const campaigns = graphql`
  fragment Dashboard_campaigns on Query
  @refetchable(queryName: "DashboardCampaignsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 3 }, cursor: { type: "String" }) {
    campaigns(first: $count, after: $cursor) @connection(key: "Dashboard_campaigns") {
      totalCount
      edges {
        node {
          id
          ymCampaignId
          status
          merchant {
            name
          }
        }
      }
    }
  }
`;

export const feed = graphql`
  fragment Dashboard_feed on Query
  @refetchable(queryName: "DashboardFeedPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 3 }, cursor: { type: "String" }) {
    offerFeed(first: $count, after: $cursor) @connection(key: "Dashboard_offerFeed") {
      totalCount
      edges {
        node {
          id
          ymCampaignId
          card {
            title
          }
        }
      }
    }
  }
`;

export const campaign = graphql`
  fragment Dashboard_campaign on Campaign @refetchable(queryName: "DashboardCampaignRefetchQuery") {
    id
    status
    rawStatus
    merchant {
      name
      domain
    }
  }
`;

export const campaignQuery = graphql`
  query DashboardCampaignQuery($id: ID!) {
    campaign(id: $id) {
      ...Dashboard_campaign
      ...Dashboard_pins @arguments(count: 2)
    }
  }
`;

export const pins = graphql`
  fragment Dashboard_pins on Campaign
  @refetchable(queryName: "DashboardPinsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
    id
    pins(first: $count, after: $cursor, status: NEW_UNUSED) @connection(key: "Dashboard_pins") {
      totalCount
      edges {
        node {
          code
          status
        }
      }
    }
  }
`;
