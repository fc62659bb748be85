import Sqlite from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { type DatabaseTarget } from './adapters.ts';
import { OWNED_TABLES, OWNER_BUCKETS } from '../engine/cache/owner-buckets.ts';
import { schemaFilters, withSchemaEngine } from './schema-engine.ts';
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

/** One row of Prisma's `_prisma_migrations` table: an attempt to apply a migration. */
interface MigrationRecord {
  name: string;
  checksum: string;
  startedAt: Date;
  finishedAt: Date | null;
  rolledBackAt: Date | null;
}

/**
 * What the database records about migrations, read with a plain driver connection. Starting the wasm engine costs
 * a few hundred milliseconds and, on SQLite, locks the file against other processes; when nothing is pending it is
 * not needed at all. A database that does not exist yet has no records (it is not created here).
 */
async function migrationRecords(target: DatabaseTarget): Promise<MigrationRecord[]> {
  const sql =
    'SELECT migration_name, checksum, started_at, finished_at, rolled_back_at FROM _prisma_migrations ' +
    'ORDER BY started_at, migration_name';
  type Row = Record<'migration_name' | 'checksum', string> &
    Record<'started_at' | 'finished_at' | 'rolled_back_at', Date | string | null>;
  // SQLite holds the times as ISO text, PostgreSQL as timestamptz (a Date from pg).
  const time = (v: Date | string | null) => (v === null ? null : new Date(v));
  const toRecord = (r: Row): MigrationRecord => ({
    name: r.migration_name,
    checksum: r.checksum,
    startedAt: time(r.started_at) as Date,
    finishedAt: time(r.finished_at),
    rolledBackAt: time(r.rolled_back_at),
  });
  if (target.provider === 'sqlite') {
    if (!existsSync(target.file)) return [];
    const db = new Sqlite(target.file, { readonly: true, fileMustExist: true });
    try {
      const table = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'")
        .get();
      return table ? (db.prepare(sql).all() as Row[]).map(toRecord) : [];
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
    if (!exists.rows[0].present) return [];
    return (await client.query<Row>(sql)).rows.map(toRecord);
  } finally {
    await client.end();
  }
}

const isApplied = (r: MigrationRecord) => r.finishedAt !== null && r.rolledBackAt === null;

/** Names of the migrations the database records as applied. */
export async function appliedMigrationNames(target: DatabaseTarget): Promise<Set<string>> {
  return new Set((await migrationRecords(target)).filter(isApplied).map((r) => r.name));
}

/** Where the database stands against the committed migrations (`npm run db:migrate -- --status`). */
export interface MigrationStatus {
  /** Committed migrations the database has applied, oldest first; `modified` when the file changed since. */
  applied: Array<{ name: string; appliedAt: Date; modified: boolean }>;
  /** Committed migrations not applied yet, in the order `db:migrate` would apply them. */
  pending: string[];
  /** Attempts that started and never finished (nor were rolled back): the database needs a person first. */
  failed: Array<{ name: string; startedAt: Date }>;
  /** Applied to the database but absent from this checkout: the database is newer than this code. */
  unknown: Array<{ name: string; appliedAt: Date }>;
}

export async function migrationStatus(target: DatabaseTarget): Promise<MigrationStatus> {
  const committed = loadMigrations(target.provider).migrationDirectories;
  const records = await migrationRecords(target);
  const appliedRecord = new Map(records.filter(isApplied).map((r) => [r.name, r]));
  const committedNames = new Set(committed.map((d) => d.path));
  const checksum = (sql: string) => createHash('sha256').update(sql).digest('hex');
  return {
    applied: committed.flatMap((d) => {
      const r = appliedRecord.get(d.path);
      return r
        ? [{ name: r.name, appliedAt: r.finishedAt!, modified: r.checksum !== checksum(d.migrationFile.content.value) }]
        : [];
    }),
    pending: committed.filter((d) => !appliedRecord.has(d.path)).map((d) => d.path),
    failed: records
      .filter((r) => r.finishedAt === null && r.rolledBackAt === null && !appliedRecord.has(r.name))
      .map((r) => ({ name: r.name, startedAt: r.startedAt })),
    unknown: [...appliedRecord.values()]
      .filter((r) => !committedNames.has(r.name))
      .map((r) => ({ name: r.name, appliedAt: r.finishedAt! })),
  };
}

/** Applies the pending committed migrations (idempotent); returns the names it applied. */
export async function applyMigrations(target: DatabaseTarget): Promise<string[]> {
  const migrationsList = loadMigrations(target.provider);
  const applied = await appliedMigrationNames(target);
  if (migrationsList.migrationDirectories.every((d) => applied.has(d.path))) return [];
  return withSchemaEngine(target, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: schemaFilters(target.provider) });
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
      filters: schemaFilters(null),
    });
    return out.exitCode === 2 ? (out.stdout ?? '') : '';
  });
}

/**
 * SQLite triggers of our own on a table besides its table-version triggers. Redefining the table drops them with it,
 * so a migration that redefines it makes them again (trackNewTables).
 */
const SQLITE_OWN_TRIGGERS: Record<string, string> = {
  // Migration 20261124224546_standings_in_ranking_order: a user's name and activity copied to their standings.
  User:
    `CREATE TRIGGER "_prode_user_in_standings" AFTER UPDATE OF "name", "deletedAt" ON "User"\n` +
    `WHEN OLD."name" IS NOT NEW."name" OR OLD."deletedAt" IS NOT NEW."deletedAt"\n` +
    `BEGIN\n` +
    `    UPDATE "TournamentStanding" SET "name" = NEW."name", "active" = (NEW."deletedAt" IS NULL)\n` +
    `    WHERE "userId" = NEW."id";\n` +
    `END;\n`,
  // Migration 20261128135949_players_in_standings: who played in a tournament has a standing row there.
  Prediction: playerTrigger('Prediction', 'prediction', 'Match', 'matchId'),
  DreamFinalPick: playerTrigger('DreamFinalPick', 'dream_final_pick', 'DreamFinalsSetting', 'settingId'),
  BonusAnswer: playerTrigger('BonusAnswer', 'bonus_answer', 'BonusQuestion', 'questionId'),
};

/** SQLite's trigger that gives the writer of a `table` row a standing in the tournament of the row's `parent`. */
function playerTrigger(table: string, name: string, parent: string, parentId: string): string {
  return (
    `CREATE TRIGGER "_prode_${name}_player" AFTER INSERT ON "${table}"\n` +
    `BEGIN\n` +
    `    INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name", "active")\n` +
    `    SELECT t."tournamentId", u."id", u."companyId", u."name", u."deletedAt" IS NULL\n` +
    `    FROM "${parent}" t JOIN "User" u ON u."id" = NEW."userId" WHERE t."id" = NEW."${parentId}"\n` +
    `    ON CONFLICT ("tournamentId", "userId") DO NOTHING;\n` +
    `END;\n`
  );
}

/**
 * SQLite's table-version triggers for one table (migration 20261124000000_table_versions), its owners' buckets'
 * when the table is owned (src/engine/cache/owner-buckets.ts), and its own triggers (SQLITE_OWN_TRIGGERS).
 */
export function sqliteTableTriggers(table: string): string {
  const own = SQLITE_OWN_TRIGGERS[table] ? [SQLITE_OWN_TRIGGERS[table]] : [];
  const versions = ['INSERT', 'UPDATE', 'DELETE'].map(
    (op) =>
      `CREATE TRIGGER "_prode_tv_${table}_${op.toLowerCase()}" AFTER ${op} ON "${table}" BEGIN\n` +
      `    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('${table}', 1) ` +
      `ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;\nEND;\n`,
  );
  return [...versions, ...(OWNED_TABLES[table] ? [sqliteOwnerTriggers(table)] : []), ...own].join('\n');
}

/**
 * SQLite's triggers that move an owned table's owner buckets (migration
 * 20261124225500_write_counts_per_statement_and_owner).
 */
export function sqliteOwnerTriggers(table: string): string {
  const owner = OWNED_TABLES[table];
  const bucket = (row: string) => `'${table}@' || (${row}."${owner}" % ${OWNER_BUCKETS})`;
  const bump = (row: string) =>
    `    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES (${bucket(row)}, 1)\n` +
    `    ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;\n`;
  // A row never changes hands; if one did, its former owner's bucket moves too.
  const moved =
    `    INSERT INTO "_prode_table_version" ("tbl", "v") SELECT ${bucket('OLD')}, 1\n` +
    `    WHERE OLD."${owner}" % ${OWNER_BUCKETS} <> NEW."${owner}" % ${OWNER_BUCKETS} ` +
    `ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;\n`;
  const trigger = (op: string, body: string) =>
    `CREATE TRIGGER "_prode_tv_${table}_owner_${op.toLowerCase()}" AFTER ${op} ON "${table}" BEGIN\n${body}END;\n`;
  return [trigger('INSERT', bump('NEW')), trigger('UPDATE', bump('NEW') + moved), trigger('DELETE', bump('OLD'))].join(
    '\n',
  );
}

/**
 * Appends what a migration needs for each table it creates: the table-version triggers (PostgreSQL:
 * prode_meta.track_writes, as of migration 20261124225500_write_counts_per_statement_and_owner, SQLite:
 * 20261124000000_table_versions), without which the response cache would hold
 * responses across writes to it. SQLite changes most columns by redefining the table (CREATE "new_X", copy, DROP "X",
 * RENAME "new_X" TO "X"): the dropped table's triggers go with it, so "X" is tracked again under its final name.
 */
export function trackNewTables(sql: string, provider: Provider = 'postgresql'): string {
  const renamed = new Map([...sql.matchAll(/^ALTER TABLE "([^"]+)" RENAME TO "([^"]+)"/gm)].map((m) => [m[1], m[2]]));
  const tables = [...sql.matchAll(/^CREATE TABLE "([^"]+)"/gm)].map((m) => renamed.get(m[1]) ?? m[1]);
  if (tables.length === 0) return sql;
  const lines = tables.map((t) =>
    provider === 'postgresql' ? `SELECT prode_meta.track_writes('"${t}"');\n` : `\n${sqliteTableTriggers(t)}`,
  );
  return (
    `${sql.trimEnd()}\n\n-- The response cache's data version counts writes to every table ` +
    `(src/engine/cache/table-versions.ts)\n${lines.join('')}`
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
