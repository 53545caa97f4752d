/**
 * The client kit for the Campaign GraphQL API, for Apollo Client 4: its link (HTTP and
 * WebSocket, documents by manifest hash), its cache policies and list updates, and the custom
 * scalars' types. The kit's typed documents are under `./documents`, its codegen settings under
 * `./codegen`, the schema as SDL at `./schema.graphql` and the manifest at
 * `./persisted-documents.json`.
 */
export { createLink, documentHashOf, documentTextOf, persistedDocumentsLink, type KitLink, type LinkOptions } from './link.js';
export { keepCampaignLists, placeCampaign, type CampaignInResult } from './list-updates.js';
export { scalars } from './scalars.js';
export { VALUE_TYPES, connectionPagination, createCache, typePolicies, type ConnectionOptions } from './type-policies.js';
