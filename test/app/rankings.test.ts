// Rankings (src/app/rankings.ts) called on a request scope, without HTTP: a page of a tournament's ranking in the
// company the request acts on, as its featureSettings allow, and who a ranked entry may name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayIdentifyPlayer, myStanding, ranking, rankedUser } from '../../src/app/rankings.ts';
import { DEFAULT_FEATURE_SETTINGS } from '../../src/domain/defaults.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

/** Runs `work` with Demo Corp's row changed, then puts it back. */
async function withDemo(data: object, work: () => Promise<void>) {
  const id = database.demo.companies.DEMO;
  const before = await database.db.prisma.company.findUniqueOrThrow({ where: { id } });
  await database.db.prisma.company.update({ where: { id }, data });
  try {
    await work();
  } finally {
    const keys = Object.keys(data) as Array<keyof typeof before>;
    await database.db.prisma.company.update({
      where: { id },
      data: Object.fromEntries(keys.map((k) => [k, before[k]])),
    });
  }
}

const rankings = (settings: object) => ({
  featureSettings: { ...DEFAULT_FEATURE_SETTINGS, rankings: { ...DEFAULT_FEATURE_SETTINGS.rankings, ...settings } },
});

describe('ranking', () => {
  it("ranks the company's people only, by points, with the caller's own standing", async () => {
    const tournamentId = database.demo.tournament;
    const page = await ranking(await testScope(database, 'player'), { tournamentId, take: 100 });
    const demoUsers = await database.db.prisma.user.findMany({ where: { companyId: database.demo.companies.DEMO } });
    const ids = new Set(demoUsers.map((u) => u.id));
    expect(page.total).toBe(page.entries.length);
    expect(page.entries.every((e) => ids.has(e.userId))).toBe(true);
    const points = page.entries.map((e) => e.points);
    expect(points).toEqual([...points].sort((a, b) => b - a));
    const me = database.demo.users['player1@demo.test'];
    const standing = await database.db.prisma.tournamentStanding.findUniqueOrThrow({
      where: { tournamentId_userId: { tournamentId, userId: me } },
    });
    expect(page.me).toMatchObject({ userId: me, points: standing.points });
    expect(page.entries.find((e) => e.userId === me)).toEqual(page.me);
    expect(await myStanding(await testScope(database, 'player'), tournamentId)).toEqual(page.me);

    const globex = await ranking(await testScope(database, 'globexPlayer'), { tournamentId, take: 100 });
    expect(globex.entries.some((e) => ids.has(e.userId))).toBe(false);
    // A reseller acting on Demo Corp reads its ranking, without a standing of its own there.
    const reseller = await ranking(await testScope(database, 'reseller', { headers: { appPath: 'demo' } }), {
      tournamentId,
    });
    expect(reseller.me).toBeNull();
    expect(reseller.total).toBe(page.total);
  });

  it('is refused to the anonymous; a tournament the company does not play is NOT_FOUND', async () => {
    const prisma = database.db.prisma;
    await expect(
      ranking(await testScope(database, null), { tournamentId: database.demo.tournament }),
    ).rejects.toMatchObject(code('UNAUTHENTICATED'));
    const world = await prisma.country.findFirstOrThrow({ where: { name: 'World' } });
    const globexCup = await prisma.tournament.create({
      data: { name: 'Globex Cup', countryId: world.id, ownerCompanyId: database.demo.companies.GLOBEX },
    });
    await expect(ranking(await testScope(database, 'admin'), { tournamentId: globexCup.id })).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
  });

  it('names the bad argument: rounds given twice, another tournament’s round, an unknown combination', async () => {
    const admin = await testScope(database, 'admin');
    const tournamentId = database.demo.tournament;
    const md1 = database.demo.rounds['Matchday 1'];
    await expect(ranking(admin, { tournamentId, roundId: md1, roundIds: [md1] })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'roundIds'),
    );
    const world = await database.db.prisma.country.findFirstOrThrow({ where: { name: 'World' } });
    const other = await database.db.prisma.tournament.create({
      data: { name: 'Other Cup', countryId: world.id, ownerCompanyId: database.demo.companies.DEMO },
    });
    const otherRound = await database.db.prisma.round.create({
      data: { tournamentId: other.id, name: 'R1', date: new Date(), position: 1 },
    });
    await expect(ranking(admin, { tournamentId, roundId: otherRound.id })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'roundId'),
    );
    await expect(ranking(admin, { tournamentId, roundIds: [md1, otherRound.id] })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'roundIds'),
    );
    await expect(ranking(admin, { tournamentId, combinedRoundsDefinition: 0 })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'combinedRoundsDefinition'),
    );
  });

  it('ranks a combined-rounds definition of the company as the rounds it names', async () => {
    const md1 = database.demo.rounds['Matchday 1'];
    const md2 = database.demo.rounds['Matchday 2'];
    await withDemo({ combinedRoundsRankingDefinitions: [`Groups:${md1},${md2}`, 'Broken:x'] }, async () => {
      const player = await testScope(database, 'player');
      const tournamentId = database.demo.tournament;
      const combined = await ranking(player, { tournamentId, combinedRoundsDefinition: 0, take: 100 });
      const listed = await ranking(player, { tournamentId, roundIds: [md1, md2], take: 100 });
      expect(combined).toEqual(listed);
      await expect(ranking(player, { tournamentId, combinedRoundsDefinition: 1 })).rejects.toMatchObject(
        field('BAD_USER_INPUT', 'combinedRoundsDefinition'),
      );
    });
  });

  it("follows the company's ranking settings for players; its admins see every ranking", async () => {
    const tournamentId = database.demo.tournament;
    const roundId = database.demo.rounds['Matchday 1'];
    await withDemo(rankings({ showGeneralRanking: false, showRoundRankings: false }), async () => {
      await expect(ranking(await testScope(database, 'player'), { tournamentId })).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
      await expect(ranking(await testScope(database, 'player'), { tournamentId, roundId })).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
      expect((await ranking(await testScope(database, 'admin'), { tournamentId, roundId })).total).toBeGreaterThan(0);
    });
  });

  it('area rankings: another company’s area is NOT_FOUND; "own" shows players their own areas only', async () => {
    const tournamentId = database.demo.tournament;
    const { Sales, Engineering, Headquarters } = database.demo.areas;
    await expect(
      ranking(await testScope(database, 'admin'), { tournamentId, areaId: Headquarters }),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    await withDemo(rankings({ visibleAreaRankings: 'own' }), async () => {
      // player1 works in Engineering (Buenos Aires, Argentina).
      const player = await testScope(database, 'player');
      await expect(ranking(player, { tournamentId, areaId: Sales })).rejects.toMatchObject(code('FORBIDDEN'));
      const own = await ranking(player, { tournamentId, areaId: Engineering, take: 100 });
      const members = await database.db.prisma.user.findMany({ where: { areaLevel3Id: Engineering } });
      expect(new Set(own.entries.map((e) => e.userId))).toEqual(new Set(members.map((u) => u.id)));
      expect(own.me?.userId).toBe(database.demo.users['player1@demo.test']);
    });
    await withDemo(
      { featureSettings: { ...DEFAULT_FEATURE_SETTINGS, areas: { minUsersForAreaRanking: 1000 } } },
      async () => {
        await expect(
          ranking(await testScope(database, 'admin'), { tournamentId, areaId: Sales }),
        ).rejects.toMatchObject(code('FORBIDDEN'));
      },
    );
  });

  it('a private league is ranked for its members only', async () => {
    const tournamentId = database.demo.tournament;
    const league = await database.db.prisma.internalRanking.create({
      data: {
        companyId: database.demo.companies.DEMO,
        tournamentId,
        ownerId: database.demo.users['player1@demo.test'],
        name: 'Lunch table',
        memberships: {
          create: [
            { userId: database.demo.users['player1@demo.test'] },
            { userId: database.demo.users['player3@demo.test'] },
          ],
        },
      },
    });
    const page = await ranking(await testScope(database, 'player'), { tournamentId, internalRankingId: league.id });
    expect(new Set(page.entries.map((e) => e.userId))).toEqual(
      new Set([database.demo.users['player1@demo.test'], database.demo.users['player3@demo.test']]),
    );
    for (const outsider of ['player2', 'globexPlayer'] as const)
      await expect(
        ranking(await testScope(database, outsider), { tournamentId, internalRankingId: league.id }),
      ).rejects.toMatchObject(code('NOT_FOUND'));
  });
});

describe('mayIdentifyPlayer and rankedUser', () => {
  it('where names are hidden, a player sees only their own; admins and resellers see who is ranked', async () => {
    const me = database.demo.users['player1@demo.test'];
    const colleague = database.demo.users['player2@demo.test'];
    await withDemo({ disableRankingsUserNames: true }, async () => {
      const player = await testScope(database, 'player');
      expect(mayIdentifyPlayer(player, me)).toBe(true);
      expect(mayIdentifyPlayer(player, colleague)).toBe(false);
      expect(await rankedUser(player, colleague)).toBeNull();
      expect((await rankedUser(player, me))?.id).toBe(me);
      expect((await rankedUser(await testScope(database, 'admin'), colleague))?.id).toBe(colleague);
      const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
      expect(mayIdentifyPlayer(reseller, colleague)).toBe(true);
    });
    expect(mayIdentifyPlayer(await testScope(database, 'player'), colleague)).toBe(true);
    // Without a company to act on, nobody else: the rule fails closed.
    expect(mayIdentifyPlayer(await testScope(database, null), colleague)).toBe(false);
    await expect(rankedUser(await testScope(database, null), colleague)).rejects.toMatchObject(code('UNAUTHENTICATED'));
  });
});
