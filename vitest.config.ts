import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for Apollo and graphql-tools; Vite would pick the ESM
    // build for our own sources. Two copies break graphql's instanceof checks ("another module or
    // realm"), so the tests resolve graphql exactly as Node does in production.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/build.global.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Integration suites start their own servers on port 0; two workers fit the 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
  },
});
