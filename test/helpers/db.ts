// A fresh, migrated database per test file: a temp SQLite file by default, or a new database on the
// PostgreSQL server named by DATABASE_URL when the suite runs against PostgreSQL. Both are copies of the templates
// test/helpers/template.ts builds once per run; migration tests start from emptyTarget() instead.
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { applyMigrations } from '../../src/db/migrations.ts';
import { engineFor, type DbEngine } from '../../src/engine/index.ts';
import { engineMode, engineOffNames, type EnginePart } from '../../src/engine/mode.ts';
import type { DemoIds } from '../../prisma/seed/demo-seed.ts';

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
  /** PostgreSQL: the template database to copy (the server's own empty one when not given). */
  pgTemplate?: string,
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
  try {
    await createDatabase(admin, name, pgTemplate);
  } finally {
    await admin.end();
  }
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

/**
 * PostgreSQL copies a template only while no session is connected to it. Nothing stays connected to ours, but two
 * workers copying it at once can meet the other's copy connected for a moment: that one is tried again.
 */
async function createDatabase(admin: pg.Client, name: string, template?: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
      return;
    } catch (err) {
      if (attempt >= 50 || !/is being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * What the suite's databases are opened with: ENGINE and ENGINE_OFF of the test run (`ENGINE=plain npm test`), so a
 * database of a test runs the same parts as the server over it.
 */
export const suiteDbEngine: DbEngine = engineFor({
  engine: { mode: engineMode(process.env), off: engineOffNames(process.env) as EnginePart[] },
  graphqlJit: true,
  graphqlSharedSubtrees: true,
  responseCacheBytes: 1,
  dbPreparedStatements: true,
}).db;

export async function freshDatabase(provider = suiteProvider, engine = suiteDbEngine): Promise<TestDatabase> {
  if (provider !== suiteProvider) {
    const { target, drop } = await emptyTarget(provider);
    return migratedDatabase(target, drop, engine);
  }
  return openCopy('migrated', engine);
}

/** Migrates an empty database the test owns (e.g. on its own PostgreSQL cluster) and opens it. */
export async function migratedDatabase(
  target: DatabaseTarget,
  drop: () => Promise<void> = async () => {},
  engine = suiteDbEngine,
): Promise<TestDatabase> {
  await applyMigrations(target);
  return opened(target, drop, engine);
}

/** Opens a database the test made; its drop closes it first. */
async function opened(target: DatabaseTarget, drop: () => Promise<void>, engine: DbEngine): Promise<TestDatabase> {
  const db = await openDatabase(target, { poolMax: 4, engine });
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

/** A fresh database of the suite's provider with the demo data in it: a copy of the seeded template. */
export async function seededDatabase(engine = suiteDbEngine): Promise<SeededDatabase> {
  return { ...(await openCopy('seeded', engine)), demo: inject('templates').demo };
}

/** The cost the seeded template's demo password was hashed at. */
export const templatePasswordHashCost = () => inject('templates').passwordHashCost;

/**
 * A copy of a template, not opened: for a child process (a server, a script) whose test is not about migrating or
 * seeding. Its own start finds the migrations applied (and, seeded, the demo data in place) and goes on.
 */
export function templateCopy(kind: 'migrated' | 'seeded') {
  return copyOf(inject('templates')[kind]);
}

async function openCopy(kind: 'migrated' | 'seeded', engine: DbEngine): Promise<TestDatabase> {
  const { target, drop } = await templateCopy(kind);
  return opened(target, drop, engine);
}

/** A new database of the suite's provider holding what the template holds. */
async function copyOf(template: string): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  const empty = await emptyTarget(suiteProvider, template);
  if (empty.target.provider === 'sqlite') {
    // The template was closed after its last write, so it has no write-ahead log: the one file is the database.
    if (existsSync(`${template}-wal`)) throw new Error(`${template}-wal: the template was not closed cleanly`);
    copyFileSync(template, empty.target.file);
  }
  return empty;
}
