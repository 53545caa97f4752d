import {
  BUSINESS_ERROR_CODES,
  BusinessError,
  CampaignApiError,
  HttpStatusError,
  RequestRefusedError,
  UnauthenticatedError,
  isBadResponse,
  isUnavailable,
  type OperationName,
} from '../campaign-api/index.js';
import { quote } from '../text/received-value.js';
import { ErrorCode, type ErrorDescriber } from '../graphql/errors.js';
import { UserErrorCodeValues } from '../schema/enum-values.js';

/**
 * What the campaign API's failures mean to a GraphQL client, in the GraphQL API's words (the
 * mutation or what was being read, never the REST operation): backend texts and internals (URLs,
 * stack traces, tokens) never reach the response. Given to the engine's error formatter.
 */

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
export const describeCampaignApiError: ErrorDescriber = (error) => {
  if (error instanceof UnauthenticatedError) {
    return {
      message: 'The campaign API did not accept the partner token. Send a valid token as the Authorization header, "Bearer <token>".',
      extensions: { code: ErrorCode.UNAUTHENTICATED },
    };
  }
  if (error instanceof RequestRefusedError) {
    return {
      message: `The campaign API refused ${DOING[error.operation]} of this request with HTTP ${error.httpStatus} and no error code: what the request sent (such as an oversized Authorization header) or how often its caller asks. It was not tried again.`,
      extensions: { code: ErrorCode.BACKEND_REFUSED, httpStatus: error.httpStatus, operation: error.operation },
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
};
