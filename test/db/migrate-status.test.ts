// npm run db:migrate -- --status: what the database has applied and what is pending, read from a real database
// (the suite's provider) that is migrated step by step; exit code 0 only when nothing is left to do.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { openDatabase } from '../../src/db/client.ts';
import { loadMigrations } from '../../src/db/migrations.ts';
import { schemaFilters, withSchemaEngine } from '../../src/db/schema-engine.ts';
import { emptyTarget } from '../helpers/db.ts';
import { runScript } from '../helpers/process.ts';

let target: DatabaseTarget;
let drop: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  ({ target, drop } = await emptyTarget());
  dir = mkdtempSync(join(tmpdir(), 'prode-status-'));
});
afterAll(async () => {
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

const committed = () => loadMigrations(target.provider).migrationDirectories.map((d) => d.path);

async function migrate(args: string[] = []) {
  const child = runScript(
    'scripts/db-migrate.ts',
    {
      DATABASE_URL: target.provider === 'sqlite' ? `file:${target.file}` : target.url,
      DATA_DIR: dir,
    },
    args,
  );
  return { code: await child.exited, output: child.output() };
}

async function sql(statement: string) {
  const db = await openDatabase(target);
  try {
    await db.prisma.$executeRawUnsafe(statement);
  } finally {
    await db.close();
  }
}

const line = (state: string, name: string) =>
  new RegExp(
    `^  ${state}  ${state === 'pending' ? ' {20}' : '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ'}  ${name}`,
    'm',
  );

describe('npm run db:migrate -- --status', () => {
  it('on a database that does not exist yet: everything pending, exit 2, nothing created', async () => {
    const status = await migrate(['--status']);
    expect(status.code, status.output).toBe(2);
    for (const name of committed()) expect(status.output).toMatch(line('pending', name));
    expect(status.output).toMatch(`0 applied, ${committed().length} pending: npm run db:migrate applies them`);
    if (target.provider === 'sqlite') expect(existsSync(target.file)).toBe(false);
  });

  it('lists what is applied (with when) and what is pending, in order', async () => {
    const all = loadMigrations(target.provider);
    const first = all.migrationDirectories.slice(0, -2);
    await withSchemaEngine(target, (engine) =>
      engine.applyMigrations({ migrationsList: { ...all, migrationDirectories: first }, filters: schemaFilters(null) }),
    );
    const names = committed();
    const status = await migrate(['--status']);
    expect(status.code, status.output).toBe(2);
    for (const name of names.slice(0, -2)) expect(status.output).toMatch(line('applied', name));
    const pending = status.output.split('\n').filter((l) => l.startsWith('  pending'));
    expect(pending.map((l) => l.trim().split(/\s+/)[1])).toEqual(names.slice(-2));
    expect(status.output).toMatch(`${names.length - 2} applied, 2 pending`);
  });

  it('after db:migrate: up to date, exit 0', async () => {
    const run = await migrate();
    expect(run.code, run.output).toBe(0);
    const status = await migrate(['--status']);
    expect(status.code, status.output).toBe(0);
    for (const name of committed()) expect(status.output).toMatch(line('applied', name));
    expect(status.output).not.toMatch(/pending|FAILED|unknown/);
    expect(status.output).toMatch(`up to date (${committed().length} applied)`);
  });

  it('reports a failed attempt (exit 2), a migration unknown to this checkout and an edited file', async () => {
    const [firstName] = committed();
    await sql(`UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = '${firstName}'`);
    await sql(
      'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) ' +
        "VALUES ('failed-1', 'x', '29990101000000_half_done', '2026-01-02T03:04:05.000+00:00', 0)",
    );
    await sql(
      'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) ' +
        "VALUES ('newer-1', 'x', '29990102000000_from_newer_code', '2026-01-02T03:04:05.000+00:00', " +
        "'2026-01-02T03:04:06.000+00:00', 1)",
    );
    const status = await migrate(['--status']);
    expect(status.code, status.output).toBe(2);
    expect(status.output).toMatch(/^ {2}FAILED {3}2026-01-02 03:04:05Z {2}29990101000000_half_done/m);
    expect(status.output).toMatch(/^ {2}unknown {2}2026-01-02 03:04:06Z {2}29990102000000_from_newer_code/m);
    expect(status.output).toMatch(new RegExp(`${firstName} {2}\\(file changed since it was applied\\)`));
    expect(status.output).toMatch(/1 failed migration\(s\)/);
  });

  it('--help explains the exit codes; an unknown argument is refused', async () => {
    const help = await migrate(['--help']);
    expect(help.code).toBe(0);
    expect(help.output).toMatch(/--status .*\n.*Exit code 0: up to date\. 2: migrations are pending/);
    const odd = await migrate(['--statsu']);
    expect(odd.code).toBe(1);
    expect(odd.output).toMatch(/unknown argument --statsu/);
  });
});
