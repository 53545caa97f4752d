import type { RawRequest, RequestSpec } from 'autocannon';
import { graphqlCreateInput } from './campaign-samples.js';

/** The scenarios of issue 6: what each one sends, to which server, and what a right answer is. */

/** `bff-traced`: a second BFF process exporting every span (the `--tracing` runs). */
export type Target = 'floor' | 'stock-apollo' | 'bff' | 'bff-traced' | 'rest-floor' | 'feed-floor';

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
  listIds: `query ListIds { campaigns(first: ${PAGE_SIZE}) { nodes { id status } } }`,
  listCards: `query ListCards { campaigns(first: ${PAGE_SIZE}) { nodes { card { ${CARD_FIELDS} } } } }`,
  create:
    'mutation Create($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id status } userErrors { field message code } } }',
} as const;

export function graphqlBody(query: string, variables?: Record<string, unknown>): string {
  return JSON.stringify(variables ? { query, variables } : { query });
}

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
  /** A campaign of readToken for the card scenario. */
  cardId: number;
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
      key: 'card',
      label: 'card',
      target: 'bff',
      requests: [post('/graphql', graphqlBody(DOCUMENTS.card, { id: String(inputs.cardId) }))],
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

/** Scenarios the `--tracing` runs repeat on the traced BFF: a warm read, one call, a fan-out of 51. */
export const TRACED_KEYS: readonly string[] = ['categories', 'card', 'list-cards'];

/** The same request and checks against the BFF that exports every span. */
export function tracedScenario(scenario: Scenario): Scenario {
  return { ...scenario, key: `${scenario.key}-traced`, label: `${scenario.label}, traced`, target: 'bff-traced' };
}
