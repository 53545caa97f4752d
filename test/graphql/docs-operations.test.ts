import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The example operations in docs/operations run as they are against the demo data of the
 * embedded emulator (default moderation, as under `npm start`), in the order the README gives.
 */
const DIR = new URL('../../docs/operations/', import.meta.url);
const readme = readFileSync(new URL('README.md', DIR), 'utf8');
const listed = [...readme.matchAll(/\]\(\.\/([a-z-]+)\.graphql\)/g)].map((m) => m[1]!);
const files = readdirSync(DIR).filter((f) => f.endsWith('.graphql')).map((f) => f.replace(/\.graphql$/, ''));
const load = (name: string) => ({
  query: readFileSync(new URL(`${name}.graphql`, DIR), 'utf8'),
  variables: JSON.parse(readFileSync(new URL(`${name}.variables.json`, DIR), 'utf8')) as Record<string, unknown>,
});

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

describe('docs/operations', () => {
  it('lists every example in the README, and covers every query and mutation of the schema', () => {
    expect([...listed].sort()).toEqual([...files].sort());
    const schema = createSchema();
    const used = new Set(files.flatMap((name) => [...load(name).query.matchAll(/^\s{2}(\w+)[(\s{]/gm)].map((m) => m[1])));
    const roots = [...Object.keys(schema.getQueryType()!.getFields()), ...Object.keys(schema.getMutationType()!.getFields())];
    expect(roots.filter((field) => !used.has(field))).toEqual([]);
  });

  // The server validates each document against the schema, so this also proves them valid.
  it('run in README order without any error or user error', async () => {
    for (const name of listed) {
      const { query, variables } = load(name);
      const { status, body } = await stack.gql(query, variables);
      expect({ name, status, errors: body.errors }).toEqual({ name, status: 200, errors: undefined });
      const payload = Object.values(body.data as Record<string, { userErrors?: unknown[] }>)[0];
      if (payload && 'userErrors' in payload) expect({ name, userErrors: payload.userErrors }).toEqual({ name, userErrors: [] });
    }
  });
});
