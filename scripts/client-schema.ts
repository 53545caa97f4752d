import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createSchema } from '../src/server/schema.js';
import { printSnapshot } from './schema-compat.js';

/**
 * The schema as the client kit publishes it (client/schema.graphql): the executable schema
 * printed as SDL, so that a team generates its types from a file, without introspection (which
 * production turns off). `npm run client:schema` writes it; `--check` fails when it is stale, and
 * so does test/client-kit/schema-file.test.ts. It is printed as the release snapshot
 * (compat/schema.graphql) is, sorted, so the two differ exactly by the changes since the release;
 * at a release they are the same text.
 */
export const CLIENT_SCHEMA_FILE = fileURLToPath(new URL('../client/schema.graphql', import.meta.url));

const HEADER = '# The Campaign GraphQL API, printed from schema/*.graphql by `npm run client:schema`. Do not edit.\n\n';

export function printClientSchema(): string {
  return `${HEADER}${printSnapshot(createSchema())}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const printed = printClientSchema();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
    } catch {
      // Missing: stale all the same.
    }
    if (current !== printed) {
      process.stderr.write('client/schema.graphql is stale: run `npm run client:schema` and commit it.\n');
      process.exit(1);
    }
  } else {
    writeFileSync(CLIENT_SCHEMA_FILE, printed);
    process.stdout.write(`wrote ${CLIENT_SCHEMA_FILE}\n`);
  }
}
