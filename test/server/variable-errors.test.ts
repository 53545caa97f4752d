import {
  DirectiveLocation,
  coerceInputValue,
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isRequiredArgument,
  isRequiredInputField,
  isScalarType,
  parseValue,
  valueFromAST,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLScalarType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { captureLogs } from '../helpers/log-capture.js';
import { warmPath } from '../helpers/executor.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { liveClient, type Transport } from '../subscriptions/support.js';

/**
 * What a request with bad variables (or a bad literal) gets back, over HTTP, in both modes and on
 * both paths: the first request of a document goes through Apollo, the same request again goes to
 * the compiled path first. Production names no schema element the caller did not name
 * (no "Did you mean"), and no message quotes more than 40 characters of what it received.
 */
const X40 = 'x'.repeat(40);
const MILLION = 'x'.repeat(1_000_000);

/** Every quoted span of a message: at most 40 characters, or 40 and "…" when cut. */
function quotesAreShort(message: string): void {
  for (const [, inner] of message.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    const units = inner!.match(/\\u[0-9a-fA-F]{4}|\\[^]|[^]/gu) ?? [];
    const cut = units.length === 41 && units[40] === '…';
    expect(units.length <= 40 || cut, `quoted span of ${units.length} characters in ${message.slice(0, 300)}`).toBe(true);
  }
}

const ADD_PINS = 'mutation($input: AddPinsInput!) { addPins(input: $input) { storedCount } }';
const REPORT = 'mutation($input: ReportLeadInput!) { reportLead(input: $input) { lead { transactionId } } }';
const BY_STATUS = 'query($s: CampaignStatus) { campaigns(first: 1, status: $s) { totalCount } }';
const FIRST = 'query($n: Int) { campaigns(first: $n) { totalCount } }';
const BY_IDS = 'query($ids: [ID!]!) { campaignsByIds(ids: $ids) { id } }';
const LEAD = { campaignId: '1', transactionId: 't-1', campaignFee: '1' };

describe.each(['development', 'production'] as const)('variable errors in %s', (mode) => {
  let stack: Stack;
  const log = captureLogs();
  const lines = log.entries;
  let n = 0;

  beforeAll(async () => {
    stack = await startStack({
      env: mode === 'production' ? { NODE_ENV: 'production', CAMPAIGN_API_URL: 'http://127.0.0.1:1' } : {},
      logger: log.logger,
    });
  });
  afterAll(() => stack?.close());

  async function send(query: string, variables?: Record<string, unknown>) {
    const requestId = `${mode}-${++n}`;
    const response = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-store-token', 'x-request-id': requestId },
      body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as any, path: lines.find((l) => l.requestId === requestId)?.path };
  }

  /** The same request twice: Apollo's path, then the compiled path's turn. Both answers must match. */
  async function twice(query: string, variables?: Record<string, unknown>) {
    const first = await send(query, variables);
    const second = await send(query, variables);
    expect(second.status).toBe(first.status);
    expect(second.text).toBe(first.text);
    return [first, second] as const;
  }

  it('quotes 40 characters of a 1,000,000-character string sent for an Int, on both paths', async () => {
    // Registered with valid variables, so the bad ones below meet the compiled path first.
    expect((await send(FIRST, { n: 1 })).status).toBe(200);
    expect((await send(FIRST, { n: 1 })).path).toBe(warmPath);
    for (const answer of await twice(FIRST, { n: MILLION })) {
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(400);
      expect(answer.body.errors).toEqual([
        {
          message: `Variable "$n" got invalid value "${X40}…"; Int cannot represent non-integer value: "${X40}…"`,
          locations: [{ line: 1, column: 7 }],
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ]);
    }
  });

  it.each([
    ['a value inside an input object', ADD_PINS, { input: { campaignId: { id: MILLION }, pins: ['A'] } }, 'at "input.campaignId"'],
    ['a list item', ADD_PINS, { input: { campaignId: '1', pins: ['A', [MILLION]] } }, 'at "input.pins[1]"'],
    ['a string in a nested list', BY_IDS, { ids: [[[MILLION, MILLION]]] }, 'at "ids[0]"'],
    ['an enum value inside an input object', REPORT, { input: { ...LEAD, redeemStatus: MILLION } }, 'does not exist in "RedeemStatus" enum'],
    ['an enum value with quotes and backslashes', BY_STATUS, { s: 'a"b\\c'.repeat(100_000) }, 'does not exist in "CampaignStatus" enum'],
    ['an unknown key of a nested input object', REPORT, { input: { ...LEAD, bonusDescription: { [`k${MILLION}`]: 1 } } }, 'is not defined by type "BonusDescriptionInput"'],
    ['an unknown key made of quotes', ADD_PINS, { input: { campaignId: '1', pins: ['A'], ['"'.repeat(1000)]: 1 } }, 'is not defined by type "AddPinsInput"'],
    ['a long list for a scalar', FIRST, { n: Array.from({ length: 10_000 }, () => 'y'.repeat(100)) }, 'Int cannot represent'],
    // As deep as a JSON body may nest (src/http/json.ts): deeper is refused before it is parsed.
    ['a deeply nested list for an ID', BY_IDS, { ids: JSON.parse(`${'['.repeat(60)}"id"${']'.repeat(60)}`) }, 'at "ids[0]"'],
  ])('cuts %s to a short quote, on both paths', async (_name, query, variables, says) => {
    for (const answer of await twice(query, variables)) {
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(600);
      const [error] = answer.body.errors;
      expect(error.extensions.code).toBe('BAD_USER_INPUT');
      expect(error.message).toContain(says);
      expect(error.message).toContain('…');
      quotesAreShort(error.message);
    }
  });

  it.each([
    ['a string literal for an Int', `{ campaigns(first: "${MILLION}") { totalCount } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['a list literal for an Int', `{ campaigns(first: [${'1, '.repeat(2000)}1]) { totalCount } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['a block string literal with quotes', `{ campaigns(first: """${'a"b '.repeat(100_000)}""") { totalCount } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['an unknown field with a long name', `{ ${'f'.repeat(100_000)} }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['an unexpected string token', `{ campaigns(first: 1 "${'s\\" '.repeat(100_000)}") { totalCount } }`, 'GRAPHQL_PARSE_FAILED'],
    ['an unexpected name token', `{ categories { id } } ${'n'.repeat(100_000)}`, 'GRAPHQL_PARSE_FAILED'],
  ])('cuts what it echoes of the document: %s', async (_name, query, code) => {
    const answer = await send(query);
    expect(answer.status).toBe(400);
    expect(answer.text.length).toBeLessThan(400);
    expect(answer.body.errors[0].extensions.code).toBe(code);
    expect(answer.body.errors[0].message).toContain('…');
    quotesAreShort(answer.body.errors[0].message);
  });

  // What each request would be told in development, and must not be in production.
  it.each([
    ['an enum variable', BY_STATUS, { s: 'STARTE' }, 'STARTED'],
    ['an unknown input field in a variable', ADD_PINS, { input: { campaignId: '1', pins: ['A'], pinz: ['B'] } }, '"pins"'],
    ['an enum inside an input variable', REPORT, { input: { ...LEAD, redeemStatus: 'APPROVE' } }, 'APPROVED'],
    ['an unknown field of a nested input variable', REPORT, { input: { ...LEAD, bonusDescription: { categori: 'x' } } }, '"category"'],
    ['an enum literal', '{ campaigns(first: 1, status: STARTE) { totalCount } }', undefined, 'STARTED'],
    ['an input field literal', 'mutation { addPins(input: { campaignId: "1", pins: [], pinz: [] }) { storedCount } }', undefined, '"pins"'],
    ['a field', '{ campaignz(first: 1) { totalCount } }', undefined, '"campaigns"'],
    ['an argument', '{ campaigns(firs: 1) { totalCount } }', undefined, '"first"'],
    ['a type', 'query($s: CampaignStatu) { campaigns(first: 1, status: $s) { totalCount } }', { s: 'STARTED' }, '"CampaignStatus"'],
  ])(`${mode === 'production' ? 'suggests nothing' : 'suggests the name'} for %s, on both paths`, async (_name, query, variables, suggestion) => {
    for (const answer of await twice(query, variables)) {
      expect(answer.status).toBe(400);
      const { message } = answer.body.errors[0];
      if (mode === 'production') {
        expect(message).not.toMatch(/Did you mean/);
        expect(message).not.toContain(suggestion);
      } else {
        expect(message).toMatch(/Did you mean/);
        expect(message).toContain(suggestion);
      }
    }
  });

  it.each(['websocket', 'sse'] as const)(`${mode === 'production' ? 'suggests nothing' : 'suggests the name'} for an enum variable of a subscription over %s`, async (transport) => {
    const client = liveClient(transport, stack.bffUrl, 'demo-store-token');
    try {
      const subscription = client.subscribe('subscription($s: PinStatus!) { campaignChanged { campaign { pins(status: $s) { totalCount } } } }', { s: 'NEW_UNUSE' });
      const { error } = await subscription.ended;
      const [refusal] = (error as any[] | undefined) ?? subscription.results[0]!.errors!;
      expect(refusal.extensions.code).toBe('BAD_USER_INPUT');
      expect(refusal.message).toMatch(/^Variable "\$s" got invalid value "NEW_UNUSE"; Value "NEW_UNUSE" does not exist in "PinStatus" enum\./);
      if (mode === 'production') expect(refusal.message).not.toMatch(/Did you mean|NEW_UNUSED/);
      else expect(refusal.message).toContain('Did you mean the enum value "NEW_UNUSED"?');
    } finally {
      await client.close();
    }
  });

  it('still answers valid variables of the same documents when they run again', async () => {
    await send(BY_STATUS, { s: 'STARTED' });
    const again = await send(BY_STATUS, { s: 'STARTED' });
    expect(again.status).toBe(200);
    expect(again.path).toBe(warmPath);
  });
});

/**
 * Every scalar of the schema, built-in and custom (a scalar added later included), sent a huge bad
 * value on every path: POST to Apollo (a document seen for the first time) and to the compiled
 * path (the same document once accepted), GET, and subscriptions over WebSocket and SSE, as a
 * variable and as a literal, wherever the schema takes that scalar as input. A scalar the schema
 * takes nowhere is still declared as a variable (refused, as unused). Each answer stays a few KB.
 * GET and the subscription transports take smaller messages (the URL limit, 64 KB), so they get
 * the largest value that fits.
 */
describe('every scalar of the schema, on every path', () => {
  type Operation = 'query' | 'mutation' | 'subscription';
  interface Position {
    /** The type of the variable that stands for the value. */
    type: GraphQLInputType;
    /** The operation's selection with `value` (a literal, or `$v`) in place. */
    select(value: string): string;
  }

  const schema = createSchema();
  const SIZE = { post: 1_000_000, get: 5_000, live: 30_000 };
  const SMALL = 4096;

  /** A literal the type takes, for what the document needs besides the value tried. */
  function filler(type: GraphQLInputType): string | undefined {
    if (isNonNullType(type)) return filler(type.ofType);
    if (isListType(type)) return filler(type.ofType);
    if (isEnumType(type)) return type.getValues()[0]!.name;
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields()).filter((f) => isRequiredInputField(f));
      const values = fields.map((f) => [f.name, filler(f.type)] as const);
      return values.every(([, v]) => v !== undefined) ? `{ ${values.map(([n, v]) => `${n}: ${v}`).join(', ')} }` : undefined;
    }
    return ['1', '"1"', 'true'].find((candidate) => valueFromAST(parseValue(candidate), type) !== undefined);
  }

  const required = (args: readonly GraphQLArgument[], but?: string) => {
    const values = args.filter((a) => isRequiredArgument(a) && a.name !== but).map((a) => [a.name, filler(a.type)] as const);
    return values.every(([, v]) => v !== undefined) ? values.map(([n, v]) => `${n}: ${v}`) : undefined;
  };
  const call = (name: string, args: string[]) => (args.length ? `${name}(${args.join(', ')})` : name);
  const leaf = (type: GraphQLOutputType) => (isCompositeType(getNamedType(type)) ? ' { __typename }' : '');

  /** Where in an input of `type` the scalar goes, and the literal around it. */
  function inside(type: GraphQLInputType, scalar: GraphQLScalarType, seen = new Set<string>()): { type: GraphQLInputType; wrap: (v: string) => string } | undefined {
    const named = getNamedType(type);
    if (named === scalar) return { type, wrap: (v) => v };
    if (!isInputObjectType(named) || seen.has(named.name)) return undefined;
    seen.add(named.name);
    for (const field of Object.values(named.getFields())) {
      const found = inside(field.type, scalar, seen);
      if (!found) continue;
      const others = Object.values(named.getFields()).filter((f) => f !== field && isRequiredInputField(f)).map((f) => [f.name, filler(f.type)] as const);
      if (others.some(([, v]) => v === undefined)) continue;
      return { type: found.type, wrap: (v) => `{ ${[`${field.name}: ${found.wrap(v)}`, ...others.map(([n, v]) => `${n}: ${v}`)].join(', ')} }` };
    }
    return undefined;
  }

  /** The shallowest argument (or, failing that, directive argument) of an operation that takes the scalar. */
  function positionOf(operation: Operation, scalar: GraphQLScalarType): Position | undefined {
    const root = operation === 'query' ? schema.getQueryType() : operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
    if (!root) return undefined;
    let level: Array<{ type: GraphQLObjectType; around: (s: string) => string }> = [{ type: root, around: (s) => s }];
    for (let depth = 0; depth < 4 && level.length; depth++) {
      const next: typeof level = [];
      for (const { type, around } of level) {
        for (const field of Object.values(type.getFields())) {
          for (const arg of field.args) {
            const found = inside(arg.type, scalar);
            const others = required(field.args, arg.name);
            if (found && others) return { type: found.type, select: (v) => around(`${call(field.name, [`${arg.name}: ${found.wrap(v)}`, ...others])}${leaf(field.type)}`) };
          }
          const named = getNamedType(field.type);
          const args = required(field.args);
          if (isObjectType(named) && args) next.push({ type: named, around: (s) => around(`${call(field.name, args)} { ${s} }`) });
        }
      }
      level = next;
    }
    // A directive on a field: inside the first field for a subscription, which selects exactly one.
    for (const directive of schema.getDirectives()) {
      if (!directive.locations.includes(DirectiveLocation.FIELD)) continue;
      for (const arg of directive.args) {
        if (getNamedType(arg.type) !== scalar) continue;
        const first = Object.values(root.getFields()).find((f) => isObjectType(getNamedType(f.type)) && required(f.args)?.length === 0);
        const at = (v: string) => `__typename @${directive.name}(${arg.name}: ${v})`;
        return { type: arg.type, select: (v) => (operation === 'subscription' ? `${first!.name} { ${at(v)} }` : at(v)) };
      }
    }
    return undefined;
  }

  /** Huge values no scalar takes whole, as JSON variables and as literals, of about `size` characters. */
  const variablesOf = (size: number): unknown[] => ['x'.repeat(size), 'a b '.repeat(size / 4), '9'.repeat(size), ['x'.repeat(size)], { k: 'x'.repeat(size) }, { ['k'.repeat(size)]: 1 }];
  const literalsOf = (size: number): string[] => [`"${'x'.repeat(size)}"`, `"${'a b '.repeat(size / 4)}"`, '9'.repeat(size), `["${'x'.repeat(size)}"]`, `{ k: "${'a\\"b '.repeat(size / 4)}" }`];
  const refused = (type: GraphQLInputType, value: unknown) => {
    try {
      coerceInputValue(value, type);
      return false;
    } catch {
      return true;
    }
  };

  let stack: Stack;
  let n = 0;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  /** A document no request has sent yet, so its first request meets Apollo. */
  const documentOf = (operation: Operation, position: Position, value: string, variable: boolean) =>
    `${operation} Probe${++n}${variable ? `($v: ${String(position.type)})` : ''} { ${position.select(value)} }`;
  const unused = (operation: Operation, scalar: GraphQLScalarType) => {
    const root = operation === 'subscription' ? `${Object.keys(schema.getSubscriptionType()!.getFields())[0]} { __typename }` : '__typename';
    return `${operation} Probe${++n}($v: ${scalar.name}) { ${root} }`;
  };

  function small(text: string, what: string): void {
    expect(text.length, `${what}: ${text.slice(0, 300)}`).toBeLessThan(SMALL);
    for (const message of text.matchAll(/"message":"((?:[^"\\]|\\.)*)"/g)) quotesAreShort(JSON.parse(`"${message[1]}"`));
  }

  async function post(query: string, variables?: Record<string, unknown>) {
    const response = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-store-token' },
      body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
    });
    return response.text();
  }
  async function get(query: string, variables?: Record<string, unknown>) {
    const search = new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
    const response = await fetch(`${stack.bffUrl}?${search}`, { headers: { authorization: 'Bearer demo-store-token', 'apollo-require-preflight': 'true' } });
    // The request reached the server whole (Node answers 431 to a request line over its limit).
    expect(response.status).not.toBe(431);
    return response.text();
  }
  /** Everything a subscription received until it ended. */
  async function live(transport: Transport, query: string, variables?: Record<string, unknown>) {
    const client = liveClient(transport, stack.bffUrl, 'demo-store-token');
    try {
      const subscription = client.subscribe(query, variables);
      const { error } = await subscription.ended;
      const text = JSON.stringify({ results: subscription.results, error });
      // Refused by GraphQL, not by the transport's size limit.
      expect(text).toContain('"message"');
      return text;
    } finally {
      await client.close();
    }
  }

  const scalars = Object.values(schema.getTypeMap()).filter((type): type is GraphQLScalarType => isScalarType(type));

  it('knows the scalars it tries: every one of the schema, those it takes as input among them', () => {
    expect(scalars.map((s) => s.name).sort()).toEqual(['Boolean', 'DateTime', 'Decimal', 'Float', 'HexColorCode', 'ID', 'Int', 'SafeInt', 'String', 'URL']);
    const taken = scalars.filter((s) => (['query', 'mutation'] as const).some((o) => positionOf(o, s))).map((s) => s.name);
    expect(taken.sort()).toEqual(['Boolean', 'DateTime', 'Decimal', 'HexColorCode', 'ID', 'Int', 'SafeInt', 'String', 'URL']);
  });

  it.each(scalars.map((s) => [s.name, s] as const))('%s: POST (Apollo, then the compiled path) and GET', async (_name, scalar) => {
    for (const operation of ['query', 'mutation'] as const) {
      const position = positionOf(operation, scalar);
      if (!position) {
        small(await post(unused(operation, scalar), { v: 'x'.repeat(SIZE.post) }), `${operation} with an unused $v`);
        continue;
      }
      const sends = operation === 'query' ? ([['POST', post, SIZE.post], ['GET', get, SIZE.get]] as const) : ([['POST', post, SIZE.post]] as const);
      for (const [method, send, size] of sends) {
        for (const literal of literalsOf(size)) small(await send(documentOf(operation, position, literal, false)), `${method} literal ${literal.slice(0, 20)}`);
        const good = JSON.parse(JSON.stringify(valueFromAST(parseValue(filler(position.type)!), position.type)));
        for (const value of variablesOf(size)) {
          const query = documentOf(operation, position, '$v', true);
          small(await send(query, { v: value }), `${method} ${query.slice(0, 80)} cold`);
          // Accepted once with a good value, the document is the compiled path's to answer first.
          expect(await send(query, { v: good })).not.toContain('GRAPHQL_VALIDATION_FAILED');
          small(await send(query, { v: value }), `${method} ${query.slice(0, 80)} warm`);
        }
      }
    }
  });

  it.each(scalars.map((s) => [s.name, s] as const))('%s: subscriptions over WebSocket and SSE', async (_name, scalar) => {
    const position = positionOf('subscription', scalar);
    for (const transport of ['websocket', 'sse'] as const) {
      if (!position) {
        small(await live(transport, unused('subscription', scalar), { v: 'x'.repeat(SIZE.live) }), `${transport} with an unused $v`);
        continue;
      }
      // Only values the scalar refuses: one it takes would start a subscription that waits for events.
      for (const literal of literalsOf(SIZE.live)) {
        if (valueFromAST(parseValue(literal), position.type) !== undefined) continue;
        small(await live(transport, documentOf('subscription', position, literal, false)), `${transport} literal ${literal.slice(0, 20)}`);
      }
      for (const value of variablesOf(SIZE.live)) {
        if (!refused(position.type, value)) continue;
        small(await live(transport, documentOf('subscription', position, '$v', true), { v: value }), `${transport} variable`);
      }
    }
  });
});
