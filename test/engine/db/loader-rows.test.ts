// The loaders read plain filters with SQL instead of Prisma's findMany (registry.ts): their rows must be the very
// objects findMany builds (dates as Date, JSON parsed, booleans, nulls), for every model, or resolvers would
// see different values depending on which path a request took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../src/generated/sqlite/client.ts';
import { runWithSqlStats, type SqlStats } from '../../../src/db/sql-stats.ts';
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
const loaders = () => new Loaders(t.db.prisma, { tenantId: null, viewerId: null, now: new Date() });

describe('loader rows', () => {
  it('by id: the same objects as findMany, for every model with an id', async () => {
    let compared = 0;
    for (const model of Object.values(Prisma.ModelName)) {
      const name = model[0].toLowerCase() + model.slice(1);
      const expected = await (t.db.prisma as unknown as Record<string, Delegate>)[name].findMany({
        take: 50,
        orderBy: undefined,
      });
      if (expected.length === 0 || !('id' in expected[0])) continue;
      const rows = await loaders()
        .byId(name)
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

  it("a team is read with its country: the country loader then answers findMany's row with no statement", async () => {
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

  it("a company's tournaments: findMany's rows, whether asked for alone (SQL) or with others (findMany)", async () => {
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
    const joined = await p.tournament.findFirstOrThrow({ where: { companies: { some: {} } }, orderBy: { id: 'desc' } });
    await p.tournament.update({ where: { id: joined.id }, data: { deletedAt: new Date() } });
    expect(await compare()).toBeLessThan(before);
  });
});
