import { describe, expect, it } from 'vitest';
import { readBearerToken } from '../../src/server/auth.js';

describe('the Authorization header', () => {
  it('reads "Bearer <token>" and the reference samples\' "Bearer: <token>"', () => {
    expect(readBearerToken('Bearer abc-123')).toBe('abc-123');
    expect(readBearerToken('bearer abc-123')).toBe('abc-123');
    expect(readBearerToken('Bearer: abc-123')).toBe('abc-123');
  });

  it('reads anything else as no token rather than guessing', () => {
    for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'abc-123', 'Bearer a b', 'Token abc']) {
      expect(readBearerToken(header), String(header)).toBeNull();
    }
  });
});
