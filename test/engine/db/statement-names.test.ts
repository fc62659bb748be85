// PostgreSQL statements sent again and again are kept prepared (DB_PREPARED_STATEMENTS), so each is parsed and
// planned once per connection; a bounded set, and one that survives a migration by another process.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { prepareDatabase } from '../../../src/bootstrap/prepare.ts';
import { isStalePlan, statementNamer } from '../../../src/engine/db/statement-names.ts';
import { emptyTarget, suiteProvider } from '../../helpers/db.ts';

describe('statementNamer', () => {
  it('names a data statement the second time it is seen, by its text, and nothing else', () => {
    const namer = statementNamer();
    const select = { sql: 'SELECT * FROM "Team" WHERE "id" = ANY($1::int[])' };
    expect(namer(select)).toBe('');
    const name = namer(select);
    expect(name).toMatch(/^prode_[\w-]{32}$/);
    expect(namer({ sql: select.sql })).toBe(name);
    expect(namer({ sql: `${select.sql} LIMIT $2` })).toBe('');
    expect(namer({ sql: `${select.sql} LIMIT $2` })).not.toBe(name);
    for (const sql of ['BEGIN', 'SET LOCAL statement_timeout = 5', 'LOCK TABLE "Match"', 'CREATE TABLE x (id int)']) {
      namer({ sql });
      expect(namer({ sql })).toBe('');
    }
    expect(namer.size).toBe(2);
  });

  it('keeps at most its cap, and never names a forgotten text again', () => {
    const namer = statementNamer(3);
    const twice = (sql: string) => (namer({ sql }), namer({ sql }));
    for (let i = 0; i < 5; i++) twice(`SELECT ${i}`);
    expect(namer.size).toBe(3);
    expect(twice('SELECT 9')).toBe('');
    expect(namer.forget('SELECT 0')).toBe(true);
    expect(namer.forget('SELECT 0')).toBe(false);
    expect(namer.forget('SELECT 9')).toBe(false);
    expect(namer.size).toBe(2);
    // The forgotten text keeps its place in the cap: its prepared form still exists on some connections.
    expect(twice('SELECT 0')).toBe('');
    expect(twice('SELECT 9')).toBe('');
    expect(twice('SELECT 1')).toMatch(/^prode_/);
  });

  it('recognises the stale-plan refusal by its code, whatever the language of its message', () => {
    const refusal = { kind: 'postgres', code: '0A000', message: 'cached plan must not change result type' };
    expect(isStalePlan({ cause: refusal })).toBe(true);
    expect(
      isStalePlan({ cause: { ...refusal, message: 'el plan almacenado no debe cambiar el tipo de resultado' } }),
    ).toBe(true);
    expect(isStalePlan({ cause: { ...refusal, code: '57014' } })).toBe(false);
    expect(isStalePlan({ cause: { ...refusal, kind: 'sqlite' } })).toBe(false);
    expect(isStalePlan(new Error('cached plan must not change result type'))).toBe(false);
    expect(isStalePlan(null)).toBe(false);
  });
});

describe.runIf(suiteProvider === 'postgresql')('prepared statements on PostgreSQL', () => {
  // One connection, so the session whose prepared statements we read is the one that ran the queries.
  async function serverDatabase(env: Record<string, string> = {}) {
    const { target, drop } = await emptyTarget();
    const url = target.provider === 'postgresql' ? target.url : '';
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        JWT_SECRET: 'x'.repeat(40),
        DATABASE_URL: url,
        SEED_ON_EMPTY: 'false',
        DB_POOL_MAX: '1',
        ...env,
      },
      () => {},
    );
    const db = await prepareDatabase(config, { info() {}, warn() {} });
    const prepared = async () =>
      (
        await db.prisma.$queryRawUnsafe<Array<{ statement: string }>>(
          `SELECT statement FROM pg_prepared_statements WHERE name LIKE 'prode\\_%'`,
        )
      ).map((r) => r.statement);
    return {
      db,
      url,
      prepared,
      drop: async () => {
        await db.close();
        await drop();
      },
    };
  }

  const teams = (db: Awaited<ReturnType<typeof serverDatabase>>['db'], ids: number[]) =>
    db.prisma.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM "Team" WHERE "id" = ANY(${ids}::int[])`;

  it('prepares a statement sent twice, once, whatever the number of ids', async () => {
    const { db, prepared, drop } = await serverDatabase();
    try {
      await teams(db, [1]);
      expect(await prepared()).not.toContainEqual(expect.stringContaining('FROM "Team"'));
      await teams(db, [1, 2, 3]);
      await teams(db, [4, 5]);
      expect((await prepared()).filter((s) => s.includes('FROM "Team"'))).toHaveLength(1);
      // What /metrics shows (prode_db_prepared_statements): one connection holds every named text.
      expect(db.preparedStatements()).toBe((await prepared()).length);
    } finally {
      await drop();
    }
  });

  it('DB_PREPARED_STATEMENTS=false prepares none', async () => {
    const { db, prepared, drop } = await serverDatabase({ DB_PREPARED_STATEMENTS: 'false' });
    try {
      for (let i = 0; i < 3; i++) await teams(db, [i]);
      expect(await prepared()).toEqual([]);
      expect(db.preparedStatements()).toBe(0);
    } finally {
      await drop();
    }
  });

  it('a table migrated by another process under a prepared SELECT * is read again, unnamed from then on', async () => {
    const { db, url, prepared, drop } = await serverDatabase();
    const byName = (names: string[]) =>
      db.prisma.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM "Team" WHERE "name" = ANY(${names})`;
    try {
      for (let i = 0; i < 2; i++) {
        await teams(db, [1]);
        await byName(['x']);
      }
      expect((await prepared()).filter((s) => s.includes('FROM "Team"'))).toHaveLength(2);
      const named = db.preparedStatements();
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        await other.query(`INSERT INTO "Country" ("name") VALUES ('Nowhere')`);
        await other.query(
          `INSERT INTO "Team" ("name", "countryId") SELECT 'Team A', "id" FROM "Country" WHERE "name" = 'Nowhere'`,
        );
        await other.query(`ALTER TABLE "Team" ADD COLUMN "addedLater" INTEGER DEFAULT 7`);
      } finally {
        await other.end();
      }
      // In a transaction the failure stands (the transaction is aborted, nothing is sent twice); the text is
      // forgotten all the same, so the next transaction sends it unnamed.
      const readInTransaction = () =>
        db.prisma.$transaction((tx) => tx.$queryRaw`SELECT * FROM "Team" WHERE "name" = ANY(${['Team A']})`);
      await expect(readInTransaction()).rejects.toThrow(/0A000/);
      expect(db.preparedStatements()).toBe(named - 1);
      expect(await readInTransaction()).toEqual([expect.objectContaining({ name: 'Team A', addedLater: 7 })]);
      const [id] = (await db.prisma.team.findMany({ select: { id: true } })).map((t) => t.id);
      // Outside one it is sent again at once. Without that: "cached plan must not change result type", once per
      // connection holding the statement.
      expect(await teams(db, [id])).toEqual([expect.objectContaining({ id, name: 'Team A', addedLater: 7 })]);
      expect(db.preparedStatements()).toBe(named - 2);
      expect(await teams(db, [id])).toEqual([expect.objectContaining({ id, addedLater: 7 })]);
      expect(await byName(['Team A'])).toEqual([expect.objectContaining({ id, addedLater: 7 })]);
    } finally {
      await drop();
    }
  });
});
