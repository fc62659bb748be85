// Seasons (src/app/seasons.ts) on a request scope, without HTTP: admins write a season of the company's tournaments
// with weights; its ranking is each person's points in each tournament times the tournament's weight, checked here
// against the same figures computed in plain TypeScript over the standings the test wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeason, deleteSeason, seasonRanking, seasons, updateSeason } from '../../src/app/seasons.ts';
import { DEFAULT_FEATURE_SETTINGS } from '../../src/domain/defaults.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
let demo: number;
let cupA: number;
let cupB: number;
let globexCup: number;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

/** A custom tournament of the company, with these standings (userId, points, exact hits, outcome hits). */
async function cupWith(companyId: number, name: string, standings: Array<[number, number, number, number]>) {
  const prisma = database.db.prisma;
  const world = await prisma.country.findFirstOrThrow({ where: { name: 'World' } });
  const cup = await prisma.tournament.create({ data: { name, countryId: world.id, ownerCompanyId: companyId } });
  await prisma.tournamentStanding.createMany({
    data: standings.map(([userId, points, exactHits, outcomeHits]) => ({
      tournamentId: cup.id,
      userId,
      companyId,
      points,
      exactHits,
      outcomeHits,
    })),
  });
  return cup.id;
}

beforeAll(async () => {
  database = await appTestDatabase();
  demo = database.demo.companies.DEMO;
  const users = database.demo.users;
  const [p1, p2, admin] = [users['player1@demo.test'], users['player2@demo.test'], users['admin@demo.test']];
  cupA = await cupWith(demo, 'Season Cup A', [
    [p1, 10, 2, 1],
    [p2, 7.5, 1, 3],
    [admin, 3, 0, 1],
  ]);
  cupB = await cupWith(demo, 'Season Cup B', [
    [p1, 1, 0, 0],
    [p2, 6, 2, 0],
  ]);
  globexCup = await cupWith(database.demo.companies.GLOBEX, 'Globex Season Cup', []);
});
afterAll(() => database.drop());

interface Expected {
  userId: number;
  name: string;
  points: number;
  exactHits: number;
  outcomeHits: number;
  position: number;
}

/** The season's ranking computed without the product: every active user of the company, weighted sums, HITS. */
async function expectedRanking(weights: Map<number, number>): Promise<Expected[]> {
  const prisma = database.db.prisma;
  const people = await prisma.user.findMany({ where: { companyId: demo, deletedAt: null } });
  const standings = await prisma.tournamentStanding.findMany({ where: { tournamentId: { in: [...weights.keys()] } } });
  const rows = people.map((u) => {
    const own = standings.filter((s) => s.userId === u.id);
    const weighted = own.reduce((sum, s) => sum + s.points * weights.get(s.tournamentId)!, 0);
    return {
      userId: u.id,
      name: u.name,
      points: Math.round(weighted * 100) / 100,
      exactHits: own.reduce((sum, s) => sum + s.exactHits, 0),
      outcomeHits: own.reduce((sum, s) => sum + s.outcomeHits, 0),
    };
  });
  rows.sort(
    (a, b) =>
      b.points - a.points ||
      b.exactHits - a.exactHits ||
      b.outcomeHits - a.outcomeHits ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : a.userId - b.userId),
  );
  const same = (a: (typeof rows)[0], b: (typeof rows)[0]) =>
    a.points === b.points && a.exactHits === b.exactHits && a.outcomeHits === b.outcomeHits;
  const ranked: Expected[] = [];
  rows.forEach((r, i) =>
    ranked.push({ ...r, position: i > 0 && same(rows[i - 1], r) ? ranked[i - 1].position : i + 1 }),
  );
  return ranked;
}

const shown = (entries: Array<Expected & { roundWins?: number }>) =>
  entries.map(({ userId, name, points, exactHits, outcomeHits, position }) => ({
    userId,
    name,
    points,
    exactHits,
    outcomeHits,
    position,
  }));

describe('seasonRanking', () => {
  it("sums each tournament's points times its weight, ranked and paged as ranking is", async () => {
    const admin = await testScope(database, 'admin');
    const tournament = database.demo.tournament;
    const season = await createSeason(admin, {
      name: 'Season of three',
      tournamentIds: [tournament, cupA, cupB],
      weights: [2, 0.5, 1.25],
    });
    expect(season.tournaments.map((t) => [t.tournamentId, t.weight])).toEqual([
      [tournament, 2],
      [cupA, 0.5],
      [cupB, 1.25],
    ]);
    const expected = await expectedRanking(
      new Map([
        [tournament, 2],
        [cupA, 0.5],
        [cupB, 1.25],
      ]),
    );
    expect(expected.some((e) => e.points > 0)).toBe(true);
    const player = await testScope(database, 'player');
    const all = await seasonRanking(player, { seasonId: season.id, take: 100 });
    expect(all.total).toBe(expected.length);
    expect(shown(all.entries as Expected[])).toEqual(expected);
    expect(all.entries.every((e) => e.roundWins === undefined)).toBe(true);
    const me = database.demo.users['player1@demo.test'];
    expect(all.me).toEqual(all.entries.find((e) => e.userId === me));
    // A page further down numbers as the whole does.
    const page = await seasonRanking(player, { seasonId: season.id, skip: 1, take: 2 });
    expect(shown(page.entries as Expected[])).toEqual(expected.slice(1, 3));
    expect(page.total).toBe(expected.length);
    const past = await seasonRanking(player, { seasonId: season.id, skip: 500, take: 5 });
    expect(past).toMatchObject({ total: expected.length, entries: [] });
  });

  it('gives people level on points and hits one position', async () => {
    const users = database.demo.users;
    const [p1, p2] = [users['player1@demo.test'], users['player2@demo.test']];
    // 4 x 1.5 = 6 = 3 x 2, with the same hits: shared.
    const c = await cupWith(demo, 'Tie Cup C', [[p1, 4, 1, 1]]);
    const d = await cupWith(demo, 'Tie Cup D', [[p2, 3, 1, 1]]);
    const season = await createSeason(await testScope(database, 'admin'), {
      name: 'Tied',
      tournamentIds: [c, d],
      weights: [1.5, 2],
    });
    const { entries } = await seasonRanking(await testScope(database, 'player'), { seasonId: season.id });
    expect(entries.slice(0, 2).map((e) => [e.points, e.position])).toEqual([
      [6, 1],
      [6, 1],
    ]);
    expect(entries[2].position).toBe(3);
    expect(shown(entries as Expected[])).toEqual(
      (
        await expectedRanking(
          new Map([
            [c, 1.5],
            [d, 2],
          ]),
        )
      ).slice(0, 20),
    );
  });

  it('under ROUND_WINS, counts the rounds each person won in every tournament of the season', async () => {
    const prisma = database.db.prisma;
    const tournament = database.demo.tournament;
    const season = await createSeason(await testScope(database, 'admin'), {
      name: 'Round wins',
      tournamentIds: [tournament, cupA],
      weights: [2, 1],
    });
    const before = await prisma.company.findUniqueOrThrow({ where: { id: demo } });
    await prisma.company.update({ where: { id: demo }, data: { scoringSettings: { tieRule: 'ROUND_WINS' } } });
    try {
      const { entries } = await seasonRanking(await testScope(database, 'player'), { seasonId: season.id, take: 100 });
      // Independently: each round's points per person from the scored predictions, its best (> 0) wins.
      const people = await prisma.user.findMany({ where: { companyId: demo, deletedAt: null } });
      const ranked = new Set(people.map((u) => u.id));
      const scored = await prisma.prediction.findMany({
        where: { status: 'SCORED', match: { tournamentId: { in: [tournament, cupA] } } },
        include: { match: { select: { roundId: true } } },
      });
      const perRound = new Map<string, number>();
      for (const pr of scored.filter((x) => ranked.has(x.userId))) {
        const key = `${pr.match.roundId}:${pr.userId}`;
        perRound.set(key, (perRound.get(key) ?? 0) + (pr.points ?? 0));
      }
      const best = new Map<number, number>();
      for (const [key, points] of perRound) {
        const round = Number(key.split(':')[0]);
        best.set(round, Math.max(best.get(round) ?? 0, Math.round(points * 100) / 100));
      }
      const wins = new Map<number, number>();
      for (const [key, points] of perRound) {
        const [round, user] = key.split(':').map(Number);
        const mine = Math.round(points * 100) / 100;
        if (mine > 0 && mine === best.get(round)) wins.set(user, (wins.get(user) ?? 0) + 1);
      }
      expect([...wins.values()].some((w) => w > 0)).toBe(true);
      const weighted = await expectedRanking(
        new Map([
          [tournament, 2],
          [cupA, 1],
        ]),
      );
      const rows = weighted.map((r) => ({
        userId: r.userId,
        name: r.name,
        points: r.points,
        roundWins: wins.get(r.userId) ?? 0,
      }));
      rows.sort(
        (a, b) =>
          b.points - a.points ||
          b.roundWins - a.roundWins ||
          (a.name < b.name ? -1 : a.name > b.name ? 1 : a.userId - b.userId),
      );
      const positions: number[] = [];
      rows.forEach((r, i) => {
        const tied = i > 0 && rows[i - 1].points === r.points && rows[i - 1].roundWins === r.roundWins;
        positions.push(tied ? positions[i - 1] : i + 1);
      });
      expect(
        entries.map((e) => ({ userId: e.userId, name: e.name, points: e.points, roundWins: e.roundWins })),
      ).toEqual(rows);
      expect(entries.map((e) => e.position)).toEqual(positions);
    } finally {
      await prisma.company.update({ where: { id: demo }, data: { scoringSettings: before.scoringSettings ?? {} } });
    }
  });

  it('is shown as the general ranking is, and only in the own company', async () => {
    const season = await createSeason(await testScope(database, 'admin'), { name: 'Hidden', tournamentIds: [cupA] });
    const id = demo;
    const before = await database.db.prisma.company.findUniqueOrThrow({ where: { id } });
    await database.db.prisma.company.update({
      where: { id },
      data: {
        featureSettings: {
          ...DEFAULT_FEATURE_SETTINGS,
          rankings: { ...DEFAULT_FEATURE_SETTINGS.rankings, showGeneralRanking: false },
        },
      },
    });
    try {
      await expect(seasonRanking(await testScope(database, 'player'), { seasonId: season.id })).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
      const byAdmin = await seasonRanking(await testScope(database, 'admin'), { seasonId: season.id });
      expect(byAdmin.total).toBeGreaterThan(0);
    } finally {
      await database.db.prisma.company.update({ where: { id }, data: { featureSettings: before.featureSettings! } });
    }
    await expect(
      seasonRanking(await testScope(database, 'globexPlayer'), { seasonId: season.id }),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(seasonRanking(await testScope(database, 'player'), { seasonId: 1e9 })).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(
      seasonRanking(await testScope(database, 'player'), { seasonId: season.id, take: 101 }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'take'));
  });
});

describe('createSeason, updateSeason, deleteSeason, seasons', () => {
  it('validates the input with a clear error', async () => {
    const admin = await testScope(database, 'admin');
    const bad = (input: object, argumentName: string) =>
      expect(createSeason(admin, { name: 'Bad', tournamentIds: [cupA], ...input })).rejects.toMatchObject(
        field('BAD_USER_INPUT', argumentName),
      );
    await bad({ name: '  ' }, 'name');
    await bad({ name: 'x'.repeat(101) }, 'name');
    await bad({ tournamentIds: [] }, 'tournamentIds');
    await bad({ tournamentIds: [globexCup] }, 'tournamentIds');
    await bad({ tournamentIds: [1e9] }, 'tournamentIds');
    await bad({ tournamentIds: Array.from({ length: 21 }, (_, i) => i + 1) }, 'tournamentIds');
    await bad({ tournamentIds: Array.from({ length: 100_000 }, () => cupA) }, 'tournamentIds');
    await bad({ weights: [1, 2] }, 'weights');
    await bad({ weights: [0] }, 'weights');
    await bad({ weights: [-1] }, 'weights');
    await bad({ weights: [101] }, 'weights');
    await bad({ weights: [1.001] }, 'weights');
    await bad({ tournamentIds: [cupA, cupA], weights: [1, 2] }, 'weights');
    expect(await database.db.prisma.season.count({ where: { name: 'Bad' } })).toBe(0);
  });

  it('counts a tournament listed twice once, refuses a taken name, and replaces what is given', async () => {
    const admin = await testScope(database, 'admin');
    const season = await createSeason(admin, { name: ' Twice ', tournamentIds: [cupA, cupB, cupA] });
    expect(season.name).toBe('Twice');
    expect(season.tournaments.map((t) => [t.tournamentId, t.weight])).toEqual([
      [cupA, 1],
      [cupB, 1],
    ]);
    await expect(createSeason(admin, { name: 'Twice', tournamentIds: [cupA] })).rejects.toMatchObject(
      field('CONFLICT', 'name'),
    );
    const renamed = await updateSeason(admin, season.id, { name: 'Once' });
    expect(renamed.tournaments).toHaveLength(2);
    const changed = await updateSeason(admin, season.id, { tournamentIds: [cupB], weights: [3] });
    expect(changed).toMatchObject({ name: 'Once', tournaments: [{ tournamentId: cupB, weight: 3 }] });
    await expect(updateSeason(admin, season.id, { weights: [2] })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'weights'),
    );
    const listed = await seasons(await testScope(database, 'player'));
    expect(listed.map((s) => s.name)).toContain('Once');
    expect(await seasons(await testScope(database, 'globexPlayer'))).toEqual([]);
    expect(await deleteSeason(admin, season.id)).toBe(true);
    expect(await database.db.prisma.seasonTournament.count({ where: { seasonId: season.id } })).toBe(0);
    await expect(deleteSeason(admin, season.id)).rejects.toMatchObject(code('NOT_FOUND'));
  });

  it('is written by admins of the company only', async () => {
    const season = await createSeason(await testScope(database, 'admin'), { name: 'Guarded', tournamentIds: [cupA] });
    const player = await testScope(database, 'player');
    await expect(createSeason(player, { name: 'Mine', tournamentIds: [cupA] })).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    await expect(updateSeason(player, season.id, { name: 'Mine' })).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(deleteSeason(player, season.id)).rejects.toMatchObject(code('FORBIDDEN'));
    const globexAdmin = await testScope(database, 'globexAdmin');
    await expect(updateSeason(globexAdmin, season.id, { name: 'Ours' })).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(deleteSeason(globexAdmin, season.id)).rejects.toMatchObject(code('NOT_FOUND'));
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    expect((await updateSeason(reseller, season.id, { name: 'By reseller' })).name).toBe('By reseller');
  });
});
