import { describe, expect, it } from 'vitest';
import { readAuthorization } from '../../src/http/auth.js';

describe('the Authorization header', () => {
  it('reads "Bearer <token>" and the reference samples\' "Bearer: <token>"', () => {
    expect(readAuthorization('Bearer abc-123')).toEqual({ kind: 'token', token: 'abc-123' });
    expect(readAuthorization('bearer abc-123')).toEqual({ kind: 'token', token: 'abc-123' });
    expect(readAuthorization('Bearer: abc-123')).toEqual({ kind: 'token', token: 'abc-123' });
  });

  it('tells no header from one that is not "Bearer <token>", rather than guessing', () => {
    for (const header of [undefined, '']) expect(readAuthorization(header), String(header)).toEqual({ kind: 'missing' });
    for (const header of ['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'abc-123', 'Bearer a b', 'Bearer demo-store-token x', 'Token abc']) {
      expect(readAuthorization(header), header).toEqual({ kind: 'malformed' });
    }
  });
});
