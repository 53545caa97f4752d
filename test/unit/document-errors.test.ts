import { describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { createDocumentCache } from '../../src/pipeline/documents.js';

const documents = createDocumentCache({ schema: createSchema(), maxTokens: 50, rules: [], maxBytes: 1 << 20, maxTextLength: 1 << 16 });
const errorsOf = (text: string) => {
  const outcome = documents.get(text);
  if (!('errors' in outcome)) throw new Error('expected a refusal');
  return outcome.errors.map((error) => ({ message: error.message, locations: error.locations, code: error.extensions.code }));
};

describe('where a refused document went wrong', () => {
  it('is located the same in a long one-line text as in a short one, past the token limit too', () => {
    const tail = ` ${'a '.repeat(500_000)}}`;
    expect(errorsOf(`{ campaigns(first: ) { totalCount } }${tail}`)).toEqual([
      { message: 'Syntax Error: Unexpected ")".', locations: [{ line: 1, column: 20 }], code: 'GRAPHQL_PARSE_FAILED' },
    ]);
    expect(errorsOf(`{\n  b${tail}`)).toEqual([
      { message: 'Syntax Error: Document contains more that 50 tokens. Parsing aborted.', locations: [{ line: 2, column: 101 }], code: 'GRAPHQL_PARSE_FAILED' },
    ]);
    expect(errorsOf('{ campaigns(first: ) { totalCount } }')[0]!.locations).toEqual([{ line: 1, column: 20 }]);
  });
});
