import { buildSchema, parse } from 'graphql';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/graphql/limits/cost.js';

// A miniature of the real schema's shape, annotated the same way.
const schema = buildSchema(`
  ${readFileSync(new URL('../../schema/directives.graphql', import.meta.url), 'utf8')}
  type Query {
    campaign(id: ID!): Campaign @backendCall(operation: "campaigns/get")
    campaigns(first: Int = 20): CampaignConnection! @backendCall(operation: "campaigns/get-all-campaigns") @listSize(slicingArguments: ["first"], sizedFields: ["nodes", "edges"])
    campaignsByIds(ids: [ID!]!): [Campaign]! @listSize(slicingArguments: ["ids"])
    categories: [Category!]!
  }
  type CampaignConnection { totalCount: Int! nodes: [Campaign!]! edges: [Edge!]! }
  type Edge { node: Campaign! }
  type Campaign {
    id: ID!
    status: String!
    title: String @backendCall(operation: "campaigns/get")
    merchant: Merchant @backendCall(operation: "campaigns/get")
    stats: Stats @backendCall(operation: "campaigns/info")
    pins(first: Int = 50): PinConnection! @backendCall(operation: "campaigns/get-pins-by-status") @listSize(slicingArguments: ["first"], sizedFields: ["nodes"])
  }
  type Merchant { name: String }
  type Stats { shows: Int }
  type PinConnection { totalCount: Int! nodes: [Pin!]! }
  type Pin { code: String! }
  type Category { id: ID! name: String! }
`);

const cost = (query: string, variables?: Record<string, unknown>) => estimateCost(schema, parse(query), undefined, variables);

describe('query cost estimate', () => {
  it('counts one list call for ids and statuses only', () => {
    expect(cost('{ campaigns(first: 50) { nodes { id status } } }').backendCalls).toBe(1);
  });

  it('counts a detail call per node once, however many detail fields', () => {
    expect(cost('{ campaigns(first: 50) { totalCount nodes { id title merchant { name } } } }')).toEqual({ backendCalls: 51, listNodes: 101 });
  });

  it('uses variables and argument defaults', () => {
    expect(cost('query($n: Int) { campaigns(first: $n) { nodes { title } } }', { n: 10 }).backendCalls).toBe(11);
    expect(cost('{ campaigns { nodes { title } } }').backendCalls).toBe(21);
  });

  it('sizes a list by the length of a list argument', () => {
    expect(cost('query($ids: [ID!]!) { campaignsByIds(ids: $ids) { title stats { shows } } }', { ids: ['1', '2', '3'] }).backendCalls).toBe(6);
  });

  it('multiplies nested lists, through fragments and inline fragments', () => {
    const query = `
      { campaigns(first: 100) { edges { node { ...F } } } }
      fragment F on Campaign { ... on Campaign { stats { shows } } pins(first: 1000) { nodes { code } } }`;
    expect(cost(query)).toEqual({ backendCalls: 1 + 100 * 2, listNodes: 1 + 100 + 100 + 100 + 100 + 100 * 1000 });
  });

  it('counts a call per distinct arguments, and ignores __typename and free fields', () => {
    expect(cost('{ a: campaign(id: 1) { title } b: campaign(id: 2) { __typename id } categories { id } }').backendCalls).toBe(3);
  });
});
