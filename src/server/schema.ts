import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers.js';
import { scalarResolvers } from '../graphql/scalars.js';

/** `schema/` at the package root: the public contract, one file per domain area. */
export const SCHEMA_DIR = fileURLToPath(new URL('../../schema/', import.meta.url));

export function loadTypeDefs(dir = SCHEMA_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => readFileSync(dir + name, 'utf8'));
}

/** The executable schema: the typeDefs of schema/*.graphql with their resolvers, scalars and enum values. */
export function createSchema(): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: loadTypeDefs(),
    resolvers: [resolvers as never, scalarResolvers as never],
    // Every field of the schema has a resolver or a same-named property on its model; an enum or
    // object type without resolvers here is a mistake to catch at start-up.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
