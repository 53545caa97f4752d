import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { stackless } from '../../src/errors/stackless.js';
import { clientError, noTokenError } from '../../src/graphql/errors.js';
import { refusal } from '../../src/pipeline/rules.js';
import { BusinessError } from '../../src/campaign-api/index.js';

const FRAME = /\n\s+at /;

describe('errors about a request', () => {
  it('are made without frames; the stack reads as the name and message', () => {
    expect(stackless(() => new RangeError('out of range')).stack).toBe('RangeError: out of range');
    const refused = refusal(429, 'Too many requests from this app.', 'RATE_LIMITED').errors[0]!;
    expect(refused).toBeInstanceOf(GraphQLError);
    expect(refused.stack).toBe('GraphQLError: Too many requests from this app.');
    expect(noTokenError('missing').stack).not.toMatch(FRAME);
    expect(clientError('Argument "first" must be positive.', { extensions: { code: 'BAD_USER_INPUT' } }).stack).not.toMatch(FRAME);
    expect(new BusinessError('get', 'campaignNotFound', 'no such campaign').stack).toBe('BusinessError: get: campaignNotFound: no such campaign');
  });

  it('keep the stack of the error they wrap', () => {
    const bug = new TypeError('x is undefined');
    expect(clientError('Internal server error.', { originalError: bug }).stack).toBe(bug.stack);
  });

  it('leave every other error its frames, even when making one throws', () => {
    const limit = Error.stackTraceLimit;
    expect(() =>
      stackless(() => {
        throw new Error('made badly');
      }),
    ).toThrow('made badly');
    refusal(400, 'Bad request.', 'BAD_REQUEST');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('a bug').stack).toMatch(FRAME);
    expect(new GraphQLError('made by graphql-js').stack).toMatch(FRAME);
  });
});
