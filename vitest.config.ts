import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql ships CJS and ESM builds; type-graphql loads the CJS one. One realm for both (docs/design.md,
    // "Toolchain pins").
    alias: { graphql: 'graphql/index.js' },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more workers only contend for the database.
    maxWorkers: 2,
    // Passwords hashed at the lowest cost (N = 2^14) in the test processes (setup.ts) and the servers and scripts
    // they spawn (which inherit the environment); the default, 2^17, costs 128 MiB and ~0.3 s per hash.
    env: { NODE_ENV: 'test', PASSWORD_HASH_COST: '14' },
    setupFiles: ['test/helpers/setup.ts'],
    // Migrates and seeds once per run the template databases test files copy (test/helpers/db.ts).
    globalSetup: ['test/helpers/template.ts'],
  },
});
