import { Kind, type GraphQLScalarType, type GraphQLScalarTypeConfig } from 'graphql';
import { GraphQLDateTime, GraphQLHexColorCode, GraphQLSafeInt, GraphQLURL } from 'graphql-scalars';
import { isMoney } from '../text/money.js';
import { BadBackendValueError } from './errors.js';

/** The behaviour of a scalar; its name and description come from schema/scalars.graphql. */
export type ScalarBehaviour = Pick<GraphQLScalarTypeConfig<unknown, unknown>, 'serialize' | 'parseValue' | 'parseLiteral'>;

/**
 * Output scalars. The values come from the campaign API, so a value a scalar cannot represent is
 * the backend's fault: it fails its field as BACKEND_BAD_RESPONSE, not as an internal error.
 * Only the functions are taken: graphql-tools would otherwise replace the SDL's descriptions.
 */
function fromBackend(scalar: Pick<GraphQLScalarType, 'name' | 'serialize' | 'parseValue' | 'parseLiteral'>): ScalarBehaviour {
  return {
    serialize(value) {
      try {
        return scalar.serialize(value);
      } catch (error) {
        throw new BadBackendValueError(scalar.name, error instanceof Error ? error.message : String(error));
      }
    },
    parseValue: (value) => scalar.parseValue(value),
    parseLiteral: (ast, variables) => scalar.parseLiteral(ast, variables),
  };
}

/**
 * Remembers a pure serialize's answers for strings. graphql-scalars' URL parses every value into
 * a URL object to normalise it, and a page of cards repeats the same few logos and links; the
 * memo is bounded (cleared when full) and keeps only values that serialized without error.
 */
export function memoisedSerialize(serialize: (value: unknown) => unknown, capacity = 512): (value: unknown) => unknown {
  const seen = new Map<string, unknown>();
  return (value) => {
    if (typeof value !== 'string') return serialize(value);
    const known = seen.get(value);
    if (known !== undefined) return known;
    const out = serialize(value);
    if (seen.size >= capacity) seen.clear();
    seen.set(value, out);
    return out;
  };
}

const url = { name: GraphQLURL.name, serialize: memoisedSerialize((value) => GraphQLURL.serialize(value)), parseValue: GraphQLURL.parseValue.bind(GraphQLURL), parseLiteral: GraphQLURL.parseLiteral.bind(GraphQLURL) };

const decimal = {
  name: 'Decimal',
  serialize(value: unknown) {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !isMoney(text)) {
      throw new TypeError(`Decimal must be a non-negative decimal with at most two decimals, got ${JSON.stringify(value)}`);
    }
    return text;
  },
  parseValue(value: unknown) {
    if (typeof value !== 'string' || !isMoney(value)) {
      throw new TypeError(`Decimal must be a string such as "15" or "10.00" (non-negative, at most two decimals), got ${JSON.stringify(value)}`);
    }
    return value;
  },
  parseLiteral(ast: Parameters<GraphQLScalarType['parseLiteral']>[0]) {
    if (ast.kind !== Kind.STRING || !isMoney(ast.value)) {
      throw new TypeError('Decimal must be a string such as "15" or "10.00" (non-negative, at most two decimals)');
    }
    return ast.value;
  },
};

export const scalarResolvers: Record<'DateTime' | 'HexColorCode' | 'URL' | 'Decimal' | 'SafeInt', ScalarBehaviour> = {
  DateTime: fromBackend(GraphQLDateTime),
  HexColorCode: fromBackend(GraphQLHexColorCode),
  URL: fromBackend(url as Pick<GraphQLScalarType, 'name' | 'serialize' | 'parseValue' | 'parseLiteral'>),
  Decimal: fromBackend(decimal as Pick<GraphQLScalarType, 'name' | 'serialize' | 'parseValue' | 'parseLiteral'>),
  // Ids and counts of the campaign API go up to 2^53 − 1; a 32-bit Int failed on 3000000000.
  SafeInt: fromBackend(GraphQLSafeInt),
};
