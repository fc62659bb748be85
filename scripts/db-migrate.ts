// `npm run db:migrate`: applies the pending committed migrations to the configured database.
// `npm run db:migrate -- --status`: lists applied and pending migrations without changing anything.
import { engineFor } from '../src/engine/index.ts';
import { ConfigError, ensureWritableDir, loadConfig } from '../src/config.ts';
import { type DatabaseTarget, describeTarget } from '../src/db/adapters.ts';
import { migrationStatus } from '../src/db/migrations.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';

const USAGE = `Usage: npm run db:migrate [-- --status | --help]

Applies the committed migrations (prisma/migrations/<provider>/) that the database configured by DATABASE_URL
(unset: SQLite at DATA_DIR/prode.db) has not applied yet. The server does the same at start.

  --status  lists the applied migrations (with when) and the pending ones; writes nothing to it.
            Exit code 0: up to date. 2: migrations are pending, or one failed half-way (db:migrate has work to
            do, or a person does). 1: the configuration or the database could not be read.
  --help    this text.`;

/** Exit code of --status when the database is not at this checkout's migrations. */
const NOT_UP_TO_DATE = 2;

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');

async function printStatus(target: DatabaseTarget): Promise<number> {
  const status = await migrationStatus(target);
  console.log(`db:migrate: migrations of ${describeTarget(target)}`);
  for (const m of status.applied)
    console.log(
      `  applied  ${stamp(m.appliedAt)}  ${m.name}${m.modified ? '  (file changed since it was applied)' : ''}`,
    );
  for (const m of status.failed) console.log(`  FAILED   ${stamp(m.startedAt)}  ${m.name}  (started, never finished)`);
  for (const name of status.pending) console.log(`  pending  ${' '.repeat(20)}  ${name}`);
  for (const m of status.unknown) console.log(`  unknown  ${stamp(m.appliedAt)}  ${m.name}  (not in this checkout)`);
  const { applied, pending, failed } = status;
  console.log(
    failed.length
      ? `db:migrate: ${failed.length} failed migration(s): see its rows in _prisma_migrations before going on`
      : pending.length
        ? `db:migrate: ${applied.length} applied, ${pending.length} pending: npm run db:migrate applies them`
        : `db:migrate: up to date (${applied.length} applied)`,
  );
  return failed.length || pending.length ? NOT_UP_TO_DATE : 0;
}

try {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  const unknown = args.filter((a) => a !== '--status');
  if (unknown.length) {
    console.error(`db:migrate: unknown argument ${unknown[0]}\n\n${USAGE}`);
    process.exit(1);
  }
  const config = loadConfig();
  // The store opened as the server would open it: ENGINE=plain leaves the speed-only parts out here too.
  const engine = engineFor(config).db;
  if (args.includes('--status')) process.exit(await printStatus(config.database));
  if (config.database.provider === 'sqlite') ensureWritableDir(config.dataDir);
  const applied = await migrateDatabase(config.database, { engine });
  console.log(
    applied.length
      ? `db:migrate: applied ${applied.join(', ')} to ${describeTarget(config.database)}`
      : `db:migrate: ${describeTarget(config.database)} is up to date`,
  );
  process.exit(0);
} catch (err) {
  console.error(`db:migrate: ${err instanceof ConfigError ? '' : 'failed: '}${(err as Error).message}`);
  process.exit(1);
}
