/**
 * The compiled path's setting of the vitest project this file runs in (vitest.config.ts): on in
 * `compiled`, off in `uncompiled`, which sets BFF_TEST_COMPILED_OPERATIONS=false. Every BFF
 * started through test/helpers/stack.ts or test/helpers/built-entry.ts takes it as
 * COMPILED_OPERATIONS unless the test sets COMPILED_OPERATIONS itself; a test that builds a BFF's
 * configuration of its own puts `executorEnv` first in it.
 */
const setting = process.env.BFF_TEST_COMPILED_OPERATIONS;

/** The environment a BFF of this project gets first, before a test's own variables. */
export const executorEnv: Readonly<Record<string, string>> = Object.freeze(setting === undefined ? {} : ({ COMPILED_OPERATIONS: setting } as Record<string, string>));

/** The `path` of a request's log line when its document runs again (and is not remembered): `compiled`, or `apollo` with the compiled path off. */
export const warmPath: 'compiled' | 'apollo' = setting === 'false' ? 'apollo' : 'compiled';
