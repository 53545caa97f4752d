import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  parse,
  print,
  validate,
  type GraphQLFormattedError,
  type OperationDefinitionNode,
} from 'graphql';
import { resolvers as graphqlScalars } from 'graphql-scalars';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  BusinessError,
  CircuitOpenError,
  ContractError,
  HttpStatusError,
  MalformedResponseError,
  NetworkError,
  OverloadedError,
  RequestRefusedError,
  TimeoutError,
  UnauthenticatedError,
} from '../../src/campaign-api/index.js';
import { describeCampaignApiError } from '../../src/campaigns/errors.js';
import { BadBackendValueError, MESSAGE_LIMIT, createErrorFormatter } from '../../src/graphql/errors.js';

const { formatError, formatGraphQLError } = createErrorFormatter(describeCampaignApiError);
import { scalarResolvers } from '../../src/graphql/scalars.js';
import { firstVariableError } from '../../src/graphql/variables.js';

/** What Apollo hands formatError: the formatted error, and the raw one wrapped as a resolver error. */
function format(error: Error, extensions: Record<string, unknown> = { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['Error: x', '    at y (/srv/z.ts:1:1)'] }) {
  const wrapped = new GraphQLError(error.message, { path: ['campaign'], originalError: error });
  const formatted: GraphQLFormattedError = { message: error.message, path: ['campaign'], locations: [{ line: 1, column: 3 }], extensions };
  return formatError(formatted, wrapped);
}

describe('formatError', () => {
  it.each([
    [new UnauthenticatedError('get', 401), 'UNAUTHENTICATED'],
    [new TimeoutError('get', 200, 'attempt'), 'BACKEND_UNAVAILABLE'],
    [new NetworkError('get', 'ECONNREFUSED', true), 'BACKEND_UNAVAILABLE'],
    [new HttpStatusError('get', 503), 'BACKEND_UNAVAILABLE'],
    [new CircuitOpenError('get'), 'BACKEND_UNAVAILABLE'],
    [new OverloadedError('get', 256, 1024), 'BACKEND_UNAVAILABLE'],
    [new MalformedResponseError('get', 'Unexpected token <', 200), 'BACKEND_BAD_RESPONSE'],
    [new ContractError('get', 'campaignStatus', 'expected string'), 'BACKEND_BAD_RESPONSE'],
    [new BadBackendValueError('URL', 'Invalid URL'), 'BACKEND_BAD_RESPONSE'],
    [new BusinessError('get', 'incorrectData', 'ymCampaignId is required'), 'BACKEND_REJECTED'],
    [new RequestRefusedError('get', 431), 'BACKEND_REFUSED'],
    [new AbortedError('get', 'caller'), 'REQUEST_CANCELLED'],
  ])('%s → %s, with our own message and no internals', (error, code) => {
    const out = format(error);
    expect(out.extensions?.code).toBe(code);
    expect(out.path).toEqual(['campaign']);
    expect(out.locations).toEqual([{ line: 1, column: 3 }]);
    expect(out.message).not.toBe(error.message);
    expect(JSON.stringify(out)).not.toMatch(/stacktrace|Unexpected token|ymCampaignId is required|ECONNREFUSED|expected string/);
  });

  it('a refusal without a code is the caller\'s own: BACKEND_REFUSED with its HTTP status, never BACKEND_UNAVAILABLE', () => {
    expect(format(new RequestRefusedError('info', 413))).toEqual({
      message:
        'The campaign API refused a statistics read of this request with HTTP 413 and no error code: what the request sent (such as an oversized Authorization header) or how often its caller asks. It was not tried again.',
      path: ['campaign'],
      locations: [{ line: 1, column: 3 }],
      extensions: { code: 'BACKEND_REFUSED', httpStatus: 413, operation: 'info' },
    });
  });

  it('hides anything unexpected behind an opaque internal error', () => {
    const out = format(new TypeError("Cannot read properties of undefined (reading 'merchantName')"));
    expect(out).toEqual({ message: 'Internal server error.', path: ['campaign'], locations: [{ line: 1, column: 3 }], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  });

  it('keeps errors that carry their own code (validation, limits, arguments) without their stack', () => {
    const own = new GraphQLError('Argument "first" must be from 0 to 100, got 101', { extensions: { code: 'BAD_USER_INPUT', argument: 'first' } });
    const out = formatError({ message: own.message, extensions: { code: 'BAD_USER_INPUT', argument: 'first', stacktrace: ['x'] } }, own);
    expect(out).toEqual({ message: own.message, extensions: { code: 'BAD_USER_INPUT', argument: 'first' } });
  });
});

/**
 * Whatever a scalar writes into its messages, what leaves is short: every scalar graphql-scalars
 * offers (any of them may be added to the schema later), this API's own, and scalars that echo a
 * value on purpose, each as an argument, sent a long bad value as a variable and as a literal.
 * The messages are made as the server makes them (variables.ts, graphql-js's validation) and
 * formatted as every path formats them.
 */
describe('what any scalar echoes', () => {
  const N = 100_000;
  const echoing = (name: string, reason: (value: unknown) => string) =>
    new GraphQLScalarType({
      name,
      parseValue(value) {
        throw new TypeError(reason(value));
      },
      parseLiteral(ast) {
        throw new TypeError(reason('value' in ast ? ast.value : print(ast)));
      },
    });
  const hostile = [
    echoing('BareEcho', (value) => `not a value: ${String(value)}`),
    echoing('JsonEcho', (value) => `not a value: ${JSON.stringify(value)}`),
    echoing('PartEcho', (value) => `not a value: ${String(value).slice(0, 5000)} (the first 5000)`),
  ];
  const ours = Object.keys(scalarResolvers).map((name) => new GraphQLScalarType({ name, ...scalarResolvers[name as keyof typeof scalarResolvers] }));
  const scalars = [...Object.values(graphqlScalars), ...ours.filter((s) => !(s.name in graphqlScalars)), ...hostile];
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: Object.fromEntries(scalars.map((scalar) => [`probe${scalar.name}`, { type: GraphQLBoolean, args: { v: { type: scalar } } }])),
    }),
  });

  const variables = [['x'.repeat(N)], ['a b '.repeat(N / 4)], ['9'.repeat(N)], [['x'.repeat(N)]], [{ k: 'x'.repeat(N) }], [{ ['k'.repeat(N)]: 1 }]];
  const literals = [`"${'x'.repeat(N)}"`, `"${'a b '.repeat(N / 4)}"`, '9'.repeat(N), `["${'x'.repeat(N)}"]`, `{ k: "${'a\\"b '.repeat(N / 4)}" }`];

  function short(error: GraphQLError): void {
    const { message } = formatGraphQLError(error);
    expect(message.length, message.slice(0, 200)).toBeLessThanOrEqual(MESSAGE_LIMIT + 1);
    for (const [span] of message.matchAll(/"((?:[^"\\]|\\.)*)"/g)) expect(span.length, span.slice(0, 100)).toBeLessThan(100);
    for (const text of message.split(/"(?:[^"\\]|\\.)*"/)) {
      for (const [run] of text.matchAll(/[^\s"]{42,}/gu)) expect.fail(`a bare run of ${run.length}: ${run.slice(0, 100)}`);
    }
  }

  it.each(scalars.map((scalar) => [scalar.name, scalar] as const))('%s: as a variable and as a literal', (_name, scalar) => {
    const document = parse(`query($v: ${scalar.name}) { probe${scalar.name}(v: $v) }`);
    const definitions = (document.definitions[0] as OperationDefinitionNode).variableDefinitions!;
    for (const [value] of variables) {
      const error = firstVariableError(schema, definitions, { v: value }, { hideSuggestions: false });
      if (error) short(error);
    }
    for (const literal of literals) {
      for (const error of validate(schema, parse(`{ probe${scalar.name}(v: ${literal}) }`))) {
        short(new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
      }
    }
  });
});
