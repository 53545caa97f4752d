import type { CodegenConfig } from '@graphql-codegen/cli';
import { config, documentTransforms, presetConfig } from './src/codegen.js';

/**
 * The front end's codegen: GraphQL Code Generator's client preset over this repository's schema
 * and the kit's documents (client/src/documents.ts). Run from the repository root:
 * `npm run client:codegen`. It writes typed documents to client/src/gql/ and the trusted-documents
 * manifest (client/src/gql/persisted-documents.json) for the server. The settings are the kit's
 * own (src/codegen.ts), which a team's codegen imports from the package as they are.
 */
const codegen: CodegenConfig = {
  schema: 'schema/*.graphql',
  documents: ['client/src/**/*.ts', '!client/src/gql/**'],
  ignoreNoDocuments: false,
  generates: {
    'client/src/gql/': {
      preset: 'client',
      presetConfig,
      documentTransforms,
      config,
    },
  },
};

export default codegen;
