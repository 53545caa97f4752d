import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';

/**
 * What the differential test sends: every documented operation (docs/operations, with the variables
 * it is documented with) and every document of the client kit (its trusted-documents manifest,
 * with variables a screen of the kit sends), and the changes made to their variables.
 */
export interface Documented {
  /** The file name (docs/operations) or the operation name (the kit). */
  name: string;
  query: string;
  variables: Record<string, unknown>;
  type: 'query' | 'mutation' | 'subscription';
  /** The variables the operation declares. */
  declared: readonly string[];
  /** The kit's documents have an id in the manifest: they can be sent by it instead of by text. */
  documentId?: string;
}

const DOCS = new URL('../../docs/operations/', import.meta.url);
/** The manifest the kit's codegen writes, which the BFFs under test load as TRUSTED_DOCUMENTS. */
export const KIT_MANIFEST = fileURLToPath(new URL('../../client/src/gql/persisted-documents.json', import.meta.url));

/** What a screen of the kit sends with each of its documents (client/src/documents.ts), on the demo data. */
const KIT_VARIABLES: Record<string, Record<string, unknown>> = {
  OfferCards: { first: 5, platform: 'MOBILE', locale: 'ru-RU' },
  CampaignList: { first: 5, status: 'STARTED' },
  CampaignDetail: { id: '1' },
  CampaignPins: { id: '1', first: 5, status: 'NEW_UNUSED' },
  Categories: {},
  StartCampaign: { id: '2' },
  StopCampaign: { id: '3' },
  CampaignChanged: { ids: ['1', '2'] },
};

function documented(name: string, query: string, variables: Record<string, unknown>, documentId?: string): Documented {
  const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return {
    name,
    query,
    variables,
    type: operation.operation,
    declared: (operation.variableDefinitions ?? []).map((d) => d.variable.name.value),
    ...(documentId ? { documentId } : {}),
  };
}

function fromDocs(dir: URL): Documented[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((file) => {
      const name = file.replace(/\.graphql$/, '');
      const variables = JSON.parse(readFileSync(new URL(`${name}.variables.json`, dir), 'utf8')) as Record<string, unknown>;
      return documented(name, readFileSync(new URL(file, dir), 'utf8'), variables);
    });
}

function fromKit(): Documented[] {
  const manifest = JSON.parse(readFileSync(KIT_MANIFEST, 'utf8')) as Record<string, string>;
  return Object.entries(manifest).map(([id, query]) => {
    const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const name = operation.name!.value;
    const variables = KIT_VARIABLES[name];
    if (!variables) throw new Error(`the kit's document ${name} has no variables in test/parity/support.ts: add what its screen sends`);
    return documented(name, query, variables, id);
  });
}

const ALL: readonly Documented[] = [...fromDocs(DOCS), ...fromDocs(new URL('subscriptions/', DOCS)), ...fromKit()];
export const QUERIES = ALL.filter((o) => o.type === 'query');
export const MUTATIONS = ALL.filter((o) => o.type === 'mutation');
export const SUBSCRIPTIONS = ALL.filter((o) => o.type === 'subscription');

/** Where in the variables a change applies: variable names, input fields and list indices. */
export type Path = readonly (string | number)[];

/** What is done to an operation's variables before they are sent. */
export type Change =
  | { readonly kind: 'as documented' }
  | { readonly kind: 'wrong type'; readonly at: Path; readonly value: unknown }
  | { readonly kind: 'huge string'; readonly at: Path; readonly size: number }
  | { readonly kind: 'null'; readonly at: Path }
  | { readonly kind: 'missing'; readonly at: Path }
  | { readonly kind: 'extra'; readonly at: Path; readonly name: string; readonly value: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every value in the variables (and every declared variable, sent or not), and every object. */
function pathsOf(operation: Documented): { values: Path[]; objects: Path[] } {
  const values: Path[] = operation.declared.map((name) => [name]);
  const objects: Path[] = [[]];
  const walk = (value: unknown, at: Path) => {
    if (Array.isArray(value)) value.forEach((item, i) => (values.push([...at, i]), walk(item, [...at, i])));
    else if (isObject(value)) {
      objects.push(at);
      for (const [key, field] of Object.entries(value)) {
        values.push([...at, key]);
        walk(field, [...at, key]);
      }
    }
  };
  for (const [name, value] of Object.entries(operation.variables)) walk(value, [name]);
  const unique = (paths: Path[]) => [...new Map(paths.map((p) => [JSON.stringify(p), p])).values()];
  return { values: unique(values), objects: unique(objects) };
}

/** Values of the wrong type for about anything: numbers, a boolean, objects, lists, strings. */
const WRONG = [42, -1, 1.5, 2 ** 53, true, 'text', '', {}, { id: '1' }, [], [[1]], ['a', 2]];

/**
 * The changes fast-check draws for an operation: its variables as sent by its documentation or
 * its screen (most often), or one value replaced with a value of the wrong type, a huge string or
 * null, one left out, or one more than the operation declares (an extra variable, or an extra
 * field of an input object).
 */
export function changes(operation: Documented, sizes: readonly number[]): fc.Arbitrary<Change> {
  const { values, objects } = pathsOf(operation);
  // An operation without variables can still be sent some.
  const at = values.length ? fc.constantFrom(...values) : undefined;
  const ofValues = at
    ? [
        fc.record({ kind: fc.constant('wrong type' as const), at, value: fc.constantFrom(...WRONG) }),
        fc.record({ kind: fc.constant('huge string' as const), at, size: fc.constantFrom(...sizes) }),
        fc.record({ kind: fc.constant('null' as const), at }),
        fc.record({ kind: fc.constant('missing' as const), at }),
      ]
    : [];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<Change>({ kind: 'as documented' }) },
    ...ofValues,
    fc.record({
      kind: fc.constant('extra' as const),
      at: fc.constantFrom(...objects),
      name: fc.constantFrom('extra', 'input', '__proto__', 'constructor', 'x'.repeat(200)),
      value: fc.constantFrom<unknown>(1, 'text', null, { polluted: true }),
    }),
  );
}

/** The variables an operation is sent with after a change (the given ones are left as they are). */
export function applyChange(variables: Record<string, unknown>, change: Change): Record<string, unknown> {
  if (change.kind === 'as documented') return variables;
  const copy = structuredClone(variables);
  const path = change.kind === 'extra' ? [...change.at, change.name] : change.at;
  let parent: any = copy;
  for (const key of path.slice(0, -1)) {
    if (parent[key] === null || typeof parent[key] !== 'object') return copy;
    parent = parent[key];
  }
  const last = path[path.length - 1]!;
  if (change.kind === 'missing') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    return copy;
  }
  const value = change.kind === 'wrong type' ? change.value : change.kind === 'huge string' ? 'x'.repeat(change.size) : change.kind === 'null' ? null : change.value;
  // An own property even for `__proto__`, as JSON.parse makes it on the server.
  Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** A request in a few hundred characters, for a failure's message. */
export function describe(what: unknown): string {
  return JSON.stringify(what, (_key, value: unknown) => (typeof value === 'string' && value.length > 120 ? `${value.slice(0, 60)}…(${value.length} characters)` : value));
}
