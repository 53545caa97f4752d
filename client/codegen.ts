import type { CodegenConfig } from '@graphql-codegen/cli';
import { addTypenameSelectionDocumentTransform } from '@graphql-codegen/client-preset';

/**
 * The front end's codegen: GraphQL Code Generator's client preset over this repository's schema
 * and the kit's documents (client/src/documents.ts). Run from the repository root:
 * `npm run client:codegen`. It writes typed documents to client/src/gql/ and the trusted-documents
 * manifest (client/src/gql/persisted-documents.json) for the server.
 */
const config: CodegenConfig = {
  schema: 'schema/*.graphql',
  documents: ['client/src/**/*.ts', '!client/src/gql/**'],
  ignoreNoDocuments: false,
  generates: {
    'client/src/gql/': {
      preset: 'client',
      presetConfig: {
        // Plain result types: the example draws with the DOM, no component tree to mask for.
        fragmentMasking: false,
        // Each document carries its hash (`sha256:<hex>`), and the manifest maps hash → text.
        persistedDocuments: true,
      },
      // Apollo's normalized cache needs `__typename` on every object. Apollo Client adds it to
      // what it sends, but a trusted document runs as the manifest has it: so the manifest has it.
      documentTransforms: [addTypenameSelectionDocumentTransform],
      config: {
        useTypeImports: true,
        // Every custom scalar but SafeInt arrives as a JSON string, SafeInt as a JSON number
        // (docs/scalars.md); without this codegen types them `any`/`unknown`.
        strictScalars: true,
        scalars: {
          DateTime: 'string',
          HexColorCode: 'string',
          URL: 'string',
          Decimal: 'string',
          SafeInt: 'number',
        },
        enumsAsTypes: true,
        // ESM with NodeNext resolution: relative imports need their extension.
        emitLegacyCommonJSImports: false,
      },
    },
  },
};

export default config;
