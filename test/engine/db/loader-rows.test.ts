// The loaders and authentication read through LoaderRows (src/db/loader-rows.ts): Prisma's own reads, or the engine's
// SQL (src/engine/db/loader-sql.ts), sent by the row reader or by $queryRaw. Every call must return the very objects
// on each (dates as Date, JSON parsed, booleans, numbers not strings nor bigints, nulls), the same rows in the same
// order, for every model, or a resolver would see different values depending on the engine that runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../src/generated/sqlite/client.ts';
import { loaderRowsOf, providerOf } from '../../../src/db/client.ts';
import {
  prismaLoaderRows,
  type Column,
  type LoaderRows,
  type Model,
  type OrderBy,
  type PlainWhere,
} from '../../../src/db/loader-rows.ts';
import { runWithSqlStats, type SqlStats } from '../../../src/db/sql-stats.ts';
import { sqlLoaderRows } from '../../../src/engine/db/loader-sql.ts';
import { Loaders } from '../../../src/loaders/registry.ts';
import { seededDatabase, type TestDatabase } from '../../helpers/db.ts';
import { FULL_DB } from '../../../src/engine/index.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await seededDatabase(FULL_DB); // the engine part under test, whatever the run's ENGINE
}, 120_000);
afterAll(async () => {
  await t.drop();
});

type Delegate = { findMany(args?: object): Promise<Array<Record<string, unknown>>> };
const delegate = (model: Model) =>
  (t.db.prisma as unknown as Record<string, Delegate>)[model[0].toLowerCase() + model.slice(1)];

/** Each implementation, by name; `prisma` is the one the others are held to. */
const implementations = (): Record<string, LoaderRows> => {
  const p = t.db.prisma;
  return {
    prisma: prismaLoaderRows(p),
    // What openDatabase hands out with every engine part on: the engine's SQL, sent by the row reader.
    'sql (row reader)': loaderRowsOf(p),
    'sql ($queryRaw)': sqlLoaderRows(providerOf(p), (query) => p.$queryRaw(query)),
  };
};

/** Runs `call` on every implementation; each result must deep-equal Prisma's. Returns Prisma's. */
async function same<T>(call: (rows: LoaderRows) => Promise<T>, label: string): Promise<T> {
  const { prisma, ...others } = implementations();
  const expected = await call(prisma);
  for (const [name, rows] of Object.entries(others))
    expect(await call(rows), `${name}: ${label}`).toStrictEqual(expected);
  return expected;
}

const ids = async (model: Model, where: object = {}) =>
  (await delegate(model).findMany({ where, select: { id: true }, orderBy: { id: 'asc' } })).map((r) => r.id as number);

describe('LoaderRows: Prisma and the SQL return the same', () => {
  it('rows by id, for every model with a numeric id, with and without a limit', async () => {
    let compared = 0;
    for (const model of Object.values(Prisma.ModelName)) {
      const first = await delegate(model).findMany({ take: 1 });
      if (first.length === 0 || typeof first[0].id !== 'number') continue;
      const keys = await ids(model);
      const rows = await same((r) => r.rowsIn({ model, key: 'id' as Column<Model>, keys }), model);
      expect(rows.length, model).toBe(keys.length);
      // Ordered, then cut: the limit keeps the same rows on each.
      await same(
        (r) => r.rowsIn({ model, key: 'id' as Column<Model>, keys, orderBy: [{ id: 'desc' }], take: 3 }),
        `${model} limited`,
      );
      compared++;
    }
    // The demo data fills most models; fewer would mean the comparison silently covers little.
    expect(compared).toBeGreaterThanOrEqual(15);
  });

  it('rows by a foreign key with plain filters, in order: every filter and order the loaders use', async () => {
    const cases: Array<{ model: Model; key: string; parent: Model; where?: object; orderBy: object[] }> = [
      {
        model: 'Area',
        key: 'companyId',
        parent: 'Company',
        orderBy: [{ level: 'asc' }, { name: 'asc' }, { id: 'asc' }],
      },
      { model: 'Round', key: 'tournamentId', parent: 'Tournament', orderBy: [{ position: 'asc' }, { id: 'asc' }] },
      { model: 'Match', key: 'roundId', parent: 'Round', orderBy: [{ date: 'asc' }, { id: 'asc' }] },
      { model: 'PostComment', key: 'postId', parent: 'Post', orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
      { model: 'PostLike', key: 'postId', parent: 'Post', orderBy: [{ id: 'asc' }] },
      { model: 'CompanyExtraField', key: 'companyId', parent: 'Company', orderBy: [{ order: 'asc' }] },
      { model: 'Team', key: 'countryId', parent: 'Country', where: { companyId: null }, orderBy: [{ name: 'asc' }] },
      {
        model: 'Company',
        key: 'resellerCompanyId',
        parent: 'Company',
        where: { deletedAt: null },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
      },
      // A string filter: the role, an enum on PostgreSQL.
      {
        model: 'User',
        key: 'companyId',
        parent: 'Company',
        where: { role: 'admin', deletedAt: null },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
      },
      {
        model: 'Post',
        key: 'userId',
        parent: 'User',
        where: { deletedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      },
      {
        model: 'Tournament',
        key: 'countryId',
        parent: 'Country',
        where: { ownerCompanyId: null, deletedAt: null },
        orderBy: [{ name: 'asc' }],
      },
      { model: 'Prediction', key: 'matchId', parent: 'Match', orderBy: [{ id: 'asc' }] },
      { model: 'TriviaAnswer', key: 'questionId', parent: 'TriviaQuestion', orderBy: [{ id: 'asc' }] },
      { model: 'DreamFinalPick', key: 'settingId', parent: 'DreamFinalsSetting', orderBy: [{ position: 'asc' }] },
    ];
    let rowsSeen = 0;
    let casesRun = 0;
    for (const { model, key, parent, where, orderBy } of cases) {
      const keys = await ids(parent);
      if (keys.length === 0) continue; // a loader is never asked for no keys
      casesRun++;
      const rows = await same(
        (r) =>
          r.rowsIn({
            model,
            key: key as Column<Model>,
            keys,
            where: where as PlainWhere<Model>,
            orderBy: orderBy as OrderBy<Model>,
          }),
        `${model} by ${key}`,
      );
      expect(rows, `${model} by ${key}`).toStrictEqual(
        await delegate(model).findMany({ where: { ...where, [key]: { in: keys } }, orderBy }),
      );
      rowsSeen += rows.length;
    }
    expect(casesRun).toBeGreaterThanOrEqual(12);
    expect(rowsSeen).toBeGreaterThan(100);
  });

  it("rows with their parent: a team with its country, and a team's country row as findUnique builds it", async () => {
    const keys = await ids('Team');
    const joined = await same((r) => r.rowsWithParent('Team', keys), 'teams with countries');
    expect(joined).toHaveLength(keys.length);
    for (const { row, parent } of joined.slice(0, 20))
      expect(parent).toStrictEqual(await t.db.prisma.country.findUnique({ where: { id: row.countryId } }));
    await same((r) => r.rowsWithParent('Team', keys, 5), 'teams with countries, limited');
  });

  it('counts grouped by a key, and the keys a user has a row for', async () => {
    const posts = await ids('Post');
    const comments = await ids('PostComment');
    const byPost = await same((r) => r.countsBy('PostComment', 'postId', posts), 'comments by post');
    expect([...byPost.values()].reduce((a, b) => a + b, 0)).toBe(comments.length);
    for (const [postId, count] of byPost) expect(typeof postId === 'number' && typeof count === 'number').toBe(true);
    await same((r) => r.countsBy('PostLike', 'postId', posts), 'likes by post');
    await same((r) => r.countsBy('PostCommentLike', 'commentId', comments), 'likes by comment');

    const likes = await t.db.prisma.postLike.findMany();
    expect(likes.length).toBeGreaterThan(0);
    for (const userId of new Set(likes.map((l) => l.userId))) {
      const liked = await same(
        async (r) => (await r.keysWithUser('PostLike', 'postId', userId, posts)).sort((a, b) => a - b),
        `posts liked by ${userId}`,
      );
      expect(liked).toStrictEqual(
        likes
          .filter((l) => l.userId === userId)
          .map((l) => l.postId)
          .sort((a, b) => a - b),
      );
    }
  });

  it("a company's tournaments, and the rows authentication reads", async () => {
    let tournaments = 0;
    for (const companyId of [...(await ids('Company')), 2_000_000_000])
      tournaments += (await same((r) => r.companyTournaments(companyId), `tournaments of ${companyId}`)).length;
    expect(tournaments).toBeGreaterThan(0);

    const users = await ids('User');
    for (const id of [...users, 2_000_000_000]) await same((r) => r.activeUser(id), `user ${id}`);
    const companies = await t.db.prisma.company.findMany();
    for (const c of companies) {
      await same((r) => r.companyById(c.id), `company ${c.id}`);
      await same((r) => r.activeCompanyBy('id', c.id), `company ${c.id} by id`);
      if (c.appPath) await same((r) => r.activeCompanyBy('appPath', c.appPath!), `company ${c.id} by path`);
      if (c.appCustomDomain) await same((r) => r.activeCompanyBy('appCustomDomain', c.appCustomDomain!), `host`);
    }
  });
});

const loadersOf = (rows: LoaderRows) =>
  new Loaders(t.db.prisma, { tenantId: null, viewerId: null, now: new Date() }, rows);

describe.each(['prisma', 'sql (row reader)', 'sql ($queryRaw)'])('loaders over %s', (implementation) => {
  const loaders = () => loadersOf(implementations()[implementation]);

  it('by id: the same objects as findMany, for every model with an id', async () => {
    let compared = 0;
    for (const model of Object.values(Prisma.ModelName)) {
      const expected = await delegate(model).findMany({ take: 50, orderBy: undefined });
      if (expected.length === 0 || typeof expected[0].id !== 'number') continue;
      const rows = await loaders()
        .byId(model)
        .loadMany(expected.map((r) => r.id as number));
      expect(rows, model).toStrictEqual(expected);
      compared++;
    }
    // The demo data fills most models; fewer would mean the comparison silently covers little.
    expect(compared).toBeGreaterThanOrEqual(15);
  });

  it('by foreign key: the same rows in the same order, with plain filters applied', async () => {
    const p = t.db.prisma;
    const rounds = (await p.round.findMany({ select: { id: true } })).map((r) => r.id);
    const byRound = await loaders().matchesByRound.loadMany(rounds);
    for (const [i, roundId] of rounds.entries()) {
      expect(byRound[i]).toStrictEqual(
        await p.match.findMany({ where: { roundId }, orderBy: [{ date: 'asc' }, { id: 'asc' }] }),
      );
    }
    const countries = (await p.country.findMany({ select: { id: true } })).map((c) => c.id);
    const teams = await loaders().teamsByCountry.loadMany(countries);
    for (const [i, countryId] of countries.entries()) {
      expect(teams[i]).toStrictEqual(
        await p.team.findMany({ where: { countryId, companyId: null }, orderBy: [{ name: 'asc' }] }),
      );
    }
    // A string filter (the role, an enum on PostgreSQL) is SQL too.
    const companies = (await p.company.findMany({ select: { id: true } })).map((c) => c.id);
    const admins = await loaders().adminsByCompany.loadMany(companies);
    for (const [i, companyId] of companies.entries()) {
      expect(admins[i]).toStrictEqual(
        await p.user.findMany({
          where: { companyId, role: 'admin', deletedAt: null },
          orderBy: [{ name: 'asc' }, { id: 'asc' }],
        }),
      );
    }
    expect(admins.flat().length).toBeGreaterThan(0);
    const posts = await p.post.findMany({ select: { id: true } });
    const counts = await loaders().commentCountByPost.loadMany(posts.map((x) => x.id));
    for (const [i, { id }] of posts.entries())
      expect(counts[i]).toBe(await p.postComment.count({ where: { postId: id } }));
  });

  it("a team is read with its country: the country loader then returns findMany's row with no statement", async () => {
    const p = t.db.prisma;
    const teams = await p.team.findMany({ take: 30 });
    expect(new Set(teams.map((team) => team.countryId)).size).toBeGreaterThan(1);
    const l = loaders();
    expect(await l.team.loadMany(teams.map((team) => team.id))).toStrictEqual(teams);
    const stats: SqlStats = { statements: 0 };
    const countries = await runWithSqlStats(stats, () => l.country.loadMany(teams.map((team) => team.countryId)));
    expect(stats.statements).toBe(0);
    for (const [i, team] of teams.entries())
      expect(countries[i]).toStrictEqual(await p.country.findUnique({ where: { id: team.countryId } }));
  });

  it("a company's tournaments: findMany's rows, whether asked for alone or with others", async () => {
    const p = t.db.prisma;
    const companies = (await p.company.findMany({ select: { id: true } })).map((c) => c.id);
    const compare = async () => {
      const together = await loaders().tournamentsByCompany.loadMany(companies);
      let found = 0;
      for (const [i, companyId] of companies.entries()) {
        const expected = await p.tournament.findMany({
          where: { deletedAt: null, OR: [{ companies: { some: { companyId } } }, { ownerCompanyId: companyId }] },
          orderBy: [{ id: 'asc' }],
        });
        expect(await loaders().tournamentsByCompany.load(companyId)).toStrictEqual(expected);
        expect(together[i]).toStrictEqual(expected);
        found += expected.length;
      }
      return found;
    };
    const before = await compare();
    expect(before).toBeGreaterThan(0);
    // A deleted one is left out, whichever way the company takes part in it.
    const joined = await p.tournament.findFirstOrThrow({
      where: { deletedAt: null, companies: { some: {} } },
      orderBy: { id: 'desc' },
    });
    await p.tournament.update({ where: { id: joined.id }, data: { deletedAt: new Date() } });
    try {
      expect(await compare()).toBeLessThan(before);
    } finally {
      await p.tournament.update({ where: { id: joined.id }, data: { deletedAt: null } });
    }
  });
});
