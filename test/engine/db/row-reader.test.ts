// The loaders read past Prisma's raw-query pipeline (src/engine/db/row-reader.ts): each row must be the very object
// $queryRaw returns for the same statement (dates as Date, JSON parsed, booleans, nulls, counts), for every table
// and on both databases, or resolvers would see different values than they did through Prisma.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColumnTypeEnum } from '@prisma/driver-adapter-utils';
import { loaderRowsOf, providerOf } from '../../../src/db/client.ts';
import { rowBuilder } from '../../../src/engine/db/row-reader.ts';
import { inKeys, Prisma } from '../../../src/db/sql.ts';
import { runWithSqlStats, type SqlStats } from '../../../src/db/sql-stats.ts';
import { seededDatabase, type TestDatabase } from '../../helpers/db.ts';
import { openRowReader, type OpenedRowReader } from '../../helpers/row-reader.ts';
import { FULL_DB } from '../../../src/engine/index.ts';

let t: TestDatabase;
let reader: OpenedRowReader;
beforeAll(async () => {
  t = await seededDatabase(FULL_DB); // the engine part under test, whatever the run's ENGINE
  reader = openRowReader(t.target);
}, 120_000);
afterAll(async () => {
  await reader.close();
  await t.drop();
});

const raw = (sql: Prisma.Sql) => t.db.prisma.$queryRaw<Array<Record<string, unknown>>>(sql);
const read = (sql: Prisma.Sql) => reader.read<Record<string, unknown>>(sql);

describe('row reader', () => {
  it('every table: the same rows as $queryRaw, value for value', async () => {
    let compared = 0;
    for (const model of Object.values(Prisma.ModelName)) {
      const sql = Prisma.sql`SELECT * FROM ${Prisma.raw(`"${model}"`)} ORDER BY 1 LIMIT 200`;
      const expected = await raw(sql);
      expect(await read(sql), model).toStrictEqual(expected);
      if (expected.length) compared++;
    }
    // The demo data fills most tables; fewer would mean the comparison silently covers little.
    expect(compared).toBeGreaterThanOrEqual(15);
  });

  it('the values a seed leaves out: nulls, false, JSON, timestamps with milliseconds', async () => {
    const user = await t.db.prisma.user.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const at = new Date('2026-06-11T19:00:00.123Z');
    const data = { lastActiveDate: at, areaLevel1Id: null, emailVerified: false };
    await t.db.prisma.user.update({ where: { id: user.id }, data });
    const sql = Prisma.sql`SELECT * FROM "User" WHERE "id" = ${user.id}`;
    const [row] = await read(sql);
    expect(row).toStrictEqual((await raw(sql))[0]);
    expect(row.lastActiveDate).toStrictEqual(at);
    expect(row.areaLevel1Id).toBeNull();
    expect(row.emailVerified).toBe(false);
    expect(row.notificationSettings).toBeTypeOf('object');
  });

  it('a timestamp stored without a zone (SQLite CURRENT_TIMESTAMP) is UTC, as findUnique reads it', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Argentina/Buenos_Aires';
    try {
      const user = await t.db.prisma.user.findFirstOrThrow({ orderBy: { id: 'asc' } });
      const at = '2026-11-25 10:00:00';
      await t.db.prisma.$executeRaw`UPDATE "User" SET "lastActiveDate" = ${at} WHERE "id" = ${user.id}`;
      const [row] = await read(Prisma.sql`SELECT * FROM "User" WHERE "id" = ${user.id}`);
      expect((row.lastActiveDate as Date).toISOString()).toBe('2026-11-25T10:00:00.000Z');
      const viaPrisma = await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      expect(row.lastActiveDate).toStrictEqual(viaPrisma.lastActiveDate);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('expressions, string keys and key arrays: as $queryRaw returns them', async () => {
    const provider = providerOf(t.db.prisma);
    const posts = (await t.db.prisma.post.findMany({ select: { id: true } })).map((p) => p.id);
    const counts = Prisma.sql`SELECT "postId" AS "key", CAST(COUNT(*) AS INTEGER) AS "count", COUNT(*) AS "big"
      FROM "PostComment" WHERE ${inKeys(provider, Prisma.raw('"postId"'), posts)} GROUP BY "postId" ORDER BY 1`;
    expect(await read(counts)).toStrictEqual(await raw(counts));
    expect((await read(counts)).length).toBeGreaterThan(0);

    const fields = await t.db.prisma.companyExtraField.findMany({ select: { id: true } });
    const byString = Prisma.sql`SELECT * FROM "CompanyExtraField" WHERE ${inKeys(
      provider,
      Prisma.raw('"id"'),
      fields.map((f) => f.id),
    )} ORDER BY 1`;
    expect(await read(byString)).toStrictEqual(await raw(byString));
  });

  it('column names a row literal must quote, and one that would set a prototype, are plain own columns', async () => {
    const odd = Prisma.sql`SELECT 1 AS "a""b", 2 AS "back\\slash", 3 AS "line
break", 4 AS "constructor"`;
    const [row] = await read(odd);
    expect(row).toStrictEqual((await raw(odd))[0]);
    expect(Object.keys(row)).toEqual(['a"b', 'back\\slash', 'line\nbreak', 'constructor']);
    const twice = Prisma.sql`SELECT 1 AS "a", 2 AS "b", 3 AS "a"`;
    expect(await read(twice)).toStrictEqual(await raw(twice));
    const [proto] = await read(Prisma.sql`SELECT 1 AS "__proto__", 2 AS "id"`);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Number(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value)).toBe(1);
    expect(Number(proto.id)).toBe(2);
  });

  it('one statement, read again, builds its rows with the same builder', async () => {
    const sql = Prisma.sql`SELECT * FROM "Match" ORDER BY 1 LIMIT 5`;
    const first = await read(sql);
    const second = await read(sql);
    expect(second).toStrictEqual(first);
    expect(rowBuilder(['x'], [ColumnTypeEnum.Int32])).toBe(rowBuilder(['x'], [ColumnTypeEnum.Int32]));
    expect(rowBuilder(['x'], [ColumnTypeEnum.Int32])).not.toBe(rowBuilder(['x'], [ColumnTypeEnum.Text]));
    expect(rowBuilder(['x'], [ColumnTypeEnum.Int32])(['7'])).toStrictEqual({ x: 7 });
    // Names that would join into the same text are still two column sets.
    const joined = rowBuilder(['a\u0000b', 'c'], [ColumnTypeEnum.Text, ColumnTypeEnum.Text]);
    expect(joined(['1', '2'])).toStrictEqual({ 'a\u0000b': '1', c: '2' });
    const other = rowBuilder(['a', 'b\u0000c'], [ColumnTypeEnum.Text, ColumnTypeEnum.Text]);
    expect(other(['1', '2'])).toStrictEqual({ a: '1', 'b\u0000c': '2' });
  });

  it('a parameter it cannot bind as $queryRaw would is refused before anything runs', async () => {
    await expect(read(Prisma.sql`SELECT * FROM "User" WHERE "createdAt" < ${new Date()}`)).rejects.toThrow(
      /cannot bind object parameters/,
    );
  });

  it('each read is one statement of the request that asks, with the table it reads', async () => {
    const stats: SqlStats = { statements: 0, tables: new Set() };
    await runWithSqlStats(stats, () => read(Prisma.sql`SELECT * FROM "Team" ORDER BY 1 LIMIT 1`));
    expect(stats.statements).toBe(1);
    expect([...stats.tables!]).toContain('Team');
    // So is a read of the loaders' rows through the database openDatabase opened (its row reader, with the engine on).
    const company = await t.db.prisma.company.findFirstOrThrow();
    const loaderStats: SqlStats = { statements: 0, tables: new Set() };
    await runWithSqlStats(loaderStats, () => loaderRowsOf(t.db.prisma).companyById(company.id));
    expect(loaderStats.statements).toBe(1);
    expect([...loaderStats.tables!]).toContain('Company');
  });

  it('works on a client not yet connected, and again after a disconnect', async () => {
    const sql = Prisma.sql`SELECT * FROM "Country" ORDER BY 1 LIMIT 3`;
    const expected = await raw(sql);
    await reader.prisma.$disconnect();
    expect(await read(sql)).toStrictEqual(expected);
    // The same for the row reader openDatabase wired to its own client.
    const company = await t.db.prisma.company.findFirstOrThrow();
    await t.db.prisma.$disconnect();
    expect(await loaderRowsOf(t.db.prisma).companyById(company.id)).toStrictEqual(company);
  });
});
