/**
 * The values the `outcome` label of `bff_graphql_requests_total` and
 * `bff_graphql_request_duration_seconds` takes: `ok`, `partial` (data with errors), one of the
 * error codes below (the first error's, when a request has no data), or `other` for a code not
 * listed, so a code nobody planned for cannot grow the label set without bound.
 *
 * The error ratio (deploy/prometheus/recording.yml, docs/observability.md) counts the server's
 * codes and `other`: failures of this service or of what it depends on, which a client cannot
 * cause by asking. The client's codes are its own mistakes or refusals the service meant to
 * make; they are counted, never alerted on as errors.
 */

/** The service failed the request: counted as errors. */
export const SERVER_ERROR_CODES = [
  'INTERNAL_SERVER_ERROR',
  'BACKEND_UNAVAILABLE',
  'BACKEND_BAD_RESPONSE',
  /** The backend refused a read it should have answered (an error envelope where data was due). */
  'BACKEND_REJECTED',
  'REQUEST_TIMEOUT',
  'SHUTTING_DOWN',
  /** An app key whose partner tokens the service was configured with are refused. */
  'APP_KEY_MISCONFIGURED',
] as const;

/** The client's request was refused or failed for what it asked: not errors of the service. */
export const CLIENT_ERROR_CODES = [
  'BAD_REQUEST',
  'BAD_USER_INPUT',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'TRUSTED_DOCUMENT_REQUIRED',
  'QUERY_LIMIT_EXCEEDED',
  'SUBSCRIPTION_LIMIT_EXCEEDED',
  'UNAUTHENTICATED',
  /** The campaign API refused this request (a 4xx without a code): a header or body too large, too many requests. */
  'BACKEND_REFUSED',
  'FORBIDDEN',
  'RATE_LIMITED',
  'CAMPAIGN_NOT_FOUND',
  /** The client went away, or cancelled, before the answer. */
  'REQUEST_CANCELLED',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
] as const;

const CODES: ReadonlySet<string> = new Set<string>([...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES]);

/** The `outcome` label of an error code: the code itself when listed, else `other`. */
export function outcomeLabel(code: string): string {
  return CODES.has(code) ? code : 'other';
}
