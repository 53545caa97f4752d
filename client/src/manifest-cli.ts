#!/usr/bin/env node
/// <reference types="node" />
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `campaign-bff-manifest [--out FILE] MANIFEST...`: writes the trusted-documents manifest a
 * server runs (`TRUSTED_DOCUMENTS=FILE`): the kit's own documents, the documents already in FILE
 * when it exists, and those of each MANIFEST a team's codegen wrote: the client preset's
 * `persisted-documents.json` (`{ "sha256:<hex>": "<document>" }`) or Apollo's persisted-query
 * manifest (`apollo-persisted-query-manifest`, as Apollo iOS, Apollo Kotlin and
 * `@apollo/generate-persisted-query-manifest` write it). An id given two different documents
 * stops it, naming the id and the files; nothing is written then.
 */

const KIT_MANIFEST = new URL('../src/gql/persisted-documents.json', import.meta.url);
const DEFAULT_OUT = 'trusted-documents.json';

type Manifest = Map<string, { text: string; from: string }>;

function fail(message: string): never {
  process.stderr.write(`campaign-bff-manifest: ${message}\n`);
  process.exit(1);
}

/** The documents of one manifest file, by id (`sha256:<hex>`), whichever of the two formats it has. */
function read(file: string): [id: string, text: string][] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(`${file}: ${(error as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail(`${file}: not a manifest (a JSON object)`);
  const record = json as Record<string, unknown>;
  const entries: [string, unknown][] =
    record.format === 'apollo-persisted-query-manifest'
      ? (Array.isArray(record.operations) ? record.operations : []).map((op: { id?: unknown; body?: unknown }) => [String(op.id), op.body])
      : Object.entries(record);
  return entries.map(([id, text]) => {
    if (typeof text !== 'string' || text.length === 0) return fail(`${file}: the document of ${id} is not a string`);
    return [/^[0-9a-f]{64}$/.test(id) ? `sha256:${id}` : id, text];
  });
}

function add(manifest: Manifest, file: string): number {
  let added = 0;
  for (const [id, text] of read(file)) {
    const known = manifest.get(id);
    if (known && known.text !== text) fail(`${id} names two different documents, in ${known.from} and in ${file}`);
    if (!known) added++;
    manifest.set(id, { text, from: file });
  }
  return added;
}

const args = process.argv.slice(2);
let out = DEFAULT_OUT;
const inputs: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--out' || arg === '-o') out = args[++i] ?? fail('--out needs a file');
  else if (arg === '--help' || arg === '-h') {
    process.stdout.write('usage: campaign-bff-manifest [--out FILE] MANIFEST...\n');
    process.exit(0);
  } else inputs.push(arg);
}
if (inputs.length === 0) fail('name the manifest(s) your codegen wrote, such as src/gql/persisted-documents.json');

const manifest: Manifest = new Map();
const kit = add(manifest, fileURLToPath(KIT_MANIFEST));
const kept = existsSync(out) ? add(manifest, out) : 0;
const yours = inputs.reduce((count, file) => count + add(manifest, file), 0);
const sorted = Object.fromEntries([...manifest.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([id, { text }]) => [id, text]));
writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(
  `${relative(process.cwd(), out) || out}: ${manifest.size} documents (${kit} of the kit, ${kept} kept from the file, ${yours} new from ${inputs.join(', ')}).\n` +
    `Start the server with TRUSTED_DOCUMENTS=${out} (it reads the file when it starts: restart it after each change).\n`,
);
