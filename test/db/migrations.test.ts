import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, diffSchemas, loadMigrations, readSnapshot, trackNewTables } from '../../src/db/migrations.ts';
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

  // SQLite drops a table's triggers when a migration redefines the table: every trigger a migration made must still
  // be there at the end, unless a migration dropped it by name.
  it('sqlite: every trigger the migrations make survives the later ones', async () => {
    const { target, drop } = await emptyTarget('sqlite');
    drops.push(drop);
    await applyMigrations(target);
    const scripts = loadMigrations('sqlite').migrationDirectories.map((d) => d.migrationFile.content.value);
    const named = (re: RegExp) => new Set(scripts.flatMap((sql) => [...sql.matchAll(re)].map((m) => m[1])));
    const dropped = named(/^DROP TRIGGER (?:IF EXISTS )?"([^"]+)"/gm);
    const made = [...named(/^CREATE TRIGGER "([^"]+)"/gm)].filter((t) => !dropped.has(t));
    const db = new Database((target as { file: string }).file, { readonly: true });
    const present = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").pluck().all() as string[];
    db.close();
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((t) => !present.includes(t))).toEqual([]);
  });

  it('sqlite: a migration that redefines a table makes its triggers of our own again', () => {
    const redefined =
      'CREATE TABLE "new_User" ("id" INTEGER);\nDROP TABLE "User";\nALTER TABLE "new_User" RENAME TO "User";';
    expect(trackNewTables(redefined, 'sqlite')).toContain('CREATE TRIGGER "_prode_user_in_standings"');
    const predictions = redefined.replaceAll('User', 'Prediction');
    expect(trackNewTables(predictions, 'sqlite')).toContain('CREATE TRIGGER "_prode_prediction_player"');
  });
});
