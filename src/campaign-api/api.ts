import type { OperationName, RequestOf, ResponseOf } from './operations.js';

export interface CallOptions {
  /** Aborts the call (for example when the GraphQL request is cancelled or times out). */
  signal?: AbortSignal;
}

/**
 * One typed method per REST operation. The partner token is passed on every call and never
 * stored, so one client instance serves every partner.
 */
export type CampaignApi = {
  [N in OperationName]: (token: string, request: RequestOf<N>, options?: CallOptions) => Promise<ResponseOf<N>>;
};

/** What every call reports when it ends: the hook metrics and logs are written from. */
export interface CallReport {
  operation: OperationName;
  outcome:
    | 'success'
    | 'business-error'
    | 'unauthenticated'
    | 'refused'
    | 'timeout'
    | 'network'
    | 'http'
    | 'malformed'
    | 'contract'
    | 'circuit-open'
    | 'overloaded'
    | 'aborted';
  attempts: number;
  durationMs: number;
  /** The business error code, when outcome is business-error. */
  code?: string;
  /** What went wrong, when the call failed (its message never holds the partner token). */
  error?: Error;
}

export type CallListener = (report: CallReport) => void;
