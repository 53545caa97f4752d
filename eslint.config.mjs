import graphql from '@graphql-eslint/eslint-plugin';

/**
 * graphql-eslint over the schema and over the operations clients send (`npm run lint:graphql`,
 * part of `npm test`). ESLint lints nothing else here: the TypeScript is checked by tsc and
 * dependency-cruiser. Every rule of the recommended schema, Relay and operations configs is on;
 * where a rule is configured or an exception made, the comment says why.
 */

const SCHEMA = 'schema/*.graphql';

/**
 * One GraphQL Config for every file (graphql-eslint loads one per process): the schema, and each
 * client's operations as a project of its own, so operation names are unique within a client
 * (docs/operations and the kit both have a StartCampaign), not across clients.
 */
const graphQLConfig = {
  projects: {
    docs: { schema: SCHEMA, documents: ['docs/operations/**/*.graphql'] },
    kit: { schema: SCHEMA, documents: ['client/src/**/*.ts', '!client/src/gql/**'] },
    schema: { schema: SCHEMA },
  },
};
const languageOptions = { parser: graphql.parser, parserOptions: { graphQLConfig } };

/**
 * The kit's documents are GraphQL inside TypeScript: the processor lints each `graphql(...)`
 * block, and hands ESLint the file itself too. tsc type-checks that TypeScript; ESLint is given an
 * empty program for it rather than a second TypeScript parser.
 */
const typescriptLeftToTsc = {
  meta: { name: 'typescript-left-to-tsc' },
  parseForESLint(code) {
    const lines = code.split('\n');
    const end = { line: lines.length, column: lines.at(-1).length };
    return {
      ast: { type: 'Program', body: [], sourceType: 'module', comments: [], tokens: [], range: [0, code.length], loc: { start: { line: 1, column: 0 }, end } },
      visitorKeys: { Program: [] },
    };
  },
};

const operationRules = {
  ...graphql.configs['flat/operations-recommended'].rules,
};

/** The operations of a client. */
const operations = (files) => ({ files, languageOptions, plugins: { '@graphql-eslint': graphql }, rules: operationRules });

export default [
  { ignores: ['**/node_modules/**', 'dist/**', 'client/src/gql/**'] },
  {
    files: [SCHEMA],
    languageOptions,
    plugins: { '@graphql-eslint': graphql },
    rules: {
      ...graphql.configs['flat/schema-recommended'].rules,
      ...graphql.configs['flat/schema-relay'].rules,
      // Objects without an id are parts of the object that holds them (a campaign's merchant,
      // discount, card, statistics; a page, an edge; a payload, a user error, an event) or values
      // with a key of their own that no client fetches again (a pin is its code, a lead its
      // transactionId, a category its directory number: docs/adr/global-object-ids.md). The kit's
      // cache policies merge them into their parent.
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          acceptedIdNames: ['id'],
          acceptedIdTypes: ['ID'],
          exceptions: {
            types: ['PageInfo', 'UserError', 'Pin', 'Lead', 'CampaignCard', 'CampaignStats', 'PinCounts', 'LeadCounts', 'OfferFeedCategory'],
            suffixes: ['Payload', 'Connection', 'Edge', 'Event', 'Merchant', 'Appearance', 'Discount', 'Fee', 'Settings', 'Cashback'],
          },
        },
      ],
      // Pages go forward only (`first`, `after`): the campaign API pages by offset from the
      // start, and no screen pages backwards.
      '@graphql-eslint/relay-arguments': ['error', { includeBoth: false }],
      // Pins and offers are reached through their campaign and are not nodes (see the ADR).
      '@graphql-eslint/relay-edge-types': ['error', { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false }],
    },
  },
  // docs/operations: the examples, one client.
  operations(['docs/operations/**/*.graphql']),
  // The client kit: its documents (which the browser example runs), another client.
  { files: ['client/src/**/*.ts'], processor: graphql.processor, languageOptions: { parser: typescriptLeftToTsc } },
  operations(['client/src/**/*.ts/*.graphql']),
];
