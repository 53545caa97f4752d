import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  BusinessError,
  CircuitOpenError,
  ContractError,
  HttpStatusError,
  MalformedResponseError,
  NetworkError,
  OverloadedError,
  TimeoutError,
  UnauthenticatedError,
} from '../../src/campaign-api/index.js';
import { BadBackendValueError, formatError } from '../../src/graphql/errors.js';

/** What Apollo hands formatError: the formatted error, and the raw one wrapped as a resolver error. */
function format(error: Error, extensions: Record<string, unknown> = { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['Error: x', '    at y (/srv/z.ts:1:1)'] }) {
  const wrapped = new GraphQLError(error.message, { path: ['campaign'], originalError: error });
  const formatted: GraphQLFormattedError = { message: error.message, path: ['campaign'], locations: [{ line: 1, column: 3 }], extensions };
  return formatError(formatted, wrapped);
}

describe('formatError', () => {
  it.each([
    [new UnauthenticatedError('get', 401), 'UNAUTHENTICATED'],
    [new TimeoutError('get', 200, 'attempt'), 'BACKEND_UNAVAILABLE'],
    [new NetworkError('get', 'ECONNREFUSED', true), 'BACKEND_UNAVAILABLE'],
    [new HttpStatusError('get', 503), 'BACKEND_UNAVAILABLE'],
    [new CircuitOpenError('get'), 'BACKEND_UNAVAILABLE'],
    [new OverloadedError('get', 256, 1024), 'BACKEND_UNAVAILABLE'],
    [new MalformedResponseError('get', 'Unexpected token <', 200), 'BACKEND_BAD_RESPONSE'],
    [new ContractError('get', 'campaignStatus', 'expected string'), 'BACKEND_BAD_RESPONSE'],
    [new BadBackendValueError('URL', 'Invalid URL'), 'BACKEND_BAD_RESPONSE'],
    [new BusinessError('get', 'incorrectData', 'ymCampaignId is required'), 'BACKEND_REJECTED'],
    [new AbortedError('get', 'caller'), 'REQUEST_CANCELLED'],
  ])('%s → %s, with our own message and no internals', (error, code) => {
    const out = format(error);
    expect(out.extensions?.code).toBe(code);
    expect(out.path).toEqual(['campaign']);
    expect(out.locations).toEqual([{ line: 1, column: 3 }]);
    expect(out.message).not.toBe(error.message);
    expect(JSON.stringify(out)).not.toMatch(/stacktrace|Unexpected token|ymCampaignId is required|ECONNREFUSED|expected string/);
  });

  it('hides anything unexpected behind an opaque internal error', () => {
    const out = format(new TypeError("Cannot read properties of undefined (reading 'merchantName')"));
    expect(out).toEqual({ message: 'Internal server error.', path: ['campaign'], locations: [{ line: 1, column: 3 }], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  });

  it('keeps errors that carry their own code (validation, limits, arguments) without their stack', () => {
    const own = new GraphQLError('Argument "first" must be from 0 to 100, got 101', { extensions: { code: 'BAD_USER_INPUT', argument: 'first' } });
    const out = formatError({ message: own.message, extensions: { code: 'BAD_USER_INPUT', argument: 'first', stacktrace: ['x'] } }, own);
    expect(out).toEqual({ message: own.message, extensions: { code: 'BAD_USER_INPUT', argument: 'first' } });
  });
});
