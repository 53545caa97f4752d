import { addTypenameSelectionDocumentTransform } from '@graphql-codegen/client-preset';
import { scalars } from './scalars.js';

/**
 * What a team's GraphQL Code Generator config takes from the kit (build time only: import it
 * from `codegen.ts`, never from the app, which it would fill with codegen):
 *
 * - `scalars`, with `strictScalars: true`: the custom scalars typed as they arrive;
 * - `documentTransforms`: `__typename` on every selection in the generated documents and the
 *   manifest, as Apollo's normalized cache needs it (Apollo adds it to what it sends, but a
 *   trusted document runs exactly as the manifest has it);
 * - `presetConfig`: hashes in the documents and the trusted-documents manifest, which the kit's
 *   link sends (`persistedDocumentsLink`).
 */
export { scalars };

export const documentTransforms = [addTypenameSelectionDocumentTransform];

export const presetConfig = {
  // Plain result types: no component tree to mask for.
  fragmentMasking: false,
  // Each document carries its hash (`sha256:<hex>`), and the manifest maps hash → text.
  persistedDocuments: true,
} as const;

export const config = {
  useTypeImports: true,
  strictScalars: true,
  scalars,
  enumsAsTypes: true,
  // ESM with NodeNext resolution: relative imports need their extension.
  emitLegacyCommonJSImports: false,
} as const;
