import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isCompositeType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROOT_FIELDS, APP_TYPES } from '../../src/apps/scope.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { newPartner } from '../graphql/support.js';
import { WebSocket } from 'ws';
import { app, DEMO_APP, DEMO_APP_KEY, partner, post } from './support.js';

/**
 * Walks the whole schema, as introspection gives it, with an app key: every root field and every
 * field of every type reachable from a root. Only offerFeed, categories and the fields of what
 * they return answer; everything else is FORBIDDEN with no backend call, on Apollo's path and on
 * the compiled path (each document is first run by a partner so the compiled path knows it).
 */

const SCALARS: Record<string, string> = {
  Int: '1',
  Float: '1',
  String: '"x"',
  Boolean: 'true',
  ID: '"1"',
  DateTime: '"2030-01-01T00:00:00Z"',
  URL: '"https://shop.example.ru/"',
  HexColorCode: '"#000000"',
  Decimal: '"1"',
  SafeInt: '1',
};

/** A literal that passes validation for this input type. */
function literal(type: GraphQLInputType): string {
  if (isNonNullType(type)) return literal(type.ofType);
  if (isListType(type)) return `[${literal(type.ofType)}]`;
  if (isScalarType(type)) return SCALARS[type.name] ?? '"x"';
  if (isEnumType(type)) return type.getValues().find((v) => v.name !== 'UNKNOWN')!.name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return `{ ${fields.map((f) => `${f.name}: ${literal(f.type)}`).join(', ')} }`;
  }
  throw new Error(`no literal for ${String(type)}`);
}

function call(field: GraphQLField<unknown, unknown>): string {
  const required = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  return required.length ? `${field.name}(${required.map((a) => `${a.name}: ${literal(a.type)}`).join(', ')})` : field.name;
}

interface Probe {
  coordinate: string;
  operation: 'query' | 'mutation' | 'subscription';
  document: string;
  allowed: boolean;
}

/**
 * One probe per field: the shortest path from a root to its type, then the field. The query root
 * is walked twice: from the app's root fields only (every probe allowed), and from every root
 * field (a probe is allowed only along a public path).
 */
function probes(schema: GraphQLSchema): Probe[] {
  const out: Probe[] = [];
  const walk = (operation: Probe['operation'], root: GraphQLObjectType, publicOnly: boolean) => {
    const paths = new Map<GraphQLObjectType, string[]>([[root, []]]);
    const queue: GraphQLObjectType[] = [root];
    while (queue.length) {
      const type = queue.shift()!;
      const path = paths.get(type)!;
      for (const field of Object.values(type.getFields())) {
        if (publicOnly && path.length === 0 && !APP_ROOT_FIELDS.has(field.name)) continue;
        const named = getNamedType(field.type);
        const selection = isCompositeType(named) ? `${call(field)} { __typename }` : call(field);
        const document = `${operation} { ${path.map((p) => `${p} { `).join('')}${selection}${' }'.repeat(path.length)} }`;
        const allowed =
          operation === 'query' &&
          (path.length === 0 ? APP_ROOT_FIELDS.has(field.name) : APP_TYPES.has(type.name) && APP_ROOT_FIELDS.has(path[0]!.split('(')[0]!));
        out.push({ coordinate: `${type.name}.${field.name}`, operation, document, allowed });
        if (isObjectType(named) && !paths.has(named)) {
          paths.set(named, [...path, call(field)]);
          queue.push(named);
        }
      }
    }
  };
  walk('query', schema.getQueryType()!, true);
  walk('query', schema.getQueryType()!, false);
  if (schema.getMutationType()) walk('mutation', schema.getMutationType()!, false);
  if (schema.getSubscriptionType()) walk('subscription', schema.getSubscriptionType()!, false);
  return out;
}

let stack: Stack;
let schema: GraphQLSchema;
let primer: string;

beforeAll(async () => {
  stack = await startStack({ appKeys: DEMO_APP, emulator: { moderation: { mode: 'manual' } } });
  const introspection = await post(stack.bffUrl, { query: getIntrospectionQuery() }, partner(DEMO_TOKENS.store));
  schema = buildClientSchema(introspection.body.data);
  primer = await newPartner(stack, 'store');
});
afterAll(() => stack?.close());

describe('an app key walks the whole schema', () => {
  it('reaches offerFeed, categories and what they return; every other field and every mutation is FORBIDDEN with no backend call', async () => {
    const all = probes(schema);
    // Every object type of the schema is reached by the walk.
    const types = new Set(all.map((p) => p.coordinate.split('.')[0]));
    const objectTypes = Object.values(schema.getTypeMap()).filter((t) => isObjectType(t) && !t.name.startsWith('__'));
    expect(objectTypes.filter((t) => !types.has(t.name)).map((t) => t.name)).toEqual([]);
    // The public walk reached every field of the types an app key may read.
    const allowedCoordinates = new Set(all.filter((p) => p.allowed).map((p) => p.coordinate));
    for (const name of APP_TYPES) {
      const type = schema.getType(name) as GraphQLObjectType;
      for (const field of Object.keys(type.getFields())) expect(allowedCoordinates).toContain(`${name}.${field}`);
    }
    expect(all.filter((p) => !p.allowed).length).toBeGreaterThan(100);

    for (const probe of all) {
      // A partner (with no campaigns, so no write changes anything) runs it first: the compiled
      // path then knows the document, and must still refuse it to an app key.
      if (probe.operation === 'query') await post(stack.bffUrl, { query: probe.document }, partner(primer));
      await stack.resetCalls();
      const answer = await post(stack.bffUrl, { query: probe.document }, app());
      const calls = await stack.calls();
      if (probe.allowed) {
        expect({ probe: probe.coordinate, status: answer.status, errors: answer.body.errors }).toEqual({ probe: probe.coordinate, status: 200, errors: undefined });
      } else if (probe.operation === 'subscription') {
        // No one runs a subscription over plain HTTP (it is refused before any scope check); an
        // app key over the streaming transports is refused below.
        expect({ probe: probe.coordinate, status: answer.status, code: answer.body.errors?.[0]?.extensions?.code, calls }).toEqual({
          probe: probe.coordinate,
          status: 400,
          code: 'GRAPHQL_VALIDATION_FAILED',
          calls: {},
        });
      } else {
        expect({ probe: probe.coordinate, status: answer.status, code: answer.body.errors?.[0]?.extensions?.code, calls }).toEqual({
          probe: probe.coordinate,
          status: 403,
          code: 'FORBIDDEN',
          calls: {},
        });
        expect(answer.body.data).toBeUndefined();
        const fields: string[] = answer.body.errors[0].extensions.fields;
        expect(fields.some((f) => f === probe.coordinate || f === 'Mutation' || f === 'Subscription' || !APP_TYPES.has(f.split('.')[0]!))).toBe(true);
      }
      // Nothing an app key is answered carries a partner token.
      expect(answer.text).not.toContain(DEMO_TOKENS.store);
      expect(answer.text).not.toContain(DEMO_TOKENS.aggregator);
    }
  }, 120_000);

  it('refuses an app key on the subscription transports, even where a request without a token acts as the demo partner', async () => {
    const dev = await startStack({ appKeys: DEMO_APP, fallbackToken: DEMO_TOKENS.store });
    try {
      const socket = new WebSocket(dev.bffUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers: { 'x-app-key': DEMO_APP_KEY } });
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      const [code] = await new Promise<[number, string]>((resolve) => socket.on('close', (c, reason) => resolve([c, reason.toString()])));
      expect(code).toBe(4403);

      const sse = await fetch(`${dev.bffUrl}/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-app-key': DEMO_APP_KEY },
        body: JSON.stringify({ query: 'subscription { campaignChanged { status } }' }),
      });
      expect(sse.status).toBe(403);
      expect(((await sse.json()) as any).errors[0].extensions.code).toBe('FORBIDDEN');
    } finally {
      await dev.close();
    }
  });

  it('refuses a mixed operation as a whole, naming each field it may not reach', async () => {
    await stack.resetCalls();
    const answer = await post(stack.bffUrl, { query: '{ categories { id } campaigns { nodes { id stats { shows } } } campaign(id: "1") { partnerCampaignId rawStatus } }' }, app());
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', fields: ['Query.campaigns', 'Query.campaign'] });
    expect(answer.body.errors[0].message).toContain('Query.campaigns, Query.campaign');
    expect(await stack.calls()).toEqual({});
  });
});
