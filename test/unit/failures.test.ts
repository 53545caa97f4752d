import { describe, expect, it } from 'vitest';
import { NetworkError, HttpStatusError } from '../../src/campaign-api/index.js';
import { causeOf, failureFields, isBug, redactCredentials, redactUrlValue } from '../../src/observability/failures.js';
import { captureLogs } from '../helpers/log-capture.js';

describe('redactCredentials', () => {
  it('hides the user info of every URL in a text, and nothing else', () => {
    expect(redactCredentials('CACHE_URL="redis://cache:s3cret@10.0.0.5:6379": bad')).toBe('CACHE_URL="redis://[redacted]@10.0.0.5:6379": bad');
    expect(redactCredentials('a REDIS://:s3cret@h:1 and https://user@api.example.com/v1')).toBe('a REDIS://[redacted]@h:1 and https://[redacted]@api.example.com/v1');
    expect(redactCredentials('connect ECONNREFUSED 127.0.0.1:6379')).toBe('connect ECONNREFUSED 127.0.0.1:6379');
    expect(redactCredentials('redis://10.0.0.5:6379 failed for ops@example.com')).toBe('redis://10.0.0.5:6379 failed for ops@example.com');
    // A stack trace's file URLs have no user info: their scoped packages stay readable.
    const frame = '    at file:///app/node_modules/@apollo/server/dist/esm/ApolloServer.js:612:29';
    expect(redactCredentials(frame)).toBe(frame);
  });

  it('hides a password holding characters URL parsers misread, whole', () => {
    for (const password of ['p@ss', 'p/ss', 'p#ss', 'p"ss', "p'ss", 'p?ss']) {
      const text = redactCredentials(`redis://user:${password}word@cache:6379 is down`);
      expect(text, password).toBe('redis://[redacted]@cache:6379 is down');
    }
  });

  it('hides the user info of a configured value, spaces included', () => {
    expect(redactUrlValue('redis://user:a b c@cache:6379')).toBe('redis://[redacted]@cache:6379');
    expect(redactUrlValue('https://api.example.com/root')).toBe('https://api.example.com/root');
    expect(redactUrlValue('not a url @ all')).toBe('not a url @ all');
  });
});

describe('causeOf', () => {
  it('says what went wrong in one line, with its causes and codes, without a stack', () => {
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED', stack: 'Error: x\n    at somewhere' });
    // How Node reports a host whose every address refused: an AggregateError with no message of its own.
    const everyAddress = Object.assign(new AggregateError([refused('::1:6379'), refused('127.0.0.1:6379')], ''), { code: 'ECONNREFUSED' });
    expect(causeOf(everyAddress)).toBe('connect ECONNREFUSED ::1:6379; connect ECONNREFUSED 127.0.0.1:6379');
    const network = new NetworkError('getCategories', 'ECONNREFUSED', true, { cause: refused('127.0.0.1:1') });
    expect(causeOf(network)).toBe('getCategories: network error ECONNREFUSED before the request was sent: connect ECONNREFUSED 127.0.0.1:1');
    expect(causeOf(new HttpStatusError('getCategories', 404))).toBe('getCategories: unexpected HTTP status 404');
    expect(causeOf(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' }))).toBe('Connection timeout (ETIMEDOUT)');
    expect(causeOf(new Error('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND redis://u:s3cret@cache') }))).toBe(
      'fetch failed: getaddrinfo ENOTFOUND redis://[redacted]@cache',
    );
    expect(causeOf(undefined)).toBe('undefined');
    expect(causeOf(new Error('x'.repeat(5000))).length).toBeLessThanOrEqual(300);
  });

  it('keeps stacks for bugs only', () => {
    expect(isBug(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(true);
    expect(isBug(new RangeError('Invalid array length'))).toBe(true);
    expect(isBug('a string thrown')).toBe(true);
    expect(isBug(new HttpStatusError('get', 503))).toBe(false);
    expect(isBug(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(failureFields(new HttpStatusError('get', 503))).toEqual({ cause: 'get: unexpected HTTP status 503' });
    const bug = new TypeError('oops');
    expect(failureFields(bug)).toEqual({ err: bug });
  });
});

describe('the logger', () => {
  it('redacts URL credentials in messages and in errors, whoever wrote them', () => {
    const log = captureLogs();
    log.logger.warn('cache at redis://u:s3cret@cache:6379 unavailable');
    log.logger.error({ err: new Error('could not reach https://api:s3cret@partner.example.com/v1', { cause: new Error('rediss://x:s3cret@h') }) }, 'bug');
    log.logger.warn({ err: new TypeError('redis://u:s3cret@h') });
    const written = log.lines.join('');
    expect(written).not.toContain('s3cret');
    expect(log.entries[0]!.msg).toBe('cache at redis://[redacted]@cache:6379 unavailable');
    expect(log.entries[1]!.err.message).toContain('https://[redacted]@partner.example.com/v1');
    expect(log.entries[1]!.err.stack).toContain('https://[redacted]@partner.example.com/v1');
  });
});
