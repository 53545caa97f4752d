import { createHash } from 'node:crypto';
import type { RawRequest, RequestSpec } from 'autocannon';
import { graphqlCreateInput } from './campaign-samples.js';

/** The scenarios: what each one sends, to which server, and what a right answer is. */

/** The BFF's twins: second BFF processes, the same but for their environment (see BffTwin). */
export type TwinTarget = 'bff-traced' | 'bff-no-request-log';
export type Target = 'floor' | 'floor-line' | 'stock-apollo' | 'mercurius' | 'mercurius-no-log' | 'bff' | TwinTarget | 'rest-floor' | 'feed-floor' | 'hive';

/** The BFF under test or one of its twins: the servers whose backend calls must be minimal. */
export const isBff = (target: Target): boolean => target === 'bff' || target.startsWith('bff-');

export interface Scenario {
  /** Stable key, used in latest.json. */
  key: string;
  /** As printed in the table. */
  label: string;
  target: Target;
  requests: RequestSpec[];
  /** True for a right answer; autocannon counts the others as mismatches. */
  verify(body: string): boolean;
  /** Backend calls one request must make, by operation path; undefined where not a target. */
  expectedCalls?: Record<string, number>;
}

export const CARD_FIELDS =
  'title description conditions discountLabel logoSvgUrl logoPngUrl backgroundColor fontColor backgroundImageUrl actionUrl';

export const PAGE_SIZE = 50;

export const DOCUMENTS = {
  categories: 'query Categories { categories { id name } }',
  card: `query Card($id: ID!) { campaign(id: $id) { card { ${CARD_FIELDS} } } }`,
  byIds: `query ByIds($ids: [ID!]!) { campaignsByIds(ids: $ids) { id status } }`,
  listIds: `query ListIds { campaigns(first: ${PAGE_SIZE}) { nodes { id status } } }`,
  listCards: `query ListCards { campaigns(first: ${PAGE_SIZE}) { nodes { card { ${CARD_FIELDS} } } } }`,
  create:
    'mutation Create($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id status } userErrors { field message code } } }',
} as const;

export function graphqlBody(query: string, variables?: Record<string, unknown>): string {
  return JSON.stringify(variables ? { query, variables } : { query });
}

/**
 * The categories query as Apollo Client's persisted-query link sends it once registered: its
 * SHA-256 alone (`warmCategoriesBody` in run.ts registers it).
 */
export const PERSISTED_CATEGORIES = { version: 1, sha256Hash: createHash('sha256').update(DOCUMENTS.categories).digest('hex') };

/** The Accept header of Apollo Client's HttpLink (selectHttpOptionsAndBody.js). */
export const APOLLO_CLIENT_ACCEPT = 'application/graphql-response+json,application/json;q=0.9';

export function graphqlHeaders(token: string): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` };
}

/** A GraphQL answer with data and no errors (the cheap test: the whole body is not parsed per response). */
const hasDataNoErrors = (body: string) => body.startsWith('{"data"') && !body.includes('"errors"');

export interface ScenarioInputs {
  /** The partner whose list is read (it has at least PAGE_SIZE campaigns). */
  readToken: string;
  /** The partner that creates; another one, so creating does not change the list being read. */
  createToken: string;
  /** Campaigns of readToken (at least PAGE_SIZE): the first is the card scenario's, all of them by-ids'. */
  ids: number[];
  /** The exact bytes of the warm categories answer; the floor answers them too. */
  categoriesBody: string;
}

/** partnerCampaignIds of the create scenario: unique for the whole run, clear of the fixtures. */
let nextPartnerCampaignId = 7_000_000;

export function buildScenarios(inputs: ScenarioInputs): Scenario[] {
  const read = graphqlHeaders(inputs.readToken);
  const post = (path: string, body: string, headers = read): RequestSpec => ({ method: 'POST', path, headers, body });

  return [
    {
      key: 'floor',
      label: 'floor (bare node:http)',
      target: 'floor',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.categories))],
      verify: (body) => body === inputs.categoriesBody,
    },
    {
      key: 'floor-line',
      label: 'floor + request line (id, JSON, log, metrics)',
      target: 'floor-line',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.categories))],
      verify: (body) => body === inputs.categoriesBody,
    },
    {
      key: 'stock-apollo',
      label: 'stock Apollo (categories)',
      target: 'stock-apollo',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.categories))],
      verify: (body) => body === inputs.categoriesBody,
    },
    {
      key: 'categories',
      label: 'categories (warm)',
      target: 'bff',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.categories))],
      verify: (body) => body === inputs.categoriesBody,
      expectedCalls: {},
    },
    {
      key: 'categories-apollo-client',
      label: "categories (warm), Apollo Client's Accept",
      target: 'bff',
      // What Apollo Client sends: it prefers application/graphql-response+json.
      requests: [post('/graphql', graphqlBody(DOCUMENTS.categories), { ...read, accept: APOLLO_CLIENT_ACCEPT })],
      verify: (body) => body === inputs.categoriesBody,
      expectedCalls: {},
    },
    {
      key: 'categories-persisted',
      label: 'categories (warm), persisted query by hash',
      target: 'bff',
      // Apollo Client's persisted-query link: the hash alone, the operation name, empty variables.
      requests: [
        post('/graphql', JSON.stringify({ operationName: 'Categories', variables: {}, extensions: { persistedQuery: PERSISTED_CATEGORIES } }), {
          ...read,
          accept: APOLLO_CLIENT_ACCEPT,
        }),
      ],
      verify: (body) => body === inputs.categoriesBody,
      expectedCalls: {},
    },
    ...[
      { key: 'mercurius', label: 'mercurius (categories, one log line per request)', target: 'mercurius' as const },
      { key: 'mercurius-no-log', label: 'mercurius (categories), no request log', target: 'mercurius-no-log' as const },
    ].map((server) => ({
      ...server,
      requests: [post('/graphql', graphqlBody(DOCUMENTS.categories))],
      // The same answer, without the newline the BFF ends its bodies with. It reads the directory
      // again as the BFF does (a token checked once a minute): no call target.
      verify: (body: string) => body === inputs.categoriesBody.trimEnd(),
    })),
    {
      key: 'card',
      label: 'card',
      target: 'bff',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.card, { id: String(inputs.ids[0]) }))],
      verify: hasDataNoErrors,
      expectedCalls: { 'campaigns/get': 1 },
    },
    {
      key: 'by-ids',
      label: `campaignsByIds (${PAGE_SIZE})`,
      target: 'bff',
      // The campaign API's numbers, which the argument takes as they are: no id to make first.
      requests: [post('/graphql', graphqlBody(DOCUMENTS.byIds, { ids: inputs.ids.slice(0, PAGE_SIZE).map(String) }))],
      verify: hasDataNoErrors,
      expectedCalls: { 'campaigns/get': PAGE_SIZE },
    },
    {
      key: 'by-ids-one',
      label: `campaignsByIds (one id ${PAGE_SIZE} times)`,
      target: 'bff',
      // An id asked twice is read once: one backend call, and still an answer of 50 campaigns, each with its id.
      requests: [post('/graphql', graphqlBody(DOCUMENTS.byIds, { ids: Array.from({ length: PAGE_SIZE }, () => String(inputs.ids[0])) }))],
      verify: hasDataNoErrors,
      expectedCalls: { 'campaigns/get': 1 },
    },
    {
      key: 'list-ids',
      label: `list ids (${PAGE_SIZE})`,
      target: 'bff',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.listIds))],
      verify: hasDataNoErrors,
      expectedCalls: { 'campaigns/get-all-campaigns': 1 },
    },
    {
      key: 'list-cards',
      label: `list cards (${PAGE_SIZE})`,
      target: 'bff',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.listCards))],
      verify: hasDataNoErrors,
      expectedCalls: { 'campaigns/get-all-campaigns': 1, 'campaigns/get': PAGE_SIZE },
    },
    {
      key: 'rest-floor-list',
      label: `rest floor (list cards)`,
      target: 'rest-floor',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.listCards))],
      verify: (body) => body.startsWith('{"data"'),
      expectedCalls: { 'campaigns/get-all-campaigns': 1, 'campaigns/get': PAGE_SIZE },
    },
    {
      key: 'create',
      label: 'create',
      target: 'bff',
      requests: [
        {
          method: 'POST',
          path: '/graphql',
          headers: graphqlHeaders(inputs.createToken),
          setupRequest(request: RawRequest): RawRequest {
            request.body = graphqlBody(DOCUMENTS.create, { input: graphqlCreateInput(nextPartnerCampaignId++) });
            return request;
          },
        },
      ],
      verify: (body) => hasDataNoErrors(body) && body.includes('"userErrors":[]') && body.includes('"campaign":{"id"'),
      expectedCalls: { 'campaigns/create': 1 },
    },
  ];
}

/**
 * A second BFF process, identical to the first but for `env`, on which some scenarios run again
 * right after their run on the first: the same world, the same moment of the machine, so the
 * difference is what `env` changes.
 */
export interface BffTwin {
  target: TwinTarget;
  /** Process name in error messages. */
  name: string;
  env: Record<string, string>;
  /** Appended to the scenario's key and label. */
  suffix: { key: string; label: string };
  /** The scenarios repeated on it. */
  keys: readonly string[];
}

/** `--tracing`: every span exported to `sinkOrigin`; a warm read, one call, a fan-out of 51. */
export const tracedTwin = (sinkOrigin: string): BffTwin => ({
  target: 'bff-traced',
  name: 'BFF traced',
  // Every request sampled: the dearest case.
  env: { OTEL_EXPORTER_OTLP_ENDPOINT: sinkOrigin, OTEL_SERVICE_NAME: 'campaign-bff-bench', OTEL_TRACES_SAMPLER: 'always_on' },
  suffix: { key: 'traced', label: 'traced' },
  keys: ['categories', 'card', 'list-cards'],
});

/** Without the JSON line per request (what the request log line costs, measured). */
export const noRequestLogTwin: BffTwin = {
  target: 'bff-no-request-log',
  name: 'BFF without request log',
  env: { LOG_LEVEL: 'warn' },
  suffix: { key: 'no-request-log', label: 'no request log (LOG_LEVEL=warn)' },
  keys: ['categories'],
};

/** The same request and checks against the twin. */
export function twinScenario(scenario: Scenario, twin: BffTwin): Scenario {
  return { ...scenario, key: `${scenario.key}-${twin.suffix.key}`, label: `${scenario.label}, ${twin.suffix.label}`, target: twin.target };
}
