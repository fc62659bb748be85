// The benchmark's dataset generator (bench/generate.ts), at its smallest: `npm run bench` on a fresh clone
// generates into bench/data/, a directory the clone does not have.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../bench/generate.ts';
import { openDatabase } from '../../src/db/client.ts';

describe('bench:generate', () => {
  const root = mkdtempSync(join(tmpdir(), 'prode-bench-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('makes the directory of its SQLite file, and fills the file', async () => {
    const file = join(root, 'data', 'nested', 'bench.db');
    const counts = await generate({ provider: 'sqlite', file }, 0.01);
    expect(existsSync(file)).toBe(true);
    expect(counts.users).toBe(50);
    const db = await openDatabase({ provider: 'sqlite', file });
    try {
      expect(await db.prisma.user.count()).toBeGreaterThanOrEqual(50);
      expect(await db.prisma.company.count({ where: { appPath: 'bench' } })).toBe(1);
    } finally {
      await db.close();
    }
  }, 120_000);
});
