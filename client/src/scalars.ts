/**
 * How the API's custom scalars arrive in JSON, as TypeScript types for GraphQL Code Generator's
 * `scalars` option (with `strictScalars: true`): every one a string but `SafeInt`, a number
 * (docs/scalars.md). Without it codegen types them `any`/`unknown`.
 */
export const scalars = {
  DateTime: 'string',
  HexColorCode: 'string',
  URL: 'string',
  Decimal: 'string',
  SafeInt: 'number',
} as const;
