import { Kind, type GraphQLScalarType, type GraphQLScalarTypeConfig } from 'graphql';
import { GraphQLDateTime, GraphQLHexColorCode, GraphQLSafeInt, GraphQLURL } from 'graphql-scalars';
import { BoundedMemory } from '../bounded/index.js';
import { isMoney } from '../text/money.js';
import { BadBackendValueError } from './errors.js';

/** The behaviour of a scalar; its name and description come from schema/scalars.graphql. */
export type ScalarBehaviour = Pick<GraphQLScalarTypeConfig<unknown, unknown>, 'serialize' | 'parseValue' | 'parseLiteral'>;

/**
 * Scalars whose values a person types (timestamps, colours, links, money). Output: the values
 * come from the campaign API, so a value a scalar cannot represent is the backend's fault: it
 * fails its field as BACKEND_BAD_RESPONSE, not as an internal error. Input: only the JSON type is
 * checked here (a string, as `example` is); the form is checked by the mutation that takes it,
 * with the input's other rules, so a form gets every problem at once in `userErrors` instead of
 * a request error for the first malformed value. Only the functions are taken: graphql-tools
 * would otherwise replace the SDL's descriptions.
 */
function typedText(scalar: Pick<GraphQLScalarType, 'name' | 'serialize'>, example: string): ScalarBehaviour {
  const refuse = (what: string) => new TypeError(`${scalar.name} must be a string such as ${JSON.stringify(example)}, got ${what}`);
  return {
    serialize: fromBackend(scalar).serialize,
    parseValue(value) {
      if (typeof value !== 'string') throw refuse(value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value);
      return value;
    },
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING) throw refuse(`a literal of kind ${ast.kind}`);
      return ast.value;
    },
  };
}

/** Output scalars: the value comes from the campaign API (see `typedText`). */
function fromBackend(scalar: Pick<GraphQLScalarType, 'name' | 'serialize' | 'parseValue' | 'parseLiteral'> | Pick<GraphQLScalarType, 'name' | 'serialize'>): ScalarBehaviour {
  return {
    serialize(value) {
      try {
        return scalar.serialize(value);
      } catch (error) {
        throw new BadBackendValueError(scalar.name, error instanceof Error ? error.message : String(error));
      }
    },
    ...('parseValue' in scalar ? { parseValue: (value: unknown) => scalar.parseValue(value), parseLiteral: scalar.parseLiteral.bind(scalar) } : {}),
  };
}

/**
 * Remembers a pure serialize's answers for strings. graphql-scalars' URL parses every value into
 * a URL object to normalise it, and a page of cards repeats the same few logos and links; the
 * memo is bounded (the least recently used going first) and keeps only values that serialized
 * without error.
 */
export function memoisedSerialize(serialize: (value: unknown) => unknown, capacity = 512): (value: unknown) => unknown {
  const seen = new BoundedMemory<string, { out: unknown }>({ maxEntries: capacity });
  return (value) => {
    if (typeof value !== 'string') return serialize(value);
    const known = seen.get(value);
    if (known !== undefined) return known.out;
    const out = serialize(value);
    seen.set(value, { out });
    return out;
  };
}

const url = { name: GraphQLURL.name, serialize: memoisedSerialize((value) => GraphQLURL.serialize(value)) };

const decimal = {
  name: 'Decimal',
  serialize(value: unknown) {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !isMoney(text)) {
      throw new TypeError(`Decimal must be a non-negative decimal with at most two decimals, got ${JSON.stringify(value)}`);
    }
    return text;
  },
};

export const scalarResolvers: Record<'DateTime' | 'HexColorCode' | 'URL' | 'Decimal' | 'SafeInt', ScalarBehaviour> = {
  DateTime: typedText(GraphQLDateTime, '2026-03-01T09:00:00+03:00'),
  HexColorCode: typedText(GraphQLHexColorCode, '#1A237E'),
  URL: typedText(url, 'https://shop.example.ru/logo.png'),
  Decimal: typedText(decimal, '10.00'),
  // Ids and counts of the campaign API go up to 2^53 − 1; a 32-bit Int failed on 3000000000.
  SafeInt: fromBackend(GraphQLSafeInt),
};
