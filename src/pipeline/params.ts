import { readJson } from '../http/json.js';
import { refusal } from './rules.js';
import type { Refusal } from './types.js';

/**
 * A GraphQL request's parameters, however its transport carried them: the JSON body of a POST, the
 * search parameters of a GET, a WebSocket `subscribe` payload, an SSE body. A document is named by
 * its text (`query`), by GraphQL over HTTP's `documentId` (a trusted document), or by an automatic
 * persisted query's `extensions.persistedQuery.sha256Hash`.
 */
export interface GraphQLParams {
  readonly query: string | undefined;
  readonly documentId: string | undefined;
  readonly persisted: { readonly version: unknown; readonly sha256Hash: string } | undefined;
  readonly operationName: string | undefined;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function badRequest(message: string, status = 400, headers?: Record<string, string>): Refusal {
  return refusal(status, message, 'BAD_REQUEST', { headers });
}

function persistedOf(extensions: unknown): GraphQLParams['persisted'] | Refusal {
  if (extensions === undefined || extensions === null) return undefined;
  if (!isObject(extensions)) return badRequest('"extensions" must be an object.');
  const persisted = extensions.persistedQuery;
  if (persisted === undefined || persisted === null) return undefined;
  if (!isObject(persisted) || typeof persisted.sha256Hash !== 'string') {
    return badRequest('"extensions.persistedQuery" must be an object with a "sha256Hash" string.');
  }
  return { version: persisted.version, sha256Hash: persisted.sha256Hash };
}

/** The parameters of a decoded JSON body or message; a refusal names what is wrong. */
export function paramsOf(body: unknown): GraphQLParams | Refusal {
  if (Array.isArray(body)) return badRequest('Operation batching is not supported: send one operation per request.');
  if (!isObject(body)) return badRequest('The request must be a JSON object with a "query" (or a "documentId").');
  const { query, documentId, operationName, variables } = body;
  if (query !== undefined && query !== null && typeof query !== 'string') return badRequest('"query" must be a string.');
  if (documentId !== undefined && documentId !== null && typeof documentId !== 'string') return badRequest('"documentId" must be a string.');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return badRequest('"operationName" must be a string.');
  if (variables !== undefined && variables !== null && !isObject(variables)) return badRequest('"variables" must be an object.');
  const persisted = persistedOf(body.extensions);
  if (persisted && 'errors' in persisted) return persisted;
  return {
    // An empty query is none: clients naming a document by id send `"query": ""` where a protocol wants one.
    query: typeof query === 'string' && query.length > 0 ? query : undefined,
    documentId: documentId ?? undefined,
    persisted,
    operationName: operationName || undefined,
    variables: variables ?? undefined,
  };
}

/** A search parameter read as JSON (within the bounds of shape every client's JSON has); a string is why it was refused. */
function jsonParameter(search: URLSearchParams, name: string): { value: unknown } | string {
  const text = search.get(name);
  if (text === null || text === '') return { value: undefined };
  const read = readJson(text, `The "${name}" parameter`);
  return read.ok ? { value: read.value } : read.message;
}

/** The parameters of a GET's search (`query`, `documentId`, `operationName`, and `variables`, `extensions` as JSON). */
export function paramsOfSearch(search: URLSearchParams): GraphQLParams | Refusal {
  const variables = jsonParameter(search, 'variables');
  if (typeof variables === 'string') return badRequest(variables);
  const extensions = jsonParameter(search, 'extensions');
  if (typeof extensions === 'string') return badRequest(extensions);
  return paramsOf({
    query: search.get('query') ?? undefined,
    documentId: search.get('documentId') ?? undefined,
    operationName: search.get('operationName') ?? undefined,
    variables: variables.value,
    extensions: extensions.value,
  });
}
