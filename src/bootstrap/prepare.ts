// Brings the configured database to a usable state: data dir, pending migrations, client, demo data if empty.
import { engineFor } from '../engine/index.ts';
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
  const engine = engineFor(config).db;
  let applied: string[];
  try {
    applied = await migrateDatabase(config.database, { engine });
  } catch (err) {
    const first = (err as Error).message.split('\n').find((l) => l.trim()) ?? String(err);
    throw new DatabaseUnavailableError(`cannot migrate the database: ${first.trim()}`);
  }
  if (applied.length) log.info(`applied migrations: ${applied.join(', ')}`);
  const db = await openDatabase(config.database, {
    poolMax: config.dbPoolMax,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    preparedStatements: config.dbPreparedStatements,
    engine,
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
  if (config.env === 'production') await warnOpenManagerCompanies(db, log);
  // APP_URL unset is this machine's loopback address: e-mailed links would open nothing for their reader.
  if (config.env === 'production' && config.mail.appUrl === `http://127.0.0.1:${config.port}`)
    log.warn(
      `APP_URL is not set: the links of e-mails and operator:create point at ${config.mail.appUrl} ` +
        "(set APP_URL to the gateway's public origin or to a frontend's)",
    );
  return db;
}

/**
 * A company where an account holds the manager role (the platform's operators) and anyone may sign up: a stranger
 * would join the operators, read their posts and take their seats. `operator:create` closes its company; one
 * opened later (or made before it did) is named at every production start.
 */
async function warnOpenManagerCompanies(db: Database, log: StartupLog) {
  const open = await db.prisma.company.findMany({
    where: { deletedAt: null, disableRegister: false, users: { some: { role: 'manager', deletedAt: null } } },
    select: { code: true, appPath: true },
    orderBy: { id: 'asc' },
  });
  if (!open.length) return;
  const named = open.map((c) => `${c.code}${c.appPath ? ` (x-app-path: ${c.appPath})` : ''}`).join(', ');
  log.warn(
    `sign-up is open in companies where an account has the manager role: ${named}; anyone may join the ` +
      "platform's operators there (set disableRegister: true with updateCompany)",
  );
}
