import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import {
  Kind,
  Source,
  TypeInfo,
  buildSchema,
  getNamedType,
  isInputObjectType,
  isLeafType,
  lexicographicSortSchema,
  parse,
  printSchema,
  typeFromAST,
  validate,
  visit,
  visitWithTypeInfo,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { parse as parseYaml } from 'yaml';

/**
 * The schema's compatibility check. `compat/schema.graphql` is the schema as last released
 * (printed SDL, sorted); every change since is compared with it by GraphQL Inspector. A change
 * Inspector calls breaking fails the check unless `compat/accepted-changes.json` lists it (its
 * type and path, why, and how clients migrate, as CHANGELOG.md tells them). Every operation
 * clients are known to send is validated against the current schema, and each breaking change
 * names the operations that use what it changes.
 *
 *   npm run schema:check                 the report; exit code 1 on a problem (npm test runs the same check)
 *   npm run schema:check -- --release    at a release: the current schema becomes the snapshot,
 *                                        and the accepted changes are cleared
 */

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SNAPSHOT = join(ROOT, 'compat/schema.graphql');
export const ACCEPTED = join(ROOT, 'compat/accepted-changes.json');

/** A breaking change a release accepts, as CHANGELOG.md describes it to clients. */
export interface AcceptedChange {
  /** Inspector's change type, such as `FIELD_REMOVED`. */
  type: string;
  /** Inspector's path of the change, such as `Campaign.startsAt`. */
  path: string;
  why: string;
  migration: string;
}

/** An operation a client is known to send, and where it is written. */
export interface KnownOperation {
  name: string;
  source: string;
  document: DocumentNode;
}

export interface CompatReport {
  /** Breaking changes against the snapshot that are not accepted, with the operations they break. */
  unaccepted: { change: Change; operations: string[] }[];
  /** Accepted changes that no longer happen (the list must say what is true). */
  stale: AcceptedChange[];
  /** Known operations the current schema does not validate, with GraphQL's reasons. */
  invalid: { operation: string; errors: string[] }[];
}

/** The snapshot's first line: the release it is the schema of, which is package.json's version at that release. */
export const snapshotHeader = (version: string) => `# The schema of release ${version}, as released (npm run schema:check -- --release writes it). Do not edit.`;

/** The release a snapshot's first line names. */
export const snapshotRelease = (text: string): string | undefined => /^# The schema of release (\S+), as released/.exec(text)?.[1];

/** The schema as SDL the way the snapshot is written: sorted, so the diff shows changes only. */
export function printSnapshot(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

// -----------------------------------------------------------------------------------------------
// Known operations

function graphqlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => join(dir, file));
}

/** Each operation of a document on its own, with the fragments it spreads (and they spread). */
function operationsOf(text: string, source: string): KnownOperation[] {
  const document = parse(new Source(text, source));
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const spreads = (node: DefinitionNode): string[] => {
    const names: string[] = [];
    visit(node, { FragmentSpread: (spread) => void names.push(spread.name.value) });
    return names;
  };
  return document.definitions.flatMap((d) => {
    if (d.kind !== Kind.OPERATION_DEFINITION) return [];
    const needed = new Set<string>();
    const queue = spreads(d);
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const fragment = fragments.get(name);
      if (!fragment || needed.has(name)) continue;
      needed.add(name);
      queue.push(...spreads(fragment));
    }
    const definitions = [d, ...[...needed].map((name) => fragments.get(name)!)];
    return [{ name: d.name?.value ?? '(anonymous)', source, document: { kind: Kind.DOCUMENT, definitions } }];
  });
}

/** The operations of a trusted-documents manifest (hash → document, as the client preset writes it). */
function manifestOperations(manifest: Record<string, string>, source: string): KnownOperation[] {
  return Object.entries(manifest).flatMap(([hash, text]) => operationsOf(text, `${source} ${hash.slice(0, 15)}…`));
}

/** ```graphql blocks of a Markdown guide: what readers copy into their apps. */
function markdownOperations(file: string): KnownOperation[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].flatMap((m) => operationsOf(m[1]!, relative(ROOT, file)));
}

/**
 * Every operation clients are known to send: the client kit's manifest (the kit's documents and
 * its browser example), the manifest deployed as trusted documents, docs/operations/, and the
 * GraphQL examples of the guides.
 */
export function knownOperations(root = ROOT): KnownOperation[] {
  const kit = JSON.parse(readFileSync(join(root, 'client/src/gql/persisted-documents.json'), 'utf8')) as Record<string, string>;
  const deployed = readYaml(join(root, 'deploy/kubernetes/base/trusted-documents.yaml'));
  const docs = graphqlFiles(join(root, 'docs/operations')).flatMap((file) => operationsOf(readFileSync(file, 'utf8'), relative(root, file)));
  const guides = ['README.md', 'client/README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  return [
    ...manifestOperations(kit, 'client/src/gql/persisted-documents.json'),
    ...manifestOperations(deployed, 'deploy/kubernetes/base/trusted-documents.yaml'),
    ...docs,
    ...guides.flatMap((file) => markdownOperations(join(root, file))),
  ];
}

function readYaml(file: string): Record<string, string> {
  const configMap = parseYaml(readFileSync(file, 'utf8')) as { data: Record<string, string> };
  return JSON.parse(configMap.data['persisted-documents.json']!) as Record<string, string>;
}

// -----------------------------------------------------------------------------------------------
// What an operation uses

/** Input types reachable from `type`, for variables whose values are not in the document. */
function inputTypesFrom(type: GraphQLNamedType, into: Set<string>): void {
  if (into.has(type.name)) return;
  into.add(type.name);
  if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) inputTypesFrom(getNamedType(field.type), into);
}

/**
 * The schema coordinates an operation uses, as Inspector writes paths: every field it selects
 * (`Campaign.status`) with the enum or scalar it returns, every argument it passes (`Query.campaign.id`),
 * every enum value written in it, and every type its variables can carry.
 */
export function coordinatesOf(schema: GraphQLSchema, document: DocumentNode): Set<string> {
  const used = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (!parent || !field) return;
        used.add(`${parent.name}.${field.name}`);
        // What a leaf can hold (an enum's values) is used too; an object's fields only as selected.
        const named = getNamedType(field.type);
        if (isLeafType(named)) used.add(named.name);
      },
      Argument(node) {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (parent && field) used.add(`${parent.name}.${field.name}.${node.name.value}`);
      },
      EnumValue(node) {
        const type = typeInfo.getInputType();
        if (type) used.add(`${getNamedType(type).name}.${node.value}`);
      },
      VariableDefinition(node) {
        const type = typeFromAST(schema, node.type as never);
        if (type) inputTypesFrom(getNamedType(type), used);
      },
    }),
  );
  return used;
}

/** Whether a change at `path` touches something an operation uses. */
function touches(path: string, used: ReadonlySet<string>): boolean {
  for (const coordinate of used) {
    if (path === coordinate || path.startsWith(`${coordinate}.`) || coordinate.startsWith(`${path}.`)) return true;
  }
  return false;
}

// -----------------------------------------------------------------------------------------------
// The check

const key = (change: { type: string; path?: string | undefined }) => `${change.type} ${change.path ?? ''}`;

export async function checkCompat(options: {
  snapshot: string;
  current: GraphQLSchema;
  accepted: readonly AcceptedChange[];
  operations: readonly KnownOperation[];
}): Promise<CompatReport> {
  const { current, accepted, operations } = options;
  const released = buildSchema(options.snapshot);
  const changes = await diff(released, current);
  const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
  const acceptedKeys = new Set(accepted.map(key));
  const breakingKeys = new Set(breaking.map(key));

  // An operation is judged against the release it was written for: what it uses there.
  const uses = operations.map((op) => ({ op, used: coordinatesOf(released, op.document) }));
  const unaccepted = breaking
    .filter((change) => !acceptedKeys.has(key(change)))
    .map((change) => ({ change, operations: uses.filter(({ used }) => touches(change.path ?? '', used)).map(({ op }) => `${op.name} (${op.source})`) }));

  // Each operation with its own fragments, as the server validates it.
  const invalid = operations
    .map((op) => ({ operation: `${op.name} (${op.source})`, errors: validate(current, op.document).map((e) => e.message) }))
    .filter(({ errors }) => errors.length > 0);

  return { unaccepted, stale: accepted.filter((a) => !breakingKeys.has(key(a))), invalid };
}

export function readAccepted(file = ACCEPTED): AcceptedChange[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { changes: AcceptedChange[] }).changes;
}

/** The report as a maintainer reads it: each problem with what to do about it. */
export function describe(report: CompatReport): string[] {
  return [
    ...report.unaccepted.map(
      ({ change, operations }) =>
        `breaking: ${change.type} ${change.path ?? ''}: ${change.message}. It would break ${operations.length ? operations.join(', ') : 'no operation clients are known to send'}; list it in compat/accepted-changes.json and in CHANGELOG.md with the way to migrate, or make the change compatible.`,
    ),
    ...report.stale.map((a) => `accepted but not made: ${a.type} ${a.path}; remove it from compat/accepted-changes.json.`),
    ...report.invalid.map(({ operation, errors }) => `invalid operation ${operation}: ${errors.join(' ')}`),
  ];
}

async function main(args: string[]): Promise<number> {
  const { createSchema } = await import('../src/server/schema.js');
  const current = createSchema();
  if (args.includes('--release')) {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    writeFileSync(SNAPSHOT, `${snapshotHeader(version)}\n${printSnapshot(current)}`);
    writeFileSync(ACCEPTED, `${JSON.stringify({ changes: [] }, null, 2)}\n`);
    console.log(`wrote ${relative(ROOT, SNAPSHOT)} and cleared ${relative(ROOT, ACCEPTED)}`);
    return 0;
  }
  const report = await checkCompat({ snapshot: readFileSync(SNAPSHOT, 'utf8'), current, accepted: readAccepted(), operations: knownOperations() });
  const problems = describe(report);
  for (const line of problems) console.error(line);
  if (!problems.length) console.log('schema: no unaccepted breaking change; every known operation is valid');
  return problems.length ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}
