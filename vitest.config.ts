import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql ships CJS and ESM builds; type-graphql loads the CJS one. One realm for both (DESIGN.md).
    alias: { graphql: 'graphql/index.js' },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more workers only contend for the database.
    maxWorkers: 2,
    env: { NODE_ENV: 'test' },
  },
});
