import { describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { createPipeline } from '../../src/pipeline/pipeline.js';
import { loadTrustedDocuments } from '../../src/pipeline/trusted-documents.js';
import { cost, variables } from '../../src/pipeline/rules.js';
import type { Policy, Refusal, Situation, Transport } from '../../src/pipeline/types.js';
import { createRateLimiter, rateLimitPolicy } from '../../src/apps/rate-limit.js';
import { localCoordination } from '../../src/cache/coordination.js';

const schema = createSchema();
const QUERY = 'query List($first: Int, $status: CampaignStatus) { campaigns(first: $first, status: $status) { totalCount } }';

/** A pipeline whose operation policies count the requests they are asked to judge. */
function counted(extra: Policy[] = []) {
  const judged: string[] = [];
  const counting: Policy = {
    name: 'counting',
    operation({ variables: values }, { transport }) {
      let written: string;
      try {
        written = JSON.stringify(values ?? {});
      } catch {
        written = 'too deep';
      }
      judged.push(`${transport}:${written}`);
      return undefined;
    },
  };
  const pipeline = createPipeline({
    schema,
    policies: [...extra, counting, variables(schema, { hideSuggestions: false }), cost(schema, { maxBackendCalls: 1000, maxListNodes: 10_000 })],
    trusted: loadTrustedDocuments(undefined),
    persisted: undefined,
    documents: { maxBytes: 1 << 20, maxTextLength: 1 << 16 },
    verdictBytes: 1 << 20,
  });
  return { pipeline, judged };
}

const situation = (transport: Transport = 'post'): Situation => ({ caller: { kind: 'partner', token: 't' }, transport, client: '127.0.0.1' });
const params = (values: Record<string, unknown> | undefined) => ({ query: QUERY, documentId: undefined, persisted: undefined, operationName: undefined, variables: values });

describe('the operation policies judge a request once for the same values', () => {
  it('gives the kept verdict to the same document, transport and declared values, whatever their order', () => {
    const { pipeline, judged } = counted();
    const first = pipeline.prepare(params({ first: 10, status: 'STARTED' }), situation());
    const again = pipeline.prepare(params({ status: 'STARTED', first: 10 }), situation());
    // A variable the operation does not declare changes nothing a policy reads.
    const undeclared = pipeline.prepare(params({ first: 10, status: 'STARTED', n: 7 }), situation());
    for (const prepared of [first, again, undeclared]) expect(prepared).not.toHaveProperty('errors');
    expect(judged).toEqual(['post:{"first":10,"status":"STARTED"}']);
  });

  it('judges again for other values, another transport, or values too deep to write out', () => {
    const { pipeline, judged } = counted();
    pipeline.prepare(params({ first: 10 }), situation());
    pipeline.prepare(params({ first: 11 }), situation());
    pipeline.prepare(params({ first: 10 }), situation('get'));
    pipeline.prepare(params({ first: null }), situation());
    pipeline.prepare(params(undefined), situation());
    expect(judged).toHaveLength(5);
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    pipeline.prepare(params({ first: deep }), situation());
    pipeline.prepare(params({ first: deep }), situation());
    expect(judged).toHaveLength(7);
  });

  it('keeps a refusal as well, and gives it again with the same words', () => {
    const { pipeline, judged } = counted();
    const refused = pipeline.prepare(params({ first: 'ten' }), situation());
    const again = pipeline.prepare(params({ first: 'ten' }), situation());
    expect(judged).toHaveLength(1);
    expect(refused).toMatchObject({ status: 400, operation: { name: 'List', type: 'query' } });
    const messageOf = (answer: unknown) => (answer as Refusal).errors[0]!.message;
    expect(messageOf(again)).toBe(messageOf(refused));
    expect(messageOf(refused)).toMatch(/\$first/);
  });

  it('answers an app at once when its rate limits are counted in memory', () => {
    const limiter = createRateLimiter(localCoordination(), 60_000);
    const { pipeline } = counted([rateLimitPolicy({ limiter, appKeyRateLimit: 2, clientRateLimit: 10 })]);
    const app: Situation = { caller: { kind: 'app', app: { name: 'App', keyHash: 'k', partnerTokens: ['t'] } }, transport: 'get', client: '127.0.0.1' };
    const answers = [1, 2, 3].map(() => pipeline.prepare(params({ first: 1 }), app));
    for (const answer of answers) expect(answer).not.toBeInstanceOf(Promise);
    expect(answers.map((a) => ('status' in a ? a.status : 'prepared'))).toEqual(['prepared', 'prepared', 429]);
  });
});

describe('a request text repeated byte for byte', () => {
  /** `prepareRaw` of the text, counting the times it had to be read as JSON. */
  const reader = () => {
    const { pipeline } = counted();
    let reads = 0;
    const prepare = (raw: string) =>
      pipeline.prepareRaw(
        raw,
        (text) => {
          reads++;
          const { query, variables } = JSON.parse(text) as { query: string; variables?: Record<string, unknown> };
          return { query, documentId: undefined, persisted: undefined, operationName: undefined, variables };
        },
        situation(),
      );
    return { prepare, reads: () => reads };
  };

  it('is read once when it is a query, and its judgement given again', () => {
    const { prepare, reads } = reader();
    const raw = JSON.stringify({ query: QUERY, variables: { first: 10 } });
    const first = prepare(raw);
    const again = prepare(raw);
    expect(reads()).toBe(1);
    expect(again).toMatchObject({ variables: { first: 10 }, operation: (first as { operation: unknown }).operation });
  });

  it('is read every time when it is a mutation: a write is not kept to be judged again', () => {
    const { prepare, reads } = reader();
    const raw = JSON.stringify({ query: 'mutation Stop($id: ID!) { stopCampaign(id: $id) { userErrors { code } } }', variables: { id: '7' } });
    for (const prepared of [prepare(raw), prepare(raw)]) expect(prepared).toMatchObject({ operation: { operation: 'mutation' }, variables: { id: '7' } });
    expect(reads()).toBe(2);
  });
});
