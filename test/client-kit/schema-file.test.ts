import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, printClientSchema } from '../../scripts/client-schema.js';

/**
 * client/schema.graphql, the schema the kit publishes for codegen without introspection, is the
 * executable schema as it is now: a change to schema/*.graphql without `npm run client:schema`
 * fails here.
 */
describe('the published SDL (client/schema.graphql)', () => {
  it('is the executable schema printed: run `npm run client:schema` when this fails', () => {
    const published = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
    // One assertion on the whole text; the first differing line, for a readable failure.
    const printed = printClientSchema();
    const at = published.split('\n').findIndex((line, i) => line !== printed.split('\n')[i]);
    expect(at === -1 ? undefined : { line: at + 1, published: published.split('\n')[at], printed: printed.split('\n')[at] }, 'client/schema.graphql is stale: run `npm run client:schema`').toBeUndefined();
    expect(published).toBe(printed);
  });
});
