// The data version the response cache trusts (src/engine/cache/table-versions.ts): it must move whenever a write
// commits to this database, from any connection, and only then; a response cached across a missed move would be
// served stale, and a cache that sees moves that are not there never hits.
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../../../src/db/client.ts';
import { sharedReads } from '../../../src/engine/cache/table-versions.ts';
import { DEFAULT_COMPANY_JSON } from '../../../src/domain/defaults.ts';
import { diffSchemas, readSnapshot, trackNewTables } from '../../../src/db/migrations.ts';
import { derivePostgresSchema, readSchema } from '../../../src/db/schema-files.ts';
import { OWNED_TABLES, ownerCounter } from '../../../src/engine/cache/owner-buckets.ts';
import { seedDemo } from '../../../prisma/seed/demo-seed.ts';
import { freshDatabase, suiteProvider, type TestDatabase } from '../../helpers/db.ts';
import { FULL_DB } from '../../../src/engine/index.ts';

const dbs: TestDatabase[] = [];
afterAll(async () => {
  for (const t of dbs) await t.drop();
});

/** One token of every table's version (null while none can be given): it moves when any of them does. */
const versionToken = async (t: TestDatabase) => (await t.db.tableVersions())?.of() ?? null;

/** The version of the Country table (tokens read `<epoch>|Country=<count>`). */
const countries = async (t: TestDatabase) => BigInt((await t.db.tableVersions())!.of(['Country']).split('=')[1]);

/** A plain driver connection to a test's PostgreSQL database (BEGIN/SAVEPOINT by hand, isolation levels). */
async function pgClient(t: TestDatabase) {
  const client = new pg.Client({ connectionString: (t.target as { url: string }).url });
  await client.connect();
  return client;
}

async function fresh(provider: typeof suiteProvider) {
  const t = await freshDatabase(provider, FULL_DB); // the engine part under test, whatever the run's ENGINE
  dbs.push(t);
  return t;
}

describe.each([...new Set(['sqlite', suiteProvider] as const)])('%s data version', (provider) => {
  it('holds across reads and moves when a write commits, through this client or another', async () => {
    const t = await fresh(provider);
    const v0 = await versionToken(t);
    expect(v0).not.toBeNull();
    await t.db.prisma.country.count();
    expect(await versionToken(t)).toBe(v0);

    await t.db.prisma.country.create({ data: { name: 'Uruguay' } });
    const v1 = await versionToken(t);
    expect(v1).not.toBe(v0);

    const other = await openDatabase(t.target);
    try {
      await other.prisma.country.create({ data: { name: 'Chile' } });
    } finally {
      await other.close();
    }
    expect(await versionToken(t)).not.toBe(v1);
  });

  it("does not move for another client's open transaction, and moves at its commit", async () => {
    const t = await fresh(provider);
    const other = await openDatabase(t.target);
    try {
      const v0 = await versionToken(t);
      await other.prisma.$transaction(async (tx) => {
        await tx.country.create({ data: { name: 'Peru' } });
        expect(await versionToken(t)).toBe(v0);
      });
      expect(await versionToken(t)).not.toBe(v0);
      // A rolled-back transaction changed nothing readers can see.
      const v1 = await versionToken(t);
      await expect(
        other.prisma.$transaction(async (tx) => {
          await tx.country.create({ data: { name: 'Bolivia' } });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await versionToken(t)).toBe(v1);
    } finally {
      await other.close();
    }
  });

  it('does not move for writes to another database on the same server', async () => {
    const [a, b] = [await fresh(provider), await fresh(provider)];
    const v0 = await versionToken(a);
    await b.db.prisma.country.create({ data: { name: 'Ecuador' } });
    await b.db.prisma.country.deleteMany();
    expect(await versionToken(a)).toBe(v0);
  });

  it('versions per table: a write moves its own table only; a response that read others keeps its token', async () => {
    const t = await fresh(provider);
    const v0 = (await t.db.tableVersions())!;
    await t.db.prisma.country.create({ data: { name: 'Honduras' } });
    const v1 = (await t.db.tableVersions())!;
    expect(v1.of(['Country'])).not.toBe(v0.of(['Country']));
    expect(v1.of(['Team', 'Match', 'User'])).toBe(v0.of(['Team', 'Match', 'User']));
    expect(v1.of()).not.toBe(v0.of());
    // A cascade moves the tables it reaches: deleting a company deletes its extra fields.
    const company = await t.db.prisma.company.create({
      data: {
        ...DEFAULT_COMPANY_JSON,
        name: 'Co',
        code: 'co',
        appPath: 'co',
        extraFields: { create: { id: 'shirt', name: 'Shirt', kind: 'text', order: 1, type: 'string' } },
      },
    });
    const v2 = (await t.db.tableVersions())!;
    await t.db.prisma.company.delete({ where: { id: company.id } });
    expect((await t.db.tableVersions())!.of(['CompanyExtraField'])).not.toBe(v2.of(['CompanyExtraField']));
  });

  it("versions per owner: a prediction moves its owner's bucket and the table, not another user's bucket", async () => {
    const t = await fresh(provider);
    await seedDemo(t.db.prisma);
    const p = t.db.prisma;
    const predicted = await p.prediction.findMany({ distinct: ['userId'], select: { userId: true }, take: 50 });
    const a = predicted[0].userId;
    const b = predicted.find((x) => ownerCounter('Prediction', x.userId) !== ownerCounter('Prediction', a))!.userId;
    const [A, B] = [ownerCounter('Prediction', a), ownerCounter('Prediction', b)];
    const v0 = (await t.db.tableVersions())!;
    await p.prediction.updateMany({ where: { userId: a }, data: { isJoker: true } });
    const v1 = (await t.db.tableVersions())!;
    expect(v1.of([A])).not.toBe(v0.of([A]));
    expect(v1.of(['Prediction'])).not.toBe(v0.of(['Prediction']));
    expect(v1.of([B])).toBe(v0.of([B]));
    // One statement over everyone's rows moves every owner's bucket; a delete moves the deleted rows' owners'.
    await p.prediction.updateMany({ data: { isJoker: false } });
    const v2 = (await t.db.tableVersions())!;
    expect(v2.of([A])).not.toBe(v1.of([A]));
    expect(v2.of([B])).not.toBe(v1.of([B]));
    await p.prediction.deleteMany({ where: { userId: b } });
    const v3 = (await t.db.tableVersions())!;
    expect(v3.of([B])).not.toBe(v2.of([B]));
    expect(v3.of([A])).toBe(v2.of([A]));
    if (provider === 'postgresql') {
      // TRUNCATE names no rows: every bucket moves.
      await p.$executeRawUnsafe('TRUNCATE "Prediction"');
      const v4 = (await t.db.tableVersions())!;
      expect(v4.of([A])).not.toBe(v3.of([A]));
      expect(v4.of(['Prediction@255'])).not.toBe(v3.of(['Prediction@255']));
    }
  });

  if (provider === 'sqlite') {
    it('tracks every table: each has the insert, update and delete triggers (db:migration adds them)', async () => {
      const t = await fresh(provider);
      const rows = await t.db.prisma.$queryRawUnsafe<Array<{ name: string; triggers: string | null }>>(`
        SELECT m.name, (SELECT group_concat(g.name) FROM (SELECT name FROM sqlite_master
          WHERE type = 'trigger' AND tbl_name = m.name AND name LIKE '\\_prode\\_tv\\_%' ESCAPE '\\' ORDER BY name) g)
          AS triggers
        FROM sqlite_master m
        WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
          AND m.name NOT IN ('_prisma_migrations', '_prode_table_version')`);
      expect(rows.length).toBeGreaterThan(25);
      // An owned table has its owners' buckets' three too (src/engine/cache/owner-buckets.ts).
      const expected = (name: string) =>
        ['delete', 'insert', 'update']
          .flatMap((op) => [
            `_prode_tv_${name}_${op}`,
            ...(OWNED_TABLES[name] ? [`_prode_tv_${name}_owner_${op}`] : []),
          ])
          .sort()
          .join();
      const untracked = rows.filter((r) => r.triggers !== expected(r.name)).map((r) => r.name);
      expect(untracked).toEqual([]);
    });

    it('gives no versions while one of its transactions is open, and reports a rollback', async () => {
      const t = await fresh(provider);
      const before = (await t.db.tableVersions())!;
      await expect(
        t.db.prisma.$transaction(async (tx) => {
          await tx.country.create({ data: { name: 'Cuba' } });
          expect(await t.db.tableVersions()).toBeNull();
          // A check after a response was computed may read during it: the open write shows, so the check fails.
          expect((await t.db.tableVersions(true))!.of(['Country'])).not.toBe(before.of(['Country']));
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      const after = (await t.db.tableVersions())!;
      expect(after.of(['Country'])).toBe(before.of(['Country']));
      expect(after.rollbacks).toBe(before.rollbacks + 1);
    });
  }

  if (provider === 'postgresql') {
    it(
      'tracks every table: each has the insert, update, delete and TRUNCATE triggers (add ' +
        'prode_meta.track_writes to new tables)',
      async () => {
        const t = await fresh(provider);
        const rows = await t.db.prisma.$queryRawUnsafe<Array<{ table: string; triggers: string[] }>>(`
        SELECT c.relname AS "table",
               coalesce(array_agg(tg.tgname::text ORDER BY tg.tgname)
                          FILTER (WHERE tg.tgname LIKE 'prode_data_version%' AND tg.tgenabled = 'A'), '{}') AS triggers
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_trigger tg ON tg.tgrelid = c.oid AND NOT tg.tgisinternal
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'
        GROUP BY c.relname ORDER BY c.relname`);
        expect(rows.length).toBeGreaterThan(25);
        const untracked = rows
          .filter(
            (r) =>
              r.triggers.join() !==
              ['delete', 'insert', 'truncate', 'update'].map((op) => `prode_data_version_${op}`).join(),
          )
          .map((r) => r.table);
        expect(untracked).toEqual([]);
        // An owned table's owners' buckets (src/engine/cache/owner-buckets.ts) move on every write and on TRUNCATE.
        const owners = await t.db.prisma.$queryRawUnsafe<Array<{ table: string; triggers: string[] }>>(`
        SELECT c.relname AS "table", array_agg(tg.tgname::text ORDER BY tg.tgname) AS triggers
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_trigger tg ON tg.tgrelid = c.oid
        WHERE n.nspname = current_schema() AND tg.tgname LIKE 'prode_owner_version%' AND tg.tgenabled = 'A'
        GROUP BY c.relname ORDER BY c.relname`);
        expect(owners).toEqual(
          Object.keys(OWNED_TABLES).map((table) => ({
            table,
            triggers: ['delete', 'insert', 'truncate', 'update'].map((op) => `prode_owner_version_${op}`),
          })),
        );

        const v0 = await versionToken(t);
        await t.db.prisma.$executeRawUnsafe('TRUNCATE "Country" CASCADE');
        expect(await versionToken(t)).not.toBe(v0);
      },
    );

    it('never makes a writer wait: 17 open writers of one table at once, the fifth on adds a slot', async () => {
      const t = await fresh(provider);
      const clients: pg.Client[] = [];
      try {
        for (let i = 0; i < 17; i++) clients.push(await pgClient(t));
        // A writer blocked on another's slot would fail instead of hanging the test.
        for (const c of clients) await c.query("SET lock_timeout = '2s'");
        const v0 = await versionToken(t);
        const c0 = await countries(t);
        for (const [i, c] of clients.entries()) {
          await c.query('BEGIN');
          await c.query('INSERT INTO "Country" (name) VALUES ($1)', [`Country ${i}`]);
          await c.query('INSERT INTO "Country" (name) VALUES ($1)', [`Country ${i} bis`]);
        }
        expect(await versionToken(t)).toBe(v0);
        for (const c of clients) await c.query('COMMIT');
        expect((await countries(t)) - c0).toBe(17n);
        const [{ slots }] = await t.db.prisma.$queryRawUnsafe<Array<{ slots: number }>>(
          `SELECT count(*)::int AS slots FROM prode_meta.table_version WHERE tbl = 'Country'`,
        );
        expect(slots).toBe(17);
      } finally {
        for (const c of clients) await c.end().catch(() => {});
      }
    });

    it(
      'moves for what commits only: not for a statement that changes no row, nor for a write rolled back to a ' +
        'savepoint',
      async () => {
        const t = await fresh(provider);
        const client = await pgClient(t);
        try {
          const v0 = await versionToken(t);
          const c0 = await countries(t);
          await client.query(`UPDATE "Country" SET name = name WHERE false`);
          await client.query(`DELETE FROM "Country" WHERE name = 'nobody'`);
          expect(await versionToken(t)).toBe(v0);

          // The once-per-transaction flag is undone with the bump it marked, so the write after still counts.
          await client.query('BEGIN');
          await client.query('SAVEPOINT s');
          await client.query(`INSERT INTO "Country" (name) VALUES ('Paraguay')`);
          await client.query('ROLLBACK TO SAVEPOINT s');
          await client.query(`INSERT INTO "Country" (name) VALUES ('Venezuela')`);
          await client.query('COMMIT');
          expect((await countries(t)) - c0).toBe(1n);
        } finally {
          await client.end();
        }
      },
    );

    it('lets REPEATABLE READ and SERIALIZABLE writers commit while others commit under them', async () => {
      const t = await fresh(provider);
      const [a, b, c] = [await pgClient(t), await pgClient(t), await pgClient(t)];
      try {
        const c0 = await countries(t);
        await a.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        await b.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        await a.query('SELECT count(*) FROM "Country"');
        await b.query('SELECT count(*) FROM "Country"');
        // Commits after both snapshots, through the slots they would otherwise update.
        await c.query(`INSERT INTO "Country" (name) VALUES ('Colombia')`);
        await a.query(`INSERT INTO "Country" (name) VALUES ('Brazil')`);
        await b.query(`INSERT INTO "Country" (name) VALUES ('Argentina')`);
        await a.query('COMMIT');
        await b.query('COMMIT');
        expect((await countries(t)) - c0).toBe(3n);
      } finally {
        for (const x of [a, b, c]) await x.end();
      }
    });
  }
});

describe('sharedReads (PostgreSQL reads the table versions once for all who ask before the read begins)', () => {
  /** A read that starts when called and ends when told; `begun` counts calls. */
  function gatedReads() {
    const ends: Array<(value: number) => void> = [];
    let begun = 0;
    const read = () => {
      const n = ++begun;
      return new Promise<number>((resolve, reject) =>
        ends.push((v) => (v < 0 ? reject(new Error('down')) : resolve(v * 100 + n))),
      );
    };
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    return { shared: sharedReads(read), ends, begun: () => begun, tick };
  }

  it('gives everyone who asked before it began the same read', async () => {
    const g = gatedReads();
    const [a, b, c] = [g.shared(), g.shared(), g.shared()];
    await g.tick();
    expect(g.begun()).toBe(1);
    g.ends[0](1);
    expect(await Promise.all([a, b, c])).toEqual([101, 101, 101]);
  });

  it('never hands a caller a read begun before it asked: it waits for that one and shares the next', async () => {
    const g = gatedReads();
    const first = g.shared();
    await g.tick();
    expect(g.begun()).toBe(1);
    // Asked while the first read runs: a write may have committed since it began.
    const [late, later] = [g.shared(), g.shared()];
    await g.tick();
    expect(g.begun()).toBe(1);
    g.ends[0](1);
    expect(await first).toBe(101);
    await g.tick();
    expect(g.begun()).toBe(2);
    g.ends[1](2);
    expect(await Promise.all([late, later])).toEqual([202, 202]);
  });

  it('fails only those who shared a failed read; the next read begins as usual', async () => {
    const g = gatedReads();
    const failed = g.shared();
    await g.tick();
    const next = g.shared();
    g.ends[0](-1);
    await expect(failed).rejects.toThrow('down');
    await g.tick();
    g.ends[1](3);
    expect(await next).toBe(302);
  });
});

describe('npm run db:migration', () => {
  it('adds the table-version triggers to every table a migration creates', async () => {
    const schema =
      `${derivePostgresSchema(readSchema('sqlite'))}\nmodel Trophy {\n  id Int @id ` +
      `@default(autoincrement())\n  name String\n}\n`;
    const sql = trackNewTables(await diffSchemas(readSnapshot('postgresql'), schema));
    expect(sql).toMatch(/^CREATE TABLE "Trophy"/m);
    expect(sql).toMatch(/^SELECT prode_meta\.track_writes\('"Trophy"'\);$/m);
    expect(trackNewTables('CREATE INDEX "x" ON "User"("email");\n')).toBe('CREATE INDEX "x" ON "User"("email");\n');
    const lite = trackNewTables(
      await diffSchemas(
        readSnapshot('sqlite'),
        `${readSchema('sqlite')}\nmodel Trophy {\n  id Int @id @default(autoincrement())\n  name String\n}\n`,
      ),
      'sqlite',
    );
    for (const op of ['insert', 'update', 'delete'])
      expect(lite).toMatch(
        new RegExp(`^CREATE TRIGGER "_prode_tv_Trophy_${op}" AFTER ${op.toUpperCase()} ON "Trophy"`, 'm'),
      );
  });

  it('tracks a table SQLite redefines under its final name (the dropped table took its triggers along)', async () => {
    const schema = readSchema('sqlite').replace(/^(model Area \{\n)/m, '$1  motto String @default("")\n');
    const lite = trackNewTables(await diffSchemas(readSnapshot('sqlite'), schema), 'sqlite');
    expect(lite).toMatch(/^ALTER TABLE "new_Area" RENAME TO "Area"/m);
    for (const op of ['insert', 'update', 'delete'])
      expect(lite).toMatch(
        new RegExp(`^CREATE TRIGGER "_prode_tv_Area_${op}" AFTER ${op.toUpperCase()} ON "Area"`, 'm'),
      );
    expect(lite).not.toMatch(/_prode_tv_new_/);
  });
});
