import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import {
  BUSINESS_ERROR_CODES,
  BusinessError,
  CampaignApiError,
  HttpStatusError,
  UnauthenticatedError,
  isBadResponse,
  isUnavailable,
  quote,
  type OperationName,
} from '../campaign-api/index.js';
import { UserErrorCodeValues } from './enum-values.js';

/** `extensions.code` of the top-level errors this API raises itself. */
export const ErrorCode = {
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  BACKEND_UNAVAILABLE: 'BACKEND_UNAVAILABLE',
  BACKEND_BAD_RESPONSE: 'BACKEND_BAD_RESPONSE',
  /** The backend refused a read with a business error where none was expected. */
  BACKEND_REJECTED: 'BACKEND_REJECTED',
  /** A field argument out of its bounds (`first`, `after`, `ids`, `locale`). */
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  /** The request was cancelled (the client went away, or the request's time ran out). */
  REQUEST_CANCELLED: 'REQUEST_CANCELLED',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;

/**
 * A value the backend returned that an output scalar cannot represent (a colour that is not a
 * colour). Thrown from scalar serialisation, so the field fails as a bad backend answer rather
 * than as an internal error.
 */
export class BadBackendValueError extends Error {
  constructor(readonly scalar: string, detail: string) {
    super(`the campaign API returned a value the ${scalar} type cannot represent: ${detail}`);
    this.name = 'BadBackendValueError';
  }
}

export function missingTokenError(): GraphQLError {
  return new GraphQLError(
    'A partner token is required: send it as the Authorization header, "Bearer <token>".',
    { extensions: { code: ErrorCode.UNAUTHENTICATED } },
  );
}

/** A field argument outside its contract; the message names the argument and what came. */
export function badArgument(argument: string, message: string): GraphQLError {
  return new GraphQLError(`Argument "${argument}" ${message}`, {
    extensions: { code: ErrorCode.BAD_USER_INPUT, argument },
  });
}

/** What a GraphQL caller was doing when the backend call failed: its mutation, or the read. */
const DOING: Record<OperationName, string> = {
  create: 'createCampaign',
  update: 'updateCampaign',
  start: 'startCampaign',
  stop: 'stopCampaign',
  addPins: 'addPins',
  redeem: 'reportLead',
  get: 'a campaign read',
  info: 'a statistics read',
  getAllCampaigns: 'a campaign list read',
  getPinsByStatus: 'a pin list read',
  getCategories: 'a category read',
};

/** Why the campaign API counts as unavailable, in words (the `reason` extension keeps the kind). */
export function unavailableReason(error: CampaignApiError): string {
  switch (error.kind) {
    case 'timeout':
      return 'no answer in time';
    case 'network':
      return 'no connection';
    case 'http':
      return error instanceof HttpStatusError ? `HTTP ${error.httpStatus}` : 'an HTTP error';
    case 'circuit-open':
      return 'paused after repeated failures';
    case 'overloaded':
      return 'too many calls in flight';
    default:
      return error.kind;
  }
}

/** A backend error code as the UserErrorCode enum names it; a code it does not know, quoted. */
function codeName(code: string): string {
  if (!(BUSINESS_ERROR_CODES as readonly string[]).includes(code)) return quote(code);
  return Object.entries(UserErrorCodeValues).find(([, v]) => v === code)![0];
}

/**
 * What a client failure means to a GraphQL caller. Messages are our own, in the GraphQL API's
 * words (the mutation or what was being read, never the REST operation): backend texts and
 * internals (URLs, stack traces, tokens) never reach the response.
 */
function describe(error: unknown): { message: string; extensions: Record<string, unknown> } | undefined {
  if (error instanceof UnauthenticatedError) {
    return {
      message: 'The campaign API did not accept the partner token. Send a valid token as the Authorization header, "Bearer <token>".',
      extensions: { code: ErrorCode.UNAUTHENTICATED },
    };
  }
  if (error instanceof CampaignApiError && isUnavailable(error)) {
    return {
      message: `The campaign API is unavailable (${unavailableReason(error)}) for ${DOING[error.operation]}; try again shortly.`,
      extensions: { code: ErrorCode.BACKEND_UNAVAILABLE, reason: error.kind, operation: error.operation },
    };
  }
  if (error instanceof CampaignApiError && isBadResponse(error)) {
    return {
      message: `The campaign API answered ${DOING[error.operation]} with data this API cannot use.`,
      extensions: { code: ErrorCode.BACKEND_BAD_RESPONSE, reason: error.kind, operation: error.operation },
    };
  }
  if (error instanceof BadBackendValueError) {
    return {
      message: `The campaign API returned a value the ${error.scalar} type cannot represent.`,
      extensions: { code: ErrorCode.BACKEND_BAD_RESPONSE, reason: 'value' },
    };
  }
  if (error instanceof BusinessError) {
    return {
      message: `The campaign API refused ${DOING[error.operation]} with code ${codeName(error.code)}.`,
      extensions: { code: ErrorCode.BACKEND_REJECTED, backendCode: error.code, operation: error.operation },
    };
  }
  if (error instanceof CampaignApiError && error.kind === 'aborted') {
    return {
      message: 'The request was cancelled before the campaign API answered.',
      extensions: { code: ErrorCode.REQUEST_CANCELLED, operation: error.operation },
    };
  }
  return undefined;
}

/** The same mapping as `formatError`, for code that wants a GraphQLError at once. */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const known = describe(error);
  if (known) return new GraphQLError(known.message, { extensions: known.extensions, originalError: error as Error });
  return new GraphQLError('Internal server error.', { extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } });
}

/**
 * The error a resolver threw, out of graphql-js's located wrapper. Duck-typed rather than
 * `instanceof GraphQLError` (what Apollo's unwrapResolverError does), so it holds even when two
 * copies of graphql are loaded (CJS and ESM, as under a bundler or test runner).
 */
function unwrapResolverError(error: unknown): unknown {
  if (error instanceof Error && 'path' in error && error.path && 'originalError' in error && error.originalError) {
    return error.originalError;
  }
  return error;
}

function isDeliberate(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'GraphQLError' &&
    !(error as { originalError?: unknown }).originalError &&
    !(error as { path?: unknown }).path
  );
}

function withoutStacktrace(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!formatted.extensions || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _dropped, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}

/**
 * ApolloServer's `formatError`: campaign API failures get their stable code
 * (`UNAUTHENTICATED`, `BACKEND_UNAVAILABLE`, `BACKEND_BAD_RESPONSE`, ...), errors that already
 * carry a code (validation, limits, bad arguments) pass through, and anything else becomes an
 * opaque internal error. Stack traces never leave.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const known = describe(original);
  const position = {
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };
  if (known) return { message: known.message, ...position, extensions: known.extensions };
  const code = formatted.extensions?.code;
  // A request-level error raised on purpose (Apollo's "provided sha does not match query") wraps
  // no exception and sits on no field: its message is meant for the client.
  if (code === ErrorCode.INTERNAL_SERVER_ERROR && isDeliberate(error)) {
    return withoutStacktrace({ ...formatted, extensions: { ...formatted.extensions, code: 'BAD_REQUEST' } });
  }
  if (typeof code === 'string' && code !== ErrorCode.INTERNAL_SERVER_ERROR) return withoutStacktrace(formatted);
  return { message: 'Internal server error.', ...position, extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } };
}
