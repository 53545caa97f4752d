import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Integration suites start their own servers on port 0; two workers fit the 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
  },
});
