import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createSchema } from '../../src/graphql/schema.js';
import { createSharedAnswers } from '../../src/graphql/shared-answers.js';

const schema = createSchema();

/** A token the source serves from its copy, as the category directory serves one the campaign API accepted lately. */
const TOKEN = 'accepted-token';

/** A source whose copy the test replaces or lets go stale, as the category directory does. */
function source() {
  let copy: object | undefined = {};
  return {
    freshCopy: () => copy,
    accepts: (token: string) => token === TOKEN,
    change: () => (copy = {}),
    stale: () => (copy = undefined),
  };
}

describe('which documents have a shared answer', () => {
  const answers = createSharedAnswers({ schema, source: source(), maxEntries: 10 });
  const covers = (text: string) => answers.covers(parse(text));

  it('a query of the category directory only, however it is spelled', () => {
    expect(covers('{ categories { id name } }')).toBe(true);
    expect(covers('query Q($id: ID!) { one: category(id: $id) { ...C __typename } __typename } fragment C on Category { name }')).toBe(true);
    expect(covers('{ categories { ... on Category { id } } category(id: "1") @include(if: true) { name } }')).toBe(true);
  });

  it('not a document with any other field, anywhere in it', () => {
    expect(covers('{ categories { id } campaigns(first: 1) { totalCount } }')).toBe(false);
    expect(covers('{ campaign(id: "1") { category { id name } } }')).toBe(false);
    expect(covers('query A { categories { id } } query B { campaigns { totalCount } }')).toBe(false);
    expect(covers('{ __schema { queryType { name } } }')).toBe(false);
    expect(covers('{ __type(name: "Category") { name } }')).toBe(false);
  });

  it('not a mutation or a subscription, whatever it selects', () => {
    expect(covers('mutation { __typename }')).toBe(false);
    expect(covers('subscription { __typename }')).toBe(false);
  });
});

describe('remembered answers', () => {
  const request = { query: '{ categories { id } }' };
  const answer = { body: '{"data":{"categories":[]}}\n', operationName: undefined };

  it('are found by document, operation name and variables, `{}` and none alike', () => {
    const data = source();
    const answers = createSharedAnswers({ schema, source: data, maxEntries: 10 });
    answers.remember({ ...request, variables: { id: '1' } }, data.freshCopy()!, answer);
    expect(answers.lookup({ ...request, variables: { id: '1' } }, TOKEN)).toMatchObject(answer);
    // Encoded once, as it will be sent.
    expect(answers.lookup({ ...request, variables: { id: '1' } }, TOKEN)!.bytes.equals(Buffer.from(answer.body, 'utf8'))).toBe(true);
    expect(answers.lookup({ ...request, variables: { id: '2' } }, TOKEN)).toBeUndefined();
    expect(answers.lookup(request, TOKEN)).toBeUndefined();
    answers.remember(request, data.freshCopy()!, answer);
    expect(answers.lookup({ ...request, variables: {} }, TOKEN)).toMatchObject(answer);
    expect(answers.lookup({ ...request, variables: null }, TOKEN)).toMatchObject(answer);
    expect(answers.lookup({ ...request, operationName: 'Other' }, TOKEN)).toBeUndefined();
  });

  it('are sent only to a token the source would serve from its copy', () => {
    const data = source();
    const answers = createSharedAnswers({ schema, source: data, maxEntries: 10 });
    answers.remember(request, data.freshCopy()!, answer);
    expect(answers.lookup(request, 'a token not accepted lately')).toBeUndefined();
    expect(answers.lookup(request, TOKEN)).toMatchObject(answer);
  });

  it('give way as soon as the copy they were made from is no longer the one served', () => {
    const data = source();
    const answers = createSharedAnswers({ schema, source: data, maxEntries: 10 });
    answers.remember(request, data.freshCopy()!, answer);
    data.stale();
    expect(answers.lookup(request, TOKEN)).toBeUndefined();
    data.change();
    expect(answers.lookup(request, TOKEN)).toBeUndefined();
  });

  it('are not kept when the copy changed while the execution ran', () => {
    const data = source();
    const answers = createSharedAnswers({ schema, source: data, maxEntries: 10 });
    const before = data.freshCopy()!;
    data.change();
    answers.remember(request, before, answer);
    expect(answers.lookup(request, TOKEN)).toBeUndefined();
  });

  it('are at most maxEntries, the oldest going first', () => {
    const data = source();
    const answers = createSharedAnswers({ schema, source: data, maxEntries: 2 });
    for (const id of ['1', '2', '3']) answers.remember({ ...request, variables: { id } }, data.freshCopy()!, answer);
    expect(answers.lookup({ ...request, variables: { id: '1' } }, TOKEN)).toBeUndefined();
    expect(answers.lookup({ ...request, variables: { id: '2' } }, TOKEN)).toBeDefined();
    expect(answers.lookup({ ...request, variables: { id: '3' } }, TOKEN)).toBeDefined();
  });
});

describe('requests that are never remembered', () => {
  const answer = { body: '{"data":{"category":null}}\n', operationName: undefined };
  const query = 'query ($id: ID!) { category(id: $id) { id } }';

  it('one with a variable that is not a scalar, however deep (it is never serialised)', () => {
    const data = source();
    const answers = createSharedAnswers({ schema, source: data, maxEntries: 10 });
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const variables of [{ id: ['1'] }, { id: { nested: '1' } }, { id: deep }]) {
      answers.remember({ query, variables: variables as Record<string, unknown> }, data.freshCopy()!, answer);
      expect(answers.lookup({ query, variables: variables as Record<string, unknown> }, TOKEN)).toBeUndefined();
    }
  });

  it('one longer than the key limit: what is kept stays small whatever clients send', () => {
    const data = source();
    const answers = createSharedAnswers({ schema, source: data, maxEntries: 10 });
    for (const request of [{ query, variables: { id: 'x'.repeat(5000) } }, { query: `${query}${' '.repeat(5000)}`, variables: { id: '1' } }]) {
      answers.remember(request, data.freshCopy()!, answer);
      expect(answers.lookup(request, TOKEN)).toBeUndefined();
    }
    answers.remember({ query, variables: { id: '1' } }, data.freshCopy()!, answer);
    expect(answers.lookup({ query, variables: { id: '1' } }, TOKEN)).toMatchObject(answer);
  });
});
