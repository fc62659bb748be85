// The loaders read plain filters with SQL instead of Prisma's findMany (registry.ts): their rows must be the very
// objects findMany builds (dates as Date, JSON parsed, booleans, nulls), for every model, or resolvers would
// see different values depending on which path a request took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../prisma/seed/demo-seed.ts';
import { Prisma } from '../../src/generated/sqlite/client.ts';
import { Loaders } from '../../src/loaders/registry.ts';
import { freshDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
  await seedDemo(t.db.prisma);
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
    const posts = await p.post.findMany({ select: { id: true } });
    const counts = await loaders().commentCountByPost.loadMany(posts.map((x) => x.id));
    for (const [i, { id }] of posts.entries())
      expect(counts[i]).toBe(await p.postComment.count({ where: { postId: id } }));
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
