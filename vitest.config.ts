import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * Two projects. `compiled` runs every suite with the product's defaults: a document's first
 * request runs on Apollo, the next ones on the compiled path (graphql-jit). `uncompiled` runs again
 * the suites of requests through the GraphQL HTTP handler with the compiled path off
 * (COMPILED_OPERATIONS=false: Apollo runs every request), where what a client gets must not
 * change. Every BFF a test starts takes the project's setting (test/helpers/executor.ts) unless
 * the test sets COMPILED_OPERATIONS itself; `warmPath` says which executor answers a document's
 * later requests.
 */
const THROUGH_THE_HANDLER = [
  'test/graphql/**/*.test.ts',
  'test/apps/**/*.test.ts',
  'test/server/**/*.test.ts',
  'test/reliability/**/*.test.ts',
  'test/client-kit/**/*.test.ts',
  'test/cache/**/*.test.ts',
];

/**
 * In those folders, but left to the default project: they would only repeat themselves.
 * Not included at all: test/subscriptions (WebSocket and SSE execute with graphql-js's
 * `subscribe` whatever the setting), test/tracing (its end-to-end suite compares the compiled
 * path's trace with Apollo's itself), test/parity (runs an instance of each setting itself), and
 * the folders without a GraphQL request (unit, emulator, client, deploy, fleet, browser).
 */
const NOT_TWICE = [
  // The backend's faults and the breaker's timing: what is tested is the campaign API client,
  // whichever executor asked it.
  'test/reliability/fault-matrix.test.ts',
  // Unit tests: no server.
  'test/graphql/category-directory.test.ts',
  'test/graphql/discount-label.test.ts',
  'test/graphql/format-error.test.ts',
  'test/graphql/loaders.test.ts',
  'test/graphql/schema.test.ts',
  'test/cache/token-verdicts-conformance.test.ts',
  'test/client-kit/codegen.test.ts',
  'test/client-kit/guide.test.ts',
  'test/client-kit/schema-file.test.ts',
  // The process rather than its requests: the built entry's start-up, configuration, logs,
  // metrics port, shutdown and memory.
  'test/server/built-entry-*.test.ts',
  'test/server/removed-settings.test.ts',
  'test/server/start-commands.test.ts',
  'test/server/shutdown.test.ts',
  'test/server/operation-cache-memory.test.ts',
  'test/server/dependency-logs.test.ts',
  'test/server/metrics-port.test.ts',
  'test/server/source-maps.test.ts',
  'test/server/persisted-query-bounds.test.ts',
  'test/server/redis-keys.test.ts',
  'test/apps/hostile-sizes.test.ts',
  'test/client-kit/manifest-production.test.ts',
  'test/client-kit/npm-start.test.ts',
  // The kit packed and installed as another repository would: no request.
  'test/client-kit/package.test.ts',
  // Fleets of instances sharing Redis: what they share, not how each executes.
  'test/apps/fleet.test.ts',
  'test/cache/redis-ha-conformance.test.ts',
  'test/server/redis.test.ts',
  'test/server/shared-verdicts.test.ts',
  // Run both settings in each of their cases: request by request, Apollo against the compiled path.
  'test/apps/feed.test.ts',
  'test/server/operation-cache.test.ts',
];

// Node loads graphql's CommonJS build for Apollo and graphql-tools; Vite would pick the ESM build
// for our own sources. Two copies break graphql's instanceof checks ("another module or realm"), so
// the tests resolve graphql exactly as Node does in production.
const resolve = { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] };
// Projects do not inherit the root's test options: each states these.
const timeouts = { testTimeout: 20_000, hookTimeout: 20_000 };

export default defineConfig({
  resolve,
  test: {
    // Once per run, before either project (the build empties dist/ first).
    globalSetup: ['test/helpers/build.global.ts'],
    // Vitest's own report, then the files that skipped tests and the Debian package each needs.
    reporters: ['default', './test/helpers/skipped-suites.ts'],
    // Integration suites start their own servers on port 0; two workers fit the 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { resolve, test: { name: 'compiled', include: ['test/**/*.test.ts'], ...timeouts } },
      {
        resolve,
        test: {
          name: 'uncompiled',
          include: THROUGH_THE_HANDLER,
          exclude: [...configDefaults.exclude, ...NOT_TWICE],
          env: { BFF_TEST_COMPILED_OPERATIONS: 'false' },
          ...timeouts,
        },
      },
    ],
  },
});
