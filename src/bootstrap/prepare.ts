// Brings the configured store to a usable state: data dir, pending migrations, client, demo data if empty.
import type { Config } from '../config.ts';
import { ensureWritableDir } from '../config.ts';
import { seedDemo } from '../../prisma/seed/demo-seed.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { migrateDatabase } from './migrate.ts';

export class DatabaseUnavailableError extends Error {}

/** Start-up messages go to the process's logger. */
export interface StartupLog {
  info(msg: string): void;
  warn(msg: string): void;
}

export async function prepareDatabase(config: Config, log: StartupLog): Promise<Database> {
  if (config.database.provider === 'sqlite') ensureWritableDir(config.dataDir);
  let applied: string[];
  try {
    applied = await migrateDatabase(config.database);
  } catch (err) {
    const first = (err as Error).message.split('\n').find((l) => l.trim()) ?? String(err);
    throw new DatabaseUnavailableError(`cannot migrate the database: ${first.trim()}`);
  }
  if (applied.length) log.info(`applied migrations: ${applied.join(', ')}`);
  const db = await openDatabase(config.database, {
    poolMax: config.dbPoolMax,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    preparedStatements: config.dbPreparedStatements,
  });
  if ((await db.prisma.company.count()) === 0) {
    if (config.seedOnEmpty) {
      const { summary } = await seedDemo(db.prisma);
      log.info(`empty database: seeded the demo data (${summary})`);
      if (config.env === 'production')
        log.warn('SEED_ON_EMPTY=true loaded the demo accounts, whose password is published in README.md');
    } else {
      log.info(
        'empty database: no demo data loaded (README "Running it in production" says how to create the first operator)',
      );
    }
  }
  return db;
}
