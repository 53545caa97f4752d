import type { CallReport } from './api.js';
import type { BusinessErrorCode, CampaignStatus, UnknownEnumValue } from './enums.js';
import type { OperationName } from './operations.js';
import { framesAgain, noFrames } from '../errors/stackless.js';

/**
 * Everything the client throws. Messages name the operation and what went wrong, never the
 * partner token or the request body.
 *
 * Made without a stack (errors/stackless.ts): each is the outcome of one backend call (an answer
 * read, a timer, a socket's error, kept as `cause`), made by the call's own state machine, so its
 * frames would name that machine and never the code that asked.
 */
export abstract class CampaignApiError extends Error {
  abstract readonly kind: string;
  constructor(
    readonly operation: OperationName,
    message: string,
    options?: { cause?: unknown },
  ) {
    const frames = noFrames();
    super(`${operation}: ${message}`, options);
    framesAgain(frames);
    this.name = new.target.name;
  }
}

export interface BusinessErrorField {
  field: string;
  message: string;
}

/** The backend refused the request with one of its business error codes. */
export class BusinessError extends CampaignApiError {
  readonly kind = 'business';
  constructor(
    operation: OperationName,
    readonly code: BusinessErrorCode | (string & {}),
    readonly detail: string,
    readonly fields: BusinessErrorField[] = [],
    /** For start and stop failures: the campaign's status as the backend reported it. */
    readonly current?: { ymCampaignId: number; campaignStatus: CampaignStatus | UnknownEnumValue },
    readonly httpStatus?: number,
  ) {
    super(operation, `${code}: ${detail}`);
  }
}

/**
 * 401: no token, or one the backend does not know. `httpStatus` is undefined when the token
 * could not even be sent (not a valid header value), so no call was made.
 */
export class UnauthenticatedError extends CampaignApiError {
  readonly kind = 'unauthenticated';
  constructor(operation: OperationName, readonly httpStatus: number | undefined, detail?: string) {
    super(operation, detail ?? `the backend refused the partner token (HTTP ${httpStatus})`);
  }
}

/** The backend did not answer within the per-attempt timeout or the call's total budget. */
export class TimeoutError extends CampaignApiError {
  readonly kind = 'timeout';
  constructor(operation: OperationName, readonly timeoutMs: number, readonly what: 'attempt' | 'budget') {
    super(operation, what === 'attempt' ? `no answer within the attempt timeout of ${timeoutMs} ms` : `no answer within the call budget of ${timeoutMs} ms`);
  }
}

/** The connection failed: refused, reset, DNS. `beforeSend` tells whether the request left. */
export class NetworkError extends CampaignApiError {
  readonly kind = 'network';
  constructor(operation: OperationName, readonly errorCode: string, readonly beforeSend: boolean, options?: { cause?: unknown }) {
    super(operation, `network error ${errorCode}${beforeSend ? ' before the request was sent' : ''}`, options);
  }
}

/** A 5xx without a usable error envelope (a server's or a gateway's page): the backend failed. */
export class HttpStatusError extends CampaignApiError {
  readonly kind = 'http';
  constructor(operation: OperationName, readonly httpStatus: number) {
    super(operation, `unexpected HTTP status ${httpStatus}`);
  }
}

/**
 * A 4xx without a usable error envelope: the backend, or a proxy in front of it, refused this
 * request (a header or body too large, too many requests) without a code. The backend is up and
 * the request is the problem: an answer for its caller alone, never an outage.
 */
export class RequestRefusedError extends CampaignApiError {
  readonly kind = 'refused';
  constructor(operation: OperationName, readonly httpStatus: number) {
    super(operation, `the backend refused the request with HTTP ${httpStatus} and no error code`);
  }
}

/** A body that is not JSON, or JSON that is neither a success nor an error envelope. */
export class MalformedResponseError extends CampaignApiError {
  readonly kind = 'malformed';
  constructor(operation: OperationName, detail: string, readonly httpStatus: number) {
    super(operation, `malformed response (HTTP ${httpStatus}): ${detail}`);
  }
}

/** A success envelope whose payload breaks the contract; `path` points at the first bad value. */
export class ContractError extends CampaignApiError {
  readonly kind = 'contract';
  constructor(operation: OperationName, readonly path: string, readonly detail: string) {
    super(operation, `response breaks the contract at ${path || '(payload)'}: ${detail}`);
  }
}

/** The circuit breaker is open: the backend failed recently, so the call was not made. */
export class CircuitOpenError extends CampaignApiError {
  readonly kind = 'circuit-open';
  constructor(operation: OperationName) {
    super(operation, 'the backend failed repeatedly; calls are paused until a probe succeeds');
  }
}

/** Too many calls in flight and the queue is full. */
export class OverloadedError extends CampaignApiError {
  readonly kind = 'overloaded';
  constructor(operation: OperationName, limit: number, queue: number) {
    super(operation, `more than ${limit} concurrent backend calls and ${queue} queued`);
  }
}

/** The caller's AbortSignal fired, or the client was closed, before the call ended. */
export class AbortedError extends CampaignApiError {
  readonly kind = 'aborted';
  constructor(operation: OperationName, readonly by: 'caller' | 'client-closed', options?: { cause?: unknown }) {
    super(operation, by === 'caller' ? 'the call was aborted by its caller' : 'the client was closed', options);
  }
}

/**
 * The backend answered and said no to this request: a business error, a refused token, or a 4xx
 * without a code. The caller's problem, never a sign of the backend's health.
 */
export function isRefusal(error: unknown): boolean {
  return error instanceof BusinessError || error instanceof UnauthenticatedError || error instanceof RequestRefusedError;
}

/** A transport failure: the backend is unreachable, slow, or paused by the breaker. */
export function isUnavailable(error: unknown): boolean {
  return (
    error instanceof TimeoutError ||
    error instanceof NetworkError ||
    error instanceof HttpStatusError ||
    error instanceof CircuitOpenError ||
    error instanceof OverloadedError
  );
}

/** The backend answered, but with something this contract cannot use. */
export function isBadResponse(error: unknown): boolean {
  return error instanceof MalformedResponseError || error instanceof ContractError;
}

/** The outcome a call reports when it ends with an error of each kind. */
export const OUTCOME_BY_KIND: Readonly<Record<CampaignApiError['kind'], CallReport['outcome']>> = {
  business: 'business-error',
  unauthenticated: 'unauthenticated',
  timeout: 'timeout',
  network: 'network',
  http: 'http',
  malformed: 'malformed',
  contract: 'contract',
  refused: 'refused',
  'circuit-open': 'circuit-open',
  overloaded: 'overloaded',
  aborted: 'aborted',
};
