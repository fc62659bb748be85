import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, diffSchemas, loadMigrations, readSnapshot } from '../../src/db/migrations.ts';
import { schemaFilters, withSchemaEngine } from '../../src/db/schema-engine.ts';
import { derivePostgresSchema, paths, PROVIDERS, readSchema } from '../../src/db/schema-files.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';

describe('schema and migrations', () => {
  it('the committed PostgreSQL schema is the one derived from the source (run npm run prisma:generate)', () => {
    expect(readFileSync(paths.schema('postgresql'), 'utf8')).toBe(derivePostgresSchema(readSchema('sqlite')));
  });

  it.each(PROVIDERS)(
    '%s: the schema has no change that lacks a migration (run npm run db:migration -- <name>)',
    async (p) => {
      const sql = await diffSchemas(readSnapshot(p), readSchema(p));
      expect(sql.trim()).toBe('');
    },
  );

  it.each(PROVIDERS)('%s: both providers have the same migration folders', (p) => {
    const names = (q: typeof p) => loadMigrations(q).migrationDirectories.map((d) => d.path);
    expect(names(p)).toEqual(names(PROVIDERS.find((q) => q !== p)!));
  });

  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  // The committed SQL must build exactly the schema: push the schema onto a freshly migrated database and
  // expect nothing left to do. The SQLite side always runs; PostgreSQL when the suite runs on it.
  it.each([...new Set(['sqlite', suiteProvider] as const)])(
    '%s: migrations apply once, idempotently, and build exactly the schema',
    async (provider) => {
      const { target, drop } = await emptyTarget(provider);
      drops.push(drop);
      const all = loadMigrations(provider).migrationDirectories.map((d) => d.path);
      expect(await applyMigrations(target)).toEqual(all);
      expect(await applyMigrations(target)).toEqual([]);
      const push = await withSchemaEngine(target, (engine) =>
        engine.schemaPush({
          force: false,
          schema: { files: [{ path: 'schema.prisma', content: readSchema(provider) }] },
          filters: schemaFilters(provider),
        }),
      );
      expect(push).toEqual({ executedSteps: 0, warnings: [], unexecutable: [] });
    },
  );
});
