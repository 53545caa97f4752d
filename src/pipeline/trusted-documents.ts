import { readFileSync } from 'node:fs';
import { Kind, parse, type DocumentNode } from 'graphql';
import { quote } from '../text/received-value.js';
import { sha256Hex } from './documents.js';
import { refusal } from './rules.js';
import type { CallerKind, Policy, Refusal } from './types.js';

/**
 * Trusted documents: the operations an app was built with, known to the server by hash. The
 * manifest is what GraphQL Codegen's client preset writes with `persistedDocuments: true`
 * (`persisted-documents.json`): `{ "<sha256 hex>": "<document>" }`, or Apollo's persisted-query
 * manifest, which Apollo iOS, Apollo Kotlin and Apollo's generator for Apollo Client write:
 * `{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id", "name",
 * "type", "body" }] }`. A request names a document by `documentId` (GraphQL over HTTP,
 * `sha256:<hex>` or the bare hex) or by Apollo's `extensions.persistedQuery.sha256Hash`.
 */
export interface TrustedDocument {
  hash: string;
  /** The text, which the pipeline parses and judges as any other (its document cache keeps the tree). */
  query: string;
  /** The name of its operation when it has exactly one (and that one is named). */
  operationName: string | undefined;
}

export interface TrustedDocuments {
  size: number;
  /** The names of the documents' operations (each document's single named operation). */
  operationNames: ReadonlySet<string>;
  /** The document of a hash (`sha256:` prefix optional, case-insensitive), or undefined. */
  byId(id: string): TrustedDocument | undefined;
  /** Whether this exact text is one of the documents (a client that sends the text itself). */
  byText(query: string): TrustedDocument | undefined;
  /** The answer to an id the manifest does not hold. */
  notFound(id: string): Refusal;
}

const HEX = /^[0-9a-f]{64}$/;

/** Normalises a document id: `sha256:<hex>` or `<hex>`, any case; undefined when it is neither. */
export function documentHash(id: string): string | undefined {
  const hex = (id.startsWith('sha256:') ? id.slice(7) : id).toLowerCase();
  return HEX.test(hex) ? hex : undefined;
}

const APOLLO_FORMAT = 'apollo-persisted-query-manifest';

/** One entry of a manifest, whatever its format: where it is (for errors), its id and text, and what it says of its operation. */
interface ManifestEntry {
  where: string;
  /** How the entry's id is named when it is not a hash. */
  idLabel: string;
  id: unknown;
  body: unknown;
  name?: unknown;
  type?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entries of either manifest format; a file that is neither is refused, naming what was expected. */
function entriesOf(json: unknown, problem: (what: string) => Error): ManifestEntry[] {
  if (!isObject(json)) throw problem('expected an object mapping sha256 hashes to documents, or an Apollo persisted-query manifest');
  if (!('format' in json)) {
    return Object.entries(json).map(([key, body]) => ({ where: `key ${quote(key)}`, idLabel: `key ${JSON.stringify(key.slice(0, 80))}`, id: key, body }));
  }
  if (json.format !== APOLLO_FORMAT) throw problem(`"format" ${quote(String(json.format))} is not ${JSON.stringify(APOLLO_FORMAT)}`);
  if (json.version !== 1) {
    const version = typeof json.version === 'number' ? String(json.version) : quote(String(json.version));
    throw problem(`${APOLLO_FORMAT} version ${version} is not supported (version 1 is)`);
  }
  if (!Array.isArray(json.operations)) throw problem(`${APOLLO_FORMAT}: "operations" must be a list`);
  return json.operations.map((operation: unknown, i) => {
    const where = `operations[${i}]`;
    if (!isObject(operation)) throw problem(`${where} is not an object with "id", "name", "type" and "body"`);
    return { where, idLabel: `${where}.id ${quote(String(operation.id))}`, id: operation.id, body: operation.body, name: operation.name, type: operation.type };
  });
}

/** Reads and checks a manifest; a problem names the file, the entry and what is wrong. */
export function loadTrustedDocuments(file: string | undefined, onMismatch?: (hash: string) => void): TrustedDocuments {
  // bounded: the manifest's entries.
  const byHash = new Map<string, TrustedDocument>();
  // Entries named by the hash of another text than theirs (a normalised print): a client may send
  // that other text, found only by its digest. Any other text is one of the manifest's exactly or none.
  // bounded: the manifest's entries.
  const renamed = new Map<string, TrustedDocument>();
  if (file) {
    const problem = (what: string) => new Error(`TRUSTED_DOCUMENTS=${file}: ${what}`);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw problem(`cannot read it as JSON (${(error as Error).message.slice(0, 200)})`);
    }
    for (const { where, idLabel, id, body: query, name, type } of entriesOf(json, problem)) {
      const hash = typeof id === 'string' ? documentHash(id) : undefined;
      if (!hash) throw problem(`${idLabel} is not a sha256 hash (64 hex digits)`);
      if (typeof query !== 'string') throw problem(`the document of ${hash} is not a string`);
      let document: DocumentNode;
      try {
        document = parse(query);
      } catch (error) {
        throw problem(`the document of ${hash} does not parse: ${(error as Error).message}`);
      }
      // Codegen hashes the text it stores; another tool may hash a normalised print. The key is
      // only a name for the text, so a mismatch is reported, not refused.
      const renamedEntry = sha256Hex(query) !== hash;
      if (renamedEntry) onMismatch?.(hash);
      const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      const only = operations.length === 1 ? operations[0]! : undefined;
      // An Apollo manifest says what each operation is: an entry that says otherwise is corrupt.
      if ((name !== undefined && name !== only?.name?.value) || (type !== undefined && type !== only?.operation)) {
        throw problem(`${where} (${hash}) says ${quote(String(type))} ${quote(String(name))}, but its body holds ${only ? `${only.operation} ${only.name?.value ?? '(anonymous)'}` : `${operations.length} operations`}`);
      }
      const entry = { hash, query, operationName: only?.name?.value };
      byHash.set(hash, entry);
      if (renamedEntry) renamed.set(hash, entry);
      else renamed.delete(hash);
    }
  }
  const byQuery: ReadonlyMap<string, TrustedDocument> = new Map([...byHash.values()].map((d) => [d.query, d]));
  // A print may space a document out: twice the longest such entry bounds what is worth a digest.
  const longest = 2 * Math.max(0, ...[...renamed.values()].map((d) => d.query.length)) + 256;
  const operationNames: ReadonlySet<string> = new Set([...byHash.values()].flatMap((document) => (document.operationName ? [document.operationName] : [])));
  return {
    size: byHash.size,
    operationNames,
    byId(id) {
      const hash = documentHash(id);
      return hash ? byHash.get(hash) : undefined;
    },
    // A digest only where an entry is renamed, and only of a text no longer than such an entry's.
    byText: (query) => byQuery.get(query) ?? (renamed.size > 0 && query.length <= longest ? renamed.get(sha256Hex(query)) : undefined),
    notFound: (id) =>
      refusal(
        400,
        `No trusted document has the id ${quote(id)}: this server runs only the documents of its manifest (TRUSTED_DOCUMENTS, ${byHash.size} documents). Build the app with this manifest, or send a document it lists.`,
        'PERSISTED_QUERY_NOT_FOUND',
      ),
  };
}

/**
 * The rule of trusted documents: a caller held to the manifest (an app key in production; partner
 * tokens too with `TRUSTED_DOCUMENTS_ONLY`) runs only the manifest's documents, named by id or
 * sent as their exact text; anything else is refused before it is parsed, and never reaches the
 * persisted-query store.
 */
export function trustedDocumentsPolicy(documents: TrustedDocuments, heldToManifest: (kind: CallerKind) => boolean, onRefused?: () => void): Policy {
  const refuse = (refusal: Refusal): Refusal => {
    onRefused?.();
    return refusal;
  };
  return {
    name: 'trusted documents',
    source(named, { caller }) {
      if (named.byDocumentId && named.text === undefined) return refuse(documents.notFound(named.id!));
      if (!heldToManifest(caller.kind) || named.origin === 'manifest') return undefined;
      if (named.text === undefined && named.id !== undefined) return refuse(documents.notFound(named.id));
      const who = caller.kind === 'app' ? 'app keys' : 'partner tokens';
      return refuse(
        refusal(403, `This server runs only trusted documents for ${who}: send a documentId from its manifest (TRUSTED_DOCUMENTS) instead of a query text.`, 'TRUSTED_DOCUMENT_REQUIRED'),
      );
    },
  };
}
