import { buildSchema, getDirectiveValues, parse } from 'graphql';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/graphql/limits/cost.js';
import { createSchema } from '../../src/server/schema.js';

// A miniature of the real schema's shape, annotated the same way.
const schema = buildSchema(`
  ${readFileSync(new URL('../../schema/directives.graphql', import.meta.url), 'utf8')}
  type Query {
    campaign(id: ID!): Campaign @backendCall(operation: "campaigns/get")
    campaigns(first: Int = 20): CampaignConnection! @backendCall(operation: "campaigns/get-all-campaigns") @listSize(slicingArguments: ["first"], sizedFields: ["nodes", "edges"])
    campaignsByIds(ids: [ID!]!): [Campaign]! @backendCall(operation: "campaigns/get", perItem: true) @listSize(slicingArguments: ["ids"])
    nodes(ids: [ID!]!): [Node] @backendCall(operation: "campaigns/get", perItem: true) @listSize(slicingArguments: ["ids"])
    categories: [Category!]!
  }
  interface Node { id: ID! }
  type CampaignConnection { totalCount: Int! nodes: [Campaign!]! edges: [Edge!]! }
  type Edge { node: Campaign! }
  type Campaign implements Node {
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

  it('counts a call per id of a list read one call per item, whatever is selected, and lets the items\' fields share it', () => {
    const ids = (n: number) => `[${Array.from({ length: n }, (_, i) => `"${i + 1}"`).join(', ')}]`;
    expect(cost(`{ nodes(ids: ${ids(100)}) { id } }`)).toEqual({ backendCalls: 100, listNodes: 100 });
    expect(cost(`{ campaignsByIds(ids: ${ids(50)}) { __typename } }`).backendCalls).toBe(50);
    // The item was read by its call: title and merchant share it, stats is a call of its own.
    expect(cost(`{ nodes(ids: ${ids(100)}) { ... on Campaign { title merchant { name } stats { shows } } } }`).backendCalls).toBe(200);
    // A single id given bare is a list of one, as input coercion makes it.
    expect(cost('{ nodes(ids: "1") { id } }').backendCalls).toBe(1);
  });

  it('counts the ids of every alias, from literals and from variables, each list as often as its arguments differ', () => {
    const ids = (from: number) => Array.from({ length: 100 }, (_, i) => String(from + i));
    const literal = (from: number) => `[${ids(from).map((id) => `"${id}"`).join(',')}]`;
    const aliases = (field: string) => Array.from({ length: 15 }, (_, n) => `a${n}: ${field}(ids: ${literal(n * 100 + 1)}) { id }`).join(' ');
    expect(cost(`{ ${aliases('nodes')} }`).backendCalls).toBe(1500);
    expect(cost(`{ ${aliases('campaignsByIds')} }`).backendCalls).toBe(1500);
    const definitions = Array.from({ length: 15 }, (_, n) => `$v${n}: [ID!]!`).join(', ');
    const selections = Array.from({ length: 15 }, (_, n) => `a${n}: nodes(ids: $v${n}) { id }`).join(' ');
    const variables = Object.fromEntries(Array.from({ length: 15 }, (_, n) => [`v${n}`, ids(n * 100 + 1)]));
    expect(cost(`query (${definitions}) { ${selections} }`, variables).backendCalls).toBe(1500);
    // Items of a literal list given as variables, one by one.
    expect(cost('query ($a: ID!, $b: ID!) { nodes(ids: [$a, $b, "3"]) { id } }', { a: '1', b: '2' }).backendCalls).toBe(3);
    // The same list under two aliases is read once (the loader shares it).
    expect(cost(`{ a: nodes(ids: ${literal(1)}) { id } b: nodes(ids: ${literal(1)}) { id } }`).backendCalls).toBe(100);
    expect(cost('query ($v: [ID!]!) { a: nodes(ids: $v) { id } b: nodes(ids: $v) { id } }', { v: ids(1) }).backendCalls).toBe(100);
  });

  it('counts every plain list of the real schema that a backend call reads per item', () => {
    // A list (not a connection) under @backendCall is read by one call per item: forgetting
    // perItem on a new one would make a list of 100 ids cost one call.
    const real = createSchema();
    const backendCall = real.getDirective('backendCall')!;
    const lists: string[] = [];
    for (const field of Object.values(real.getQueryType()!.getFields())) {
      const call = field.astNode ? getDirectiveValues(backendCall, field.astNode) : undefined;
      if (call && String(field.type).startsWith('[')) lists.push(`${field.name}${call.perItem ? ' per item' : ''}`);
    }
    expect(lists.sort()).toEqual(['campaignsByIds per item', 'nodes per item']);
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
