import { describe, expect, it } from 'vitest';
import { credentialsOf, readAuthorization } from '../../src/http/auth.js';

const MAX = 64;

describe('the Authorization header', () => {
  it('reads "Bearer <token>" and the reference samples\' "Bearer: <token>"', () => {
    expect(readAuthorization('Bearer abc-123', MAX)).toEqual({ kind: 'token', token: 'abc-123' });
    expect(readAuthorization('bearer abc-123', MAX)).toEqual({ kind: 'token', token: 'abc-123' });
    expect(readAuthorization('Bearer: abc-123', MAX)).toEqual({ kind: 'token', token: 'abc-123' });
  });

  it('tells no header from one that is not "Bearer <token>", rather than guessing', () => {
    for (const header of [undefined, '']) expect(readAuthorization(header, MAX), String(header)).toEqual({ kind: 'missing' });
    for (const header of ['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'abc-123', 'Bearer a b', 'Bearer demo-store-token x', 'Token abc']) {
      expect(readAuthorization(header, MAX), header).toEqual({ kind: 'malformed' });
    }
  });

  it('says a token longer than the bound is oversized, without reading a header of megabytes', () => {
    expect(readAuthorization(`Bearer ${'a'.repeat(MAX)}`, MAX)).toEqual({ kind: 'token', token: 'a'.repeat(MAX) });
    expect(readAuthorization(`Bearer ${'a'.repeat(MAX + 1)}`, MAX)).toEqual({ kind: 'oversized', length: MAX + 8 });
    const huge = `Bearer ${'A'.repeat(4 * 1024 * 1024)}`;
    expect(readAuthorization(huge, MAX)).toEqual({ kind: 'oversized', length: huge.length });
    expect(readAuthorization(`Bearer ${' '.repeat(1024 * 1024)}x`, MAX).kind).toBe('oversized');
  });
});

describe('credentials, from headers or a connection_init payload alike', () => {
  it('reads the payload\'s names in any case, as header names are read', () => {
    expect(credentialsOf({}, { authorization: 'Bearer a' })).toEqual({ authorization: 'Bearer a', appKey: undefined });
    expect(credentialsOf({}, { Authorization: 'Bearer a' })).toEqual({ authorization: 'Bearer a', appKey: undefined });
    expect(credentialsOf({}, { 'x-app-key': 'k' })).toEqual({ authorization: undefined, appKey: 'k' });
    expect(credentialsOf({}, { 'X-App-Key': 'k' })).toEqual({ authorization: undefined, appKey: 'k' });
  });

  it('takes the payload over the headers for a name both hold, and keeps what only the headers hold', () => {
    expect(credentialsOf({ authorization: 'Bearer h' }, { authorization: 'Bearer p' }).authorization).toBe('Bearer p');
    expect(credentialsOf({ 'x-app-key': 'k' }, { authorization: 'Bearer p' })).toEqual({ authorization: 'Bearer p', appKey: 'k' });
    expect(credentialsOf({ authorization: 'Bearer h' }, null)).toEqual({ authorization: 'Bearer h', appKey: undefined });
  });

  it('keeps a value that is not a string as it is, for the caller resolution to refuse', () => {
    expect(credentialsOf({}, { authorization: 42 }).authorization).toBe(42);
    expect(credentialsOf({}, { 'x-app-key': { key: 'k' } }).appKey).toEqual({ key: 'k' });
  });
});
