import { defineConfig } from 'vitest/config';

// `unit`: the rules and the application layer over a database, with no HTTP server and no child process
// (`npm run test:unit`, the inner loop). A new test/app or test/domain file lands there by its folder; any other
// file that starts no server and spawns nothing is named here. `integration`: every other file.
const UNIT = [
  'test/app/**/*.test.ts',
  'test/lib/**/*.test.ts',
  'test/docs/function-length.test.ts',
  'test/domain/**/*.test.ts',
  'test/game/rescore-jobs.test.ts',
  'test/game/rescore-set-based.test.ts',
  'test/auth/passwords.test.ts',
  'test/auth/tokens.test.ts',
  'test/import/openfootball-parse.test.ts',
  'test/engine/db/auth-rows.test.ts',
  'test/db/bind-limit.test.ts',
  'test/db/company-code-case.test.ts',
  'test/db/constraints.test.ts',
  'test/engine/cache/table-versions.test.ts',
  'test/engine/cache/auth-row-cache.test.ts',
  'test/db/leases.test.ts',
  'test/db/migrations.test.ts',
  'test/db/rate-counters.test.ts',
  'test/engine/db/row-reader.test.ts',
  'test/engine/db/statement-names.test.ts',
  'test/db/statement-timeout.test.ts',
  'test/bench/engine-report.test.ts',
  'test/engine/graphql/lean-field-resolvers.test.ts',
  'test/graphql/subscriptions/stream.test.ts',
  'test/graphql/subscriptions/subscriber.test.ts',
  'test/engine/db/loader-rows.test.ts',
  'test/graphql/schema-descriptions.test.ts',
  'test/graphql/schema-file.test.ts',
  'test/engine/graphql/shared-subtrees/json.test.ts',
  'test/engine/graphql/shared-subtrees/executor.test.ts',
  'test/reliability/bench-generate.test.ts',
  'test/security/building-blocks.test.ts',
  'test/seed/demo-seed.test.ts',
  'test/server/app-url-warning.test.ts',
  'test/server/first-line.test.ts',
  'test/server/install-scripts.test.ts',
];
// Files that must have a process of their own (`isolate: true`), each for the reason given.
const ISOLATED: string[] = [];

// Negated include patterns, not `exclude`: a project's `exclude` would replace the command line's `--exclude`s.
const not = (patterns: string[]) => patterns.map((p) => `!${p}`);

export default defineConfig({
  resolve: {
    // graphql ships CJS and ESM builds; type-graphql loads the CJS one. One realm for both (docs/design.md,
    // "Toolchain pins").
    alias: { graphql: 'graphql/index.js' },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more workers only contend for the database.
    maxWorkers: 2,
    // Test files share a worker and its loaded modules (a fresh worker per file costs ~0.8 s of start-up each).
    // So a file puts back what it changes in a module's state (setup.ts resets the password hash cost before each
    // file), and a file that cannot is listed in ISOLATED.
    isolate: false,
    // Passwords hashed at the lowest cost (N = 2^14) in the test processes (setup.ts) and the servers and scripts
    // they spawn (which inherit the environment); the default, 2^17, costs 128 MiB and ~0.3 s per hash.
    env: { NODE_ENV: 'test', PASSWORD_HASH_COST: '14' },
    setupFiles: ['test/helpers/setup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: [...UNIT, ...not(ISOLATED)] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts', ...not(UNIT), ...not(ISOLATED)] } },
      ...(ISOLATED.length > 0 ? [{ extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } }] : []),
    ],

    // Migrates and seeds once per run the template databases test files copy (test/helpers/db.ts).
    globalSetup: ['test/helpers/template.ts'],
  },
});
