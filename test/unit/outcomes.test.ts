import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN } from '../../src/apps/scope.js';
import { ErrorCode } from '../../src/graphql/errors.js';
import { LIMIT_ERROR_CODE } from '../../src/graphql/limits/index.js';
import { CLIENT_ERROR_CODES, SERVER_ERROR_CODES, outcomeLabel } from '../../src/observability/outcomes.js';
import { LiveErrorCode } from '../../src/subscriptions/hub.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Every code the service answers with is a listed outcome: "other" is then only a code someone
 * added without listing it, and counts as an error until it is listed as the client's or the server's.
 */
function codesInSources(): Set<string> {
  const codes = new Set<string>();
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.startsWith('emulator'));
  for (const file of files) {
    const text = readFileSync(join(root, 'src', file), 'utf8');
    // `code: 'X'`, and the code argument of the HTTP layer's, the gate's, the SSE handler's and the
    // pipeline's refusals (`refusal(status, message, code, ...)`).
    for (const [, code] of text.matchAll(/\bcode: '([A-Z][A-Z_]+)'/g)) codes.add(code!);
    for (const [, code] of text.matchAll(/(?:new HttpError|sendGraphQLError|refuse|refusal|answerError)\([^;]*?'([A-Z][A-Z_]{3,})'[,)]/g)) codes.add(code!);
    // The message before the code may hold anything, semicolons included.
    for (const [, code] of text.matchAll(/\brefusal\(\s*\w+,\s*(?:'[^']*'|`[^`]*`|\w+),\s*'([A-Z][A-Z_]{3,})'/g)) codes.add(code!);
  }
  return codes;
}

describe('outcome codes', () => {
  it('list every code the service answers with, each once, as the client\'s or the server\'s', () => {
    const listed = [...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES];
    expect(new Set(listed).size).toBe(listed.length);
    const raised = new Set([
      ...codesInSources(),
      ...Object.values(ErrorCode),
      ...Object.values(LiveErrorCode),
      ...Object.values(ApolloServerErrorCode),
      LIMIT_ERROR_CODE,
      FORBIDDEN,
    ]);
    // The scan finds what it should: codes of each kind of source.
    for (const code of ['PAYLOAD_TOO_LARGE', 'RATE_LIMITED', 'NOT_ACCEPTABLE', 'APP_KEY_MISCONFIGURED', 'REQUEST_TIMEOUT']) expect(raised).toContain(code);
    expect([...raised].filter((code) => outcomeLabel(code) === 'other')).toEqual([]);
  });
});
