// A fresh, migrated database per test file: a temp SQLite file by default, or a new database on the
// PostgreSQL server named by DATABASE_URL when the suite runs against PostgreSQL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { applyMigrations } from '../../src/db/migrations.ts';
import { seedDemo, type DemoIds } from '../../prisma/seed/demo-seed.ts';

export const suiteProvider: DatabaseTarget['provider'] = /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '')
  ? 'postgresql'
  : 'sqlite';

export interface TestDatabase {
  target: DatabaseTarget;
  db: Database;
  drop(): Promise<void>;
}

/** Creates an empty database of the suite's provider (or the one asked for) without migrating it. */
export async function emptyTarget(
  provider = suiteProvider,
): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'prode-test-'));
    return {
      target: { provider, file: join(dir, 'test.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('PostgreSQL tests need DATABASE_URL');
  const name = `prode_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    target: { provider, url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function freshDatabase(provider = suiteProvider): Promise<TestDatabase> {
  const { target, drop } = await emptyTarget(provider);
  return migratedDatabase(target, drop);
}

/** Migrates an empty database the test owns (e.g. on its own PostgreSQL cluster) and opens it. */
export async function migratedDatabase(
  target: DatabaseTarget,
  drop: () => Promise<void> = async () => {},
): Promise<TestDatabase> {
  await applyMigrations(target);
  const db = await openDatabase(target, { poolMax: 4 });
  return {
    target,
    db,
    drop: async () => {
      await db.close();
      await drop();
    },
  };
}

export interface SeededDatabase extends TestDatabase {
  /** The ids of the demo rows (prisma/seed/demo-seed.ts). */
  demo: DemoIds;
}

/** A fresh database of the suite's provider with the demo data in it. */
export async function seededDatabase(provider = suiteProvider): Promise<SeededDatabase> {
  const t = await freshDatabase(provider);
  return { ...t, demo: (await seedDemo(t.db.prisma)).ids };
}
