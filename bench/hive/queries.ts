import { DEMO_STORE_TOKEN } from '../lib/bff.js';
import { graphqlBody, graphqlHeaders, PAGE_SIZE, type Scenario } from '../lib/scenarios.js';

/**
 * The hive part's rows as a client of Hive Gateway asks them, in the schema Mesh makes of the
 * OpenAPI document (its type names are Mesh's, fixed by the pinned versions): what the BFF's
 * scenario of the same key reads, from the same campaigns. Each answer is checked to carry every
 * item asked for: an error envelope from the backend is data without them.
 */

/** The BFF scenarios the hive part compares, by key. */
export const HIVE_ROWS = ['by-ids', 'by-ids-one', 'card', 'categories', 'list-cards'] as const;

/** What the BFF's card is made of, as the REST API names it. */
const DETAILS =
  'merchantName description conditions discountType { String } discountAmount discountCurrency merchantLogoSvg merchantLogoPng backgroundColor fontColor backgroundImage acceptUrl';

const occurrences = (body: string, text: string) => body.split(text).length - 1;
const answered = (body: string) => body.startsWith('{"data"') && !body.includes('"errors"');

/** One operation call per id, as aliases of one query: what a client of the gateway writes. */
const byIds = (ids: number[]) =>
  graphqlBody(`query ByIds { ${ids.map((id, i) => `c${i}: get(input: { ymCampaignId: ${id} }) { ... on GetSuccess { result { ymCampaignId campaignStatus { String } } } }`).join(' ')} }`);

export function hiveScenarios(ids: number[]): Scenario[] {
  const page = ids.slice(0, PAGE_SIZE);
  const post = (body: string) => [{ method: 'POST', path: '/graphql', headers: graphqlHeaders(DEMO_STORE_TOKEN), body }];
  return [
    {
      key: 'by-ids',
      label: `campaignsByIds (${PAGE_SIZE}) [Hive]`,
      target: 'hive',
      requests: post(byIds(page)),
      verify: (body) => answered(body) && occurrences(body, '"campaignStatus"') === page.length,
    },
    {
      key: 'by-ids-one',
      label: `campaignsByIds (one id ${PAGE_SIZE} times) [Hive]`,
      target: 'hive',
      requests: post(byIds(page.map(() => page[0]!))),
      verify: (body) => answered(body) && occurrences(body, '"campaignStatus"') === page.length,
    },
    {
      key: 'card',
      label: 'card [Hive]',
      target: 'hive',
      requests: post(graphqlBody(`query Card($input: GetRequest_Input) { get(input: $input) { ... on GetSuccess { result { ${DETAILS} } } } }`, { input: { ymCampaignId: page[0] } })),
      verify: (body) => answered(body) && body.includes('"merchantName"'),
    },
    {
      key: 'categories',
      label: 'categories [Hive]',
      target: 'hive',
      requests: post(graphqlBody('query Categories { getCategories { ... on GetCategoriesSuccess { result { categories { categoryId categoryName } } } } }')),
      verify: (body) => answered(body) && body.includes('"categoryName"'),
    },
    {
      key: 'list-cards',
      label: `list cards (${PAGE_SIZE}) [Hive]`,
      target: 'hive',
      // The list, and each campaign's details through the field the composition adds (mesh.config.mjs).
      requests: post(
        graphqlBody(
          `query ListCards { getAllCampaigns(input: { limit: ${PAGE_SIZE}, offset: 0 }) { ... on GetAllCampaignsSuccess { campaigns { ymCampaignId details { ... on GetSuccess { result { ${DETAILS} } } } } } } }`,
        ),
      ),
      verify: (body) => answered(body) && occurrences(body, '"merchantName"') === PAGE_SIZE,
    },
  ];
}
