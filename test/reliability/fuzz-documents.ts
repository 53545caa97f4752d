import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { createSchema } from '../../src/server/schema.js';
import { seeded } from './support.js';

/** The random documents of fuzz.test.ts, built from the schema. */

// ---------------------------------------------------------------------------------------------
// Documents

const schema = createSchema();

interface Picker {
  /** A whole number from min to max, both included. */
  int(min: number, max: number): number;
  bool(): boolean;
}

function seededPicker(seed: number): Picker {
  const next = seeded(seed);
  return { int: (min, max) => min + Math.floor(next() * (max - min + 1)), bool: () => next() < 0.5 };
}

/** A literal for an argument: mostly sensible, sometimes out of bounds (which is BAD_USER_INPUT). */
function argumentLiteral(type: GraphQLInputType, random: Picker): string | undefined {
  const named = getNamedType(type);
  if (isListType(getNullableType(type))) {
    const n = random.int(0, 4);
    return `[${Array.from({ length: n }, () => argumentLiteral(named as GraphQLInputType, random)).join(', ')}]`;
  }
  if (isEnumType(named)) {
    const values = named.getValues();
    return values[random.int(0, values.length - 1)]!.name;
  }
  if (isInputObjectType(named)) return undefined;
  switch (named.name) {
    case 'ID':
      return JSON.stringify(['1', '2', '3', '9', '42', 'abc', '0'][random.int(0, 6)]);
    case 'Int':
      return String([0, 1, 3, 20, 100, 1000, 5000, -1][random.int(0, 7)]);
    case 'String':
      return JSON.stringify(['ru-RU', 'en-US', 'xx', '', 'bad locale'][random.int(0, 4)]);
    case 'Boolean':
      return random.bool() ? 'true' : 'false';
    default:
      return undefined;
  }
}

/** A random selection on `type`, `depth` levels at most, with random aliases and directives. */
function selection(type: GraphQLObjectType, depth: number, random: Picker): string {
  const fields = Object.values(type.getFields());
  const picked = new Set<number>();
  const count = random.int(1, Math.min(4, fields.length));
  while (picked.size < count) picked.add(random.int(0, fields.length - 1));
  const parts: string[] = [];
  for (const index of picked) {
    const field = fields[index]!;
    const named = getNamedType(field.type);
    if (isObjectType(named) && depth <= 0) continue;
    const args = field.args
      .filter((a: GraphQLArgument) => isNonNullType(a.type) || random.int(0, 2) === 0)
      .map((a) => [a.name, argumentLiteral(a.type, random)] as const)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}: ${v}`);
    if (field.args.some((a) => isNonNullType(a.type) && argumentLiteral(a.type, random) === undefined)) continue;
    const alias = random.int(0, 3) === 0 ? `a${random.int(0, 999)}: ` : '';
    const directive = random.int(0, 4) === 0 ? (random.bool() ? ' @include(if: true)' : ' @skip(if: false)') : '';
    const sub = isObjectType(named) ? ` { ${selection(named, depth - 1, random)} }` : '';
    parts.push(`${alias}${field.name}${args.length ? `(${args.join(', ')})` : ''}${directive}${sub}`);
  }
  return parts.length ? parts.join(' ') : '__typename';
}

/**
 * Documents built from the schema, 1 to 8 levels deep and up to 2 selections wide, some with an
 * alias or directive flood on top: within and beyond the limits.
 */
export const documents = fc
  .record({ depth: fc.integer({ min: 1, max: 8 }), repeat: fc.integer({ min: 1, max: 2 }), seed: fc.nat(), flood: fc.constantFrom('none', 'none', 'none', 'aliases', 'directives'), n: fc.integer({ min: 2, max: 14 }) })
  .map(({ depth, repeat, seed, flood, n }) => {
    const random = seededPicker(seed);
    const query = schema.getQueryType()!;
    const parts = Array.from({ length: repeat }, () => selection(query, depth, random));
    if (flood === 'aliases') parts.push(Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' '));
    if (flood === 'directives') parts.push(`__typename${' @include(if: true)'.repeat(n)}`);
    return `{ ${parts.join(' ')} }`;
  });
