// SQLite allows 32,766 bind values per statement, but Prisma assumes 999 unless the driver adapter says otherwise,
// and refuses (P2029) a statement it cannot split past that: a loader batch of more keys, read by Prisma's
// findMany and groupBy as ENGINE=plain reads it, would fail (src/db/adapters.ts, docs/decisions/0028).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prismaLoaderRows, type Column } from '../../src/db/loader-rows.ts';
import { runWithSqlStats, type SqlStats } from '../../src/db/sql-stats.ts';
import { seededDatabase, suiteProvider, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await seededDatabase();
}, 120_000);
afterAll(async () => {
  await t.drop();
});

/** Runs `read`, returning what it returned and how many statements it sent. */
async function counted<T>(read: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const stats: SqlStats = { statements: 0 };
  // Awaited inside: Prisma's queries start when awaited, and must start inside the count.
  const result = await runWithSqlStats(stats, async () => await read());
  return { result, statements: stats.statements };
}

describe(`${suiteProvider}: bind values per statement`, () => {
  it('Prisma reads 2,000 keys, ordered, limited and grouped, in one statement each', async () => {
    const p = t.db.prisma;
    const rows = prismaLoaderRows(p);
    const keys = Array.from({ length: 2000 }, (_, i) => i + 1);
    const users = await p.user.findMany({ where: { id: { lte: 2000 } }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
    expect(users.length).toBeGreaterThan(1);

    const ordered = await counted(() =>
      rows.rowsIn({ model: 'User', key: 'id' as Column<'User'>, keys, orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
    );
    expect(ordered.result).toStrictEqual(users);
    expect(ordered.statements).toBe(1);

    const limited = await counted(() =>
      rows.rowsIn({
        model: 'User',
        key: 'id' as Column<'User'>,
        keys,
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        take: 3,
      }),
    );
    expect(limited.result).toStrictEqual(users.slice(0, 3));
    expect(limited.statements).toBe(1);

    const grouped = await counted(() => rows.countsBy('Prediction', 'userId' as Column<'Prediction'>, keys));
    const predictions = await p.prediction.count({ where: { userId: { lte: 2000 } } });
    expect([...grouped.result.values()].reduce((a, b) => a + b, 0)).toBe(predictions);
    expect(grouped.statements).toBe(1);
  });
});
