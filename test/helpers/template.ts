// Vitest globalSetup: migrates and seeds two template databases of the suite's provider once per run, which every
// test file then copies (test/helpers/db.ts) instead of migrating and seeding its own. The name carries a hash of
// what builds them, so a rerun with nothing changed reuses them; a build writes under a temporary name and renames
// when done, so a crashed build is never used.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { DemoIds } from '../../prisma/seed/demo-seed.ts';
import { seedDemo } from '../../prisma/seed/demo-seed.ts';
import { setPasswordHashCost } from '../../src/auth/passwords.ts';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { openDatabase } from '../../src/db/client.ts';
import { applyMigrations } from '../../src/db/migrations.ts';
import { paths } from '../../src/db/schema-files.ts';

/** What db.ts copies: SQLite files or PostgreSQL database names, and the seeded one's demo ids. */
export interface Templates {
  provider: DatabaseTarget['provider'];
  migrated: string;
  seeded: string;
  demo: DemoIds;
  /** The cost the seeded demo password was hashed at (a server at another cost seeds its own). */
  passwordHashCost: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    templates: Templates;
  }
}

/**
 * The migrations, the seed and its fixtures, and the code that applies them or computes seeded values (the
 * tournament import, rescoring, the domain rules and defaults, the area tree's writes, password hashing).
 */
const INPUTS = [
  'package-lock.json',
  'prisma',
  'src/db',
  'src/engine',
  'src/domain',
  'src/game',
  'src/import',
  'src/app/areas.ts',
  'src/auth/passwords.ts',
];

function listFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .flatMap((d) => listFiles(join(path, d.name)))
    .sort();
}

function inputsHash(provider: string, cost: number): string {
  const h = createHash('sha256').update(`${provider} cost=${cost}\n`);
  for (const file of INPUTS.flatMap((p) => listFiles(join(paths.root, p)))) {
    h.update(`${relative(paths.root, file)}\n`).update(readFileSync(file));
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * Builds in a child process: vitest's module runner, which loads this file, does not support the
 * `import.meta.resolve` the schema engine is found with.
 */
export default async function setup(project: TestProject) {
  // The workers' PASSWORD_HASH_COST (vitest.config.ts test.env), which setup.ts gives the seed in every file.
  const cost = String(project.config.env?.PASSWORD_HASH_COST ?? process.env.PASSWORD_HASH_COST ?? 14);
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    cwd: paths.root,
    env: { ...process.env, PASSWORD_HASH_COST: cost },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`building the template databases failed (exit ${child.status})`);
  // The result is the last line: anything the build logged comes before it.
  project.provide('templates', JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Templates);
}

async function build(): Promise<Templates> {
  const url = process.env.DATABASE_URL ?? '';
  const provider: Templates['provider'] = /^postgres(ql)?:/.test(url) ? 'postgresql' : 'sqlite';
  const cost = Number(process.env.PASSWORD_HASH_COST);
  setPasswordHashCost(cost);
  const hash = inputsHash(provider, cost);
  const built = provider === 'sqlite' ? await sqliteTemplates(hash) : await postgresTemplates(url, hash);
  return { provider, ...built, passwordHashCost: cost };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`\n${JSON.stringify(await build())}\n`);

async function seed(target: DatabaseTarget): Promise<DemoIds> {
  const db = await openDatabase(target, { poolMax: 1 });
  try {
    return (await seedDemo(db.prisma)).ids;
  } finally {
    await db.close();
  }
}

async function sqliteTemplates(hash: string) {
  const base = join(tmpdir(), `prode-tpl-${hash}`);
  const migrated = `${base}-migrated.db`;
  const seeded = `${base}-seeded.db`;
  const ids = `${base}-seeded.json`;
  if (![migrated, seeded, ids].every(existsSync)) {
    const tmp = (file: string) => `${file}.${process.pid}.tmp`;
    const drop = (file: string) => ['', '-wal', '-shm', '-journal'].forEach((s) => rmSync(file + s, { force: true }));
    try {
      await applyMigrations({ provider: 'sqlite', file: tmp(migrated) });
      copyFileSync(tmp(migrated), tmp(seeded));
      const demo = await seed({ provider: 'sqlite', file: tmp(seeded) });
      // Closing the last connection checkpoints the write-ahead log into the file: one file is the whole database.
      for (const file of [tmp(migrated), tmp(seeded)]) {
        if (existsSync(`${file}-wal`)) throw new Error(`${file}-wal was left after closing the database`);
      }
      writeFileSync(tmp(ids), JSON.stringify(demo));
      renameSync(tmp(migrated), migrated);
      renameSync(tmp(ids), ids);
      renameSync(tmp(seeded), seeded);
    } finally {
      [tmp(migrated), tmp(seeded), tmp(ids)].forEach(drop);
    }
  }
  return { migrated, seeded, demo: JSON.parse(readFileSync(ids, 'utf8')) as DemoIds };
}

async function postgresTemplates(url: string, hash: string) {
  const migrated = `prode_tpl_${hash}_migrated`;
  const seeded = `prode_tpl_${hash}_seeded`;
  const at = (name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // Two runs on one server build one after the other (the lock is released when its connection closes).
    await admin.query("SELECT pg_advisory_lock(hashtext('prode test templates'))");
    // The seeded template carries its demo ids as the database's comment, set before it takes its final name.
    const idsOf = async (name: string) =>
      (
        await admin.query<{ ids: string | null }>(
          "SELECT shobj_description(oid, 'pg_database') AS ids FROM pg_database WHERE datname = $1",
          [name],
        )
      ).rows[0]?.ids ?? null;
    const exists = async (name: string) =>
      (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (!(await exists(migrated))) {
      const tmp = `${migrated}_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS ${tmp} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${tmp}`);
      await applyMigrations({ provider: 'postgresql', url: at(tmp) });
      await admin.query(`ALTER DATABASE ${tmp} RENAME TO ${migrated}`);
    }
    if ((await idsOf(seeded)) === null) {
      const tmp = `${seeded}_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS ${seeded} WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS ${tmp} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${tmp} TEMPLATE ${migrated}`);
      const demo = await seed({ provider: 'postgresql', url: at(tmp) });
      await admin.query(`COMMENT ON DATABASE ${tmp} IS ${admin.escapeLiteral(JSON.stringify(demo))}`);
      await admin.query(`ALTER DATABASE ${tmp} RENAME TO ${seeded}`);
    }
    return { migrated, seeded, demo: JSON.parse((await idsOf(seeded))!) as DemoIds };
  } finally {
    await admin.end();
  }
}
