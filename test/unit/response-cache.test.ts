import { describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { createDocumentCache, isKnown } from '../../src/pipeline/documents.js';
import type { Prepared } from '../../src/pipeline/pipeline.js';
import { ResponseFacts, cachePolicyOf, createResponseCache, type Freshness } from '../../src/pipeline/response-cache.js';
import type { Caller } from '../../src/pipeline/types.js';
import { variablesKeyOf } from '../../src/pipeline/verdicts.js';

const schema = createSchema();
const documents = createDocumentCache({ schema, maxTokens: 5000, rules: [], maxBytes: 1 << 20, maxTextLength: 1 << 16 });

const TRUSTED: Caller = { kind: 'partner', token: 'accepted-token' };
const OTHER: Caller = { kind: 'partner', token: 'another-accepted-token' };
const UNTRUSTED: Caller = { kind: 'partner', token: 'a token not accepted lately' };

function prepared(text: string, caller: Caller = TRUSTED, variables?: Record<string, unknown>, operationName?: string): Prepared {
  const document = documents.get(text);
  if (!isKnown(document)) throw new Error(`not a valid document: ${JSON.stringify(document.errors.map((e) => e.message))}`);
  const operation = document.operation(operationName);
  if (operation instanceof Error) throw operation;
  return { document, operation, operationName, variables, variablesKey: variablesKeyOf(operation, variables), situation: { caller, transport: 'post', client: '127.0.0.1' }, origin: 'text' } as unknown as Prepared;
}

const policy = (text: string) => {
  const p = prepared(text);
  return cachePolicyOf(schema, p.document, p.operation);
};

describe('what the schema lets be remembered', () => {
  it('the category directory, for every caller, however the query is spelled', () => {
    expect(policy('{ categories { id name } }')).toEqual({ scope: 'PUBLIC', maxAgeMs: 300_000 });
    expect(policy('query Q($id: ID!) { one: category(id: $id) { ...C __typename } __typename } fragment C on Category { name }')).toEqual({ scope: 'PUBLIC', maxAgeMs: 300_000 });
  });

  it('an offer feed, for its caller alone', () => {
    expect(policy('{ offerFeed(first: 2) { totalCount nodes { id card { title } category { id name } } pageInfo { endCursor } } }')).toEqual({ scope: 'PRIVATE', maxAgeMs: 30_000 });
  });

  it('nothing that selects a field without a hint, anywhere, nor introspection or a mutation', () => {
    expect(policy('{ categories { id } campaigns(first: 1) { totalCount } }')).toBeNull();
    expect(policy('{ campaign(id: "1") { category { id name } } }')).toBeNull();
    expect(policy('{ categories { ...F } } fragment F on Category { id campaignsOf: __typename }')).toEqual({ scope: 'PUBLIC', maxAgeMs: 300_000 });
    expect(policy('{ __schema { queryType { name } } }')).toBeNull();
    expect(policy('mutation { stopCampaign(id: "1") { campaign { id } } }')).toBeNull();
  });
});

describe('remembered answers', () => {
  const text = 'query ($id: ID!) { category(id: $id) { id name } }';
  const body = '{"data":{"category":{"id":"1","name":"Продукты"}}}\n';
  const cache = () =>
    createResponseCache({
      schema,
      maxBytes: 1 << 20,
      callerKey: (caller) => (caller.kind === 'partner' ? caller.token : undefined),
      trusts: (caller) => caller.kind === 'partner' && caller.token !== UNTRUSTED.token,
    });
  const fresh = () => {
    let current = true;
    const freshness: Freshness = { fresh: () => current };
    return { freshness, change: () => (current = false) };
  };
  const facts = (...depends: Freshness[]) => {
    const made = new ResponseFacts();
    for (const freshness of depends) made.depends(freshness);
    return made;
  };

  it('are found by document, operation and the declared variables only, in any order, encoded once', () => {
    const responses = cache();
    const remembered = responses.remember(prepared(text, TRUSTED, { id: '1', unused: 'x' }), body, facts(fresh().freshness))!;
    expect(remembered.bytes.equals(Buffer.from(body))).toBe(true);
    expect(remembered.etag).toMatch(/^"[\w-]{27}"$/);
    expect(responses.lookup(prepared(text, TRUSTED, { id: '1' }))?.bytes.toString()).toBe(body);
    expect(responses.lookup(prepared(text, OTHER, { unused: 'y', id: '1' }))?.bytes.toString()).toBe(body);
    expect(responses.lookup(prepared(text, TRUSTED, { id: '2' }))).toBeUndefined();
  });

  it('reach only callers whose credentials are known to be good', () => {
    const responses = cache();
    responses.remember(prepared(text, TRUSTED, { id: '1' }), body, facts(fresh().freshness));
    expect(responses.lookup(prepared(text, UNTRUSTED, { id: '1' }))).toBeUndefined();
  });

  it('keep a private answer for its caller alone', () => {
    const responses = cache();
    const feed = '{ offerFeed(first: 1) { totalCount } }';
    responses.remember(prepared(feed, TRUSTED), '{"data":{"offerFeed":{"totalCount":3}}}\n', facts(fresh().freshness));
    expect(responses.lookup(prepared(feed, TRUSTED))).toBeDefined();
    expect(responses.lookup(prepared(feed, OTHER))).toBeUndefined();
  });

  it('give way as soon as data they were made from changes, and are not kept when it changed while they ran', () => {
    const responses = cache();
    const data = fresh();
    responses.remember(prepared(text, TRUSTED, { id: '1' }), body, facts(data.freshness));
    data.change();
    expect(responses.lookup(prepared(text, TRUSTED, { id: '1' }))).toBeUndefined();
    expect(responses.remember(prepared(text, TRUSTED, { id: '1' }), body, facts(data.freshness))).toBeUndefined();
  });

  it('are never kept when a read could not say how long it holds, or the answer carries extensions', () => {
    const responses = cache();
    const stale = new ResponseFacts();
    stale.depends(undefined);
    expect(responses.remember(prepared(text, TRUSTED, { id: '1' }), body, stale)).toBeUndefined();
    const extended = facts(fresh().freshness);
    extended.extend('feed', () => ({ stale: true }));
    expect(responses.remember(prepared(text, TRUSTED, { id: '1' }), body, extended)).toBeUndefined();
  });

  it('never write out again a variable nested too deep, and stay within their bound in bytes', () => {
    const responses = cache();
    let deep: unknown = '1';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(responses.remember(prepared(text, TRUSTED, { id: deep }), body, facts(fresh().freshness))).toBeUndefined();
    for (let i = 0; i < 2000; i++) responses.remember(prepared(text, TRUSTED, { id: String(i) }), body.padEnd(1024), facts(fresh().freshness));
    expect(responses.stats().bytes).toBeLessThanOrEqual(1 << 20);
    expect(responses.stats().entries).toBeLessThan(2000);
  });
});

describe('answers being made', () => {
  const text = 'query ($id: ID!) { category(id: $id) { id name } }';
  const body = '{"data":{"category":{"id":"1","name":"Продукты"}}}\n';
  let accepted = new Set([TRUSTED.token, OTHER.token]);
  const responses = () => {
    accepted = new Set([TRUSTED.token, OTHER.token]);
    return createResponseCache({
      schema,
      maxBytes: 1 << 20,
      callerKey: (caller) => (caller.kind === 'partner' ? caller.token : undefined),
      trusts: (caller) => caller.kind === 'partner' && accepted.has(caller.token),
    });
  };
  const facts = () => {
    const made = new ResponseFacts();
    made.depends({ fresh: () => true });
    return made;
  };

  it('are waited for under the same key, and the waiters get what was remembered', async () => {
    const cache = responses();
    const { made } = cache.share(prepared(text, TRUSTED, { id: '1' }));
    const { waitFor } = cache.share(prepared(text, OTHER, { id: '1' }));
    const elsewhere = cache.share(prepared(text, TRUSTED, { id: '2' }));
    expect(elsewhere.waitFor).toBeUndefined();
    expect(waitFor).toBeInstanceOf(Promise);
    const remembered = cache.remember(prepared(text, TRUSTED, { id: '1' }), body, facts());
    made!(remembered);
    elsewhere.made!(undefined);
    expect(await waitFor).toBe(remembered);
    // Over: the next request looks the answer up, or makes it again.
    expect(cache.share(prepared(text, OTHER, { id: '1' })).waitFor).toBeUndefined();
  });

  it('give a waiter nothing when nothing was remembered, and make no one wait once over', async () => {
    const cache = responses();
    const first = cache.share(prepared(text, TRUSTED, { id: '1' }));
    const waiting = cache.share(prepared(text, OTHER, { id: '1' }));
    expect(waiting.made).toBeUndefined();
    expect(cache.share(prepared(text, OTHER, { id: '1' })).waitFor).toBeInstanceOf(Promise);
    first.made!(undefined);
    expect(await waiting.waitFor).toBeUndefined();
    const next = cache.share(prepared(text, OTHER, { id: '1' }));
    expect(next.waitFor).toBeUndefined();
    expect(next.made).toBeInstanceOf(Function);
  });

  it('give a waiter the answer only if its caller is trusted once it is made', async () => {
    const cache = responses();
    accepted.delete(OTHER.token);
    const { made } = cache.share(prepared(text, TRUSTED, { id: '1' }));
    const untrusted = cache.share(prepared(text, UNTRUSTED, { id: '1' })).waitFor;
    const acceptedMeanwhile = cache.share(prepared(text, OTHER, { id: '1' })).waitFor;
    accepted.add(OTHER.token);
    made!(cache.remember(prepared(text, TRUSTED, { id: '1' }), body, facts()));
    expect(await untrusted).toBeUndefined();
    expect((await acceptedMeanwhile)?.bytes.toString()).toBe(body);
  });

  it('are never waited for where nothing may be remembered', () => {
    const cache = responses();
    const uncacheable = '{ campaign(id: "1") { id } }';
    expect(cache.share(prepared(uncacheable)).made).toBeInstanceOf(Function);
    expect(cache.share(prepared(uncacheable)).waitFor).toBeUndefined();
  });
});
