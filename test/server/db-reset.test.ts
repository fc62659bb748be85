// npm run db:reset: the demo database made again as it shipped, on the suite's database; never in production, and on
// PostgreSQL only when asked with --yes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { openDatabase } from '../../src/db/client.ts';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';
import { runScript } from '../helpers/process.ts';

let target: DatabaseTarget;
let drop: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  ({ target, drop } = await emptyTarget());
  dir = mkdtempSync(join(tmpdir(), 'prode-reset-'));
});
afterAll(async () => {
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

const env = (more: Record<string, string> = {}) => ({
  DATABASE_URL: target.provider === 'sqlite' ? `file:${target.file}` : target.url,
  DATA_DIR: dir,
  PASSWORD_HASH_COST: '14',
  ...more,
});
async function run(script: string, args: string[] = [], more: Record<string, string> = {}) {
  const child = runScript(script, env(more), args);
  return { code: await child.exited, output: child.output() };
}
async function companies(): Promise<string[]> {
  const db = await openDatabase(target);
  try {
    return (await db.prisma.company.findMany({ orderBy: { code: 'asc' } })).map((c) => c.code);
  } finally {
    await db.close();
  }
}

describe('npm run db:reset', () => {
  it('makes the demo database again: rows added since are gone, the demo is back', async () => {
    expect((await run('scripts/db-seed.ts')).code).toBe(0);
    const demo = await companies();
    const db = await openDatabase(target);
    await db.prisma.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'Added Later', code: 'ADDED' } });
    await db.close();
    expect(await companies()).toContain('ADDED');

    const args = target.provider === 'postgresql' ? ['--yes'] : [];
    const reset = await run('scripts/db-reset.ts', args);
    expect(reset.code, reset.output).toBe(0);
    expect(reset.output).toMatch(/made again with the demo data/);
    expect(await companies()).toEqual(demo);
  });

  it('refuses in production, and an unknown argument, without touching anything', async () => {
    const before = await companies();
    const prod = await run('scripts/db-reset.ts', ['--yes'], { NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40) });
    expect(prod.code).toBe(1);
    expect(prod.output).toMatch(/refused with NODE_ENV=production/);
    const odd = await run('scripts/db-reset.ts', ['--force']);
    expect(odd.code).toBe(1);
    expect(odd.output).toMatch(/unknown argument --force/);
    expect(await companies()).toEqual(before);
  });

  it.runIf(suiteProvider === 'postgresql')('on PostgreSQL asks for --yes', async () => {
    const before = await companies();
    const asked = await run('scripts/db-reset.ts');
    expect(asked.code).toBe(1);
    expect(asked.output).toMatch(/drops every table of postgresql:.*npm run db:reset -- --yes/);
    expect(await companies()).toEqual(before);
  });
});
