import Sqlite from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { type DatabaseTarget } from './adapters.ts';
import { NO_FILTERS, withSchemaEngine } from './schema-engine.ts';
import { paths, type Provider } from './schema-files.ts';

const LOCKFILE = 'migration_lock.toml';

/** The committed migrations of one provider in the shape the engine takes: ordered folder names with their SQL. */
export function loadMigrations(provider: Provider) {
  const baseDir = paths.migrations(provider);
  const dirs = existsSync(baseDir)
    ? readdirSync(baseDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = `${baseDir}/${LOCKFILE}`;
  return {
    baseDir,
    lockfile: { path: LOCKFILE, content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: readFileSync(`${baseDir}/${name}/migration.sql`, 'utf8') },
      },
    })),
  };
}

/**
 * Names of the migrations the database records as applied, read with a plain driver connection. Starting the
 * wasm engine costs a few hundred milliseconds and, on SQLite, locks the file against other processes; when
 * nothing is pending it is not needed at all.
 */
export async function appliedMigrationNames(target: DatabaseTarget): Promise<Set<string>> {
  const sql = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';
  if (target.provider === 'sqlite') {
    if (!existsSync(target.file)) return new Set();
    const db = new Sqlite(target.file, { readonly: true, fileMustExist: true });
    try {
      const table = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'")
        .get();
      return new Set(
        table ? (db.prepare(sql).all() as Array<{ migration_name: string }>).map((r) => r.migration_name) : [],
      );
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    const u = new URL(target.url);
    throw new Error(
      `Can't reach database server at \`${u.hostname}:${u.port || 5432}\` ` +
        `(${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      { cause: err },
    );
  }
  try {
    const exists = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
    if (!exists.rows[0].present) return new Set();
    return new Set((await client.query(sql)).rows.map((r) => r.migration_name as string));
  } finally {
    await client.end();
  }
}

/** Applies the pending committed migrations (idempotent); returns the names it applied. */
export async function applyMigrations(target: DatabaseTarget): Promise<string[]> {
  const migrationsList = loadMigrations(target.provider);
  const applied = await appliedMigrationNames(target);
  if (migrationsList.migrationDirectories.every((d) => applied.has(d.path))) return [];
  return withSchemaEngine(target, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return out.appliedMigrationNames;
  });
}

/** SQL that turns a database built from schema `from` into one built from `to` (empty string when none). */
export async function diffSchemas(from: string | null, to: string): Promise<string> {
  return withSchemaEngine(null, async (engine) => {
    const side = (content: string) => ({
      tag: 'schemaDatamodel' as const,
      files: [{ path: 'schema.prisma', content }],
    });
    const out = await engine.diff({
      from: from === null ? { tag: 'empty' } : side(from),
      to: side(to),
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    });
    return out.exitCode === 2 ? (out.stdout ?? '') : '';
  });
}

/**
 * Appends what a PostgreSQL migration needs for each table it creates: the data-version triggers (migration
 * 20261123051500_data_version), without which the response cache would keep answers across writes to it.
 */
export function trackNewTables(sql: string): string {
  const tables = [...sql.matchAll(/^CREATE TABLE "([^"]+)"/gm)].map((m) => m[1]);
  if (tables.length === 0) return sql;
  const lines = tables.map((t) => `SELECT prode_meta.track_writes('"${t}"');`);
  return (
    `${sql.trimEnd()}\n\n-- The response cache's data version counts writes to every table ` +
    `(src/db/data-version.ts)\n${lines.join('\n')}\n`
  );
}

/** The schema as of the newest committed migration; new migrations are diffs from it (no database needed). */
export function snapshotPath(provider: Provider): string {
  return `${paths.migrations(provider)}/schema.snapshot.prisma`;
}

export function readSnapshot(provider: Provider): string | null {
  const file = snapshotPath(provider);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

export function lockfileContent(provider: Provider): string {
  return (
    `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., ` +
    `Git)\nprovider = "${provider}"\n`
  );
}
