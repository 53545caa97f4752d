// Mesh Compose's configuration for the bench's hive part (`npm run bench -- --only hive`): the
// campaign API as its OpenAPI document describes it, served by the emulator at EMULATOR_ORIGIN,
// composed into the supergraph Hive Gateway serves. JavaScript, not TypeScript: it imports
// packages that are only in bench/hive/node_modules, installed on first use, which the project's
// typecheck must not need.
import { defineConfig } from '@graphql-mesh/compose-cli';
import { loadOpenAPISubgraph } from '@omnigraph/openapi';
import { OperationTypeNode } from 'graphql';

const origin = process.env.EMULATOR_ORIGIN;
if (!origin) throw new Error('EMULATOR_ORIGIN must name the emulator, whose /openapi.json is the source');

// Every operation of the API is a POST; the reads are queries, as a GraphQL client expects them.
const READS = ['get', 'info', 'getAllCampaigns', 'getPinsByStatus', 'getCategories'];

export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph('Campaigns', {
        source: `${origin}/openapi.json`,
        endpoint: origin,
        // The partner's token, passed on per request as the BFF passes it.
        operationHeaders: { Authorization: '{context.headers.authorization}' },
        selectQueryOrMutationField: READS.map((fieldName) => ({ fieldName, type: OperationTypeNode.QUERY })),
      }),
    },
  ],
  // A list's campaigns with their details, Mesh's way: a field resolved by another operation.
  additionalTypeDefs: /* GraphQL */ `
    extend type query_getAllCampaigns_oneOf_0_campaigns_items {
      details: get_response
        @resolveTo(
          sourceName: "Campaigns"
          sourceTypeName: "Query"
          sourceFieldName: "get"
          requiredSelectionSet: "{ ymCampaignId }"
          sourceArgs: { input: { ymCampaignId: "{root.ymCampaignId}" } }
        )
    }
  `,
});
