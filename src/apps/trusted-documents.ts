import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Kind, parse, type DocumentNode, type OperationTypeNode } from 'graphql';

/**
 * Trusted documents: the operations an app was built with, known to the server by hash. The
 * manifest is what GraphQL Codegen's client preset writes with `persistedDocuments: true`
 * (`persisted-documents.json`): `{ "<sha256 hex>": "<document>" }`. A request names a document
 * by `documentId` (GraphQL over HTTP, `sha256:<hex>` or the bare hex) or by Apollo's
 * `extensions.persistedQuery.sha256Hash`.
 */
export interface TrustedDocument {
  hash: string;
  query: string;
  /** The type of its operation when it has exactly one (a GET may run only a query). */
  operation: OperationTypeNode | undefined;
  /** The name of its operation when it has exactly one (and that one is named). */
  operationName: string | undefined;
  document: DocumentNode;
}

export interface TrustedDocuments {
  size: number;
  /** The document of a hash (`sha256:` prefix optional, case-insensitive), or undefined. */
  byId(id: string): TrustedDocument | undefined;
  /** Whether this exact text is one of the documents (a client that sends the text itself). */
  byText(query: string): TrustedDocument | undefined;
}

const HEX = /^[0-9a-f]{64}$/;

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Normalises a document id: `sha256:<hex>` or `<hex>`, any case; undefined when it is neither. */
export function documentHash(id: string): string | undefined {
  const hex = (id.startsWith('sha256:') ? id.slice(7) : id).toLowerCase();
  return HEX.test(hex) ? hex : undefined;
}

/** Reads and checks a manifest; a problem names the file, the entry and what is wrong. */
export function loadTrustedDocuments(file: string | undefined, onMismatch?: (hash: string) => void): TrustedDocuments {
  const byHash = new Map<string, TrustedDocument>();
  if (file) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`TRUSTED_DOCUMENTS=${file}: cannot read it as JSON (${(error as Error).message.slice(0, 200)})`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new Error(`TRUSTED_DOCUMENTS=${file}: expected an object mapping sha256 hashes to documents`);
    }
    for (const [key, query] of Object.entries(json)) {
      const hash = documentHash(key);
      if (!hash) throw new Error(`TRUSTED_DOCUMENTS=${file}: key ${JSON.stringify(key.slice(0, 80))} is not a sha256 hash (64 hex digits)`);
      if (typeof query !== 'string') throw new Error(`TRUSTED_DOCUMENTS=${file}: the document of ${hash} is not a string`);
      let document: DocumentNode;
      try {
        document = parse(query);
      } catch (error) {
        throw new Error(`TRUSTED_DOCUMENTS=${file}: the document of ${hash} does not parse: ${(error as Error).message}`);
      }
      // Codegen hashes the text it stores; another tool may hash a normalised print. The key is
      // only a name for the text, so a mismatch is reported, not refused.
      if (sha256Hex(query) !== hash) onMismatch?.(hash);
      const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      const only = operations.length === 1 ? operations[0]! : undefined;
      byHash.set(hash, { hash, query, document, operation: only?.operation, operationName: only?.name?.value });
    }
  }
  const byQuery = new Map([...byHash.values()].map((d) => [d.query, d]));
  return {
    size: byHash.size,
    byId(id) {
      const hash = documentHash(id);
      return hash ? byHash.get(hash) : undefined;
    },
    byText: (query) => byQuery.get(query) ?? byHash.get(sha256Hex(query)),
  };
}
