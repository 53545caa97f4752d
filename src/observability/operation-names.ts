/**
 * Operation names the metrics count under their own label besides those of the trusted documents
 * (`TRUSTED_DOCUMENTS`): the operations documented in docs/operations/ and those of the client
 * kit's manifest (client/src/gql/persisted-documents.json). The image carries neither folder, so
 * they are listed here; test/unit/operation-names.test.ts keeps the list equal to them.
 */
export const DOCUMENTED_OPERATIONS: readonly string[] = [
  // docs/operations/
  'AddPins',
  'Campaign',
  'CampaignChanged',
  'CampaignFeed',
  'Campaigns',
  'CampaignsByIds',
  'Categories',
  'Category',
  'CreateCampaign',
  'Nodes',
  'OfferFeed',
  'ReportLead',
  'StartCampaign',
  'StopCampaign',
  'UpdateCampaign',
  // The client kit's manifest (Categories, StartCampaign, StopCampaign and CampaignChanged above too).
  'CampaignDetail',
  'CampaignList',
  'CampaignPins',
  'OfferCards',
];
