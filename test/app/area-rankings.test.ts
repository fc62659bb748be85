// Team rankings (src/app/area-rankings.ts) on a request scope, without HTTP: the areas of one level against each
// other by the average points of their ranked members, small areas left out, under the company's visibility
// settings; the figures are checked against the same computed in plain TypeScript over the rows the test wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaRanking } from '../../src/app/area-rankings.ts';
import { signAccessToken } from '../../src/auth/tokens.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_FEATURE_SETTINGS, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
let company: number;
let cup: number;
const ids: Record<string, number> = {};
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

/** Areas (level 1 with their level-2 children) and people: [name, role, level-1 area, level-2 area, points]. */
const TREE = { North: ['North East', 'North West'], South: ['South East'], East: [], Tiny: [] } as const;
const PEOPLE: Array<[string, 'player' | 'admin', string, string | null, number | null, boolean?]> = [
  ['Ana', 'player', 'North', 'North East', 10],
  ['Ben', 'player', 'North', 'North East', 5],
  ['Cid', 'player', 'North', 'North West', 0],
  ['Dee', 'admin', 'North', 'North West', 7],
  ['Eva', 'player', 'South', 'South East', 12],
  ['Fay', 'player', 'South', 'South East', 3.5],
  ['Gus', 'player', 'South', 'South East', null],
  ['Hal', 'player', 'East', null, 15.5],
  ['Ivy', 'player', 'East', null, 6],
  ['Jon', 'player', 'East', null, 0.5],
  ['Kim', 'player', 'Tiny', null, 40],
  ['Lou', 'player', 'North', 'North East', 90, true],
];

beforeAll(async () => {
  database = await appTestDatabase();
  const prisma = database.db.prisma;
  company = (
    await prisma.company.create({
      data: { ...DEFAULT_COMPANY_JSON, name: 'Teams Co', code: 'TEAMS', appPath: 'teams' },
    })
  ).id;
  for (const [l1, children] of Object.entries(TREE)) {
    ids[l1] = (await prisma.area.create({ data: { companyId: company, name: l1, level: 1 } })).id;
    for (const l2 of children)
      ids[l2] = (
        await prisma.area.create({ data: { companyId: company, name: l2, level: 2, parentAreaId: ids[l1] } })
      ).id;
  }
  const world = await prisma.country.findFirstOrThrow({ where: { name: 'World' } });
  cup = (await prisma.tournament.create({ data: { name: 'Teams Cup', countryId: world.id, ownerCompanyId: company } }))
    .id;
  for (const [name, role, l1, l2, points, deleted] of PEOPLE) {
    const user = await prisma.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId: company,
        email: `${name.toLowerCase()}@teams.test`,
        name,
        role,
        externalId: name,
        loginProviderId: name,
        areaLevel1Id: ids[l1],
        areaLevel2Id: l2 ? ids[l2] : null,
        deletedAt: deleted ? new Date() : null,
      },
    });
    ids[name] = user.id;
    if (points !== null)
      await prisma.tournamentStanding.create({
        data: { tournamentId: cup, userId: user.id, companyId: company, points, exactHits: 0, outcomeHits: 0 },
      });
  }
});
afterAll(() => database.drop());

async function as(name: string) {
  const user = await database.db.prisma.user.findUniqueOrThrow({ where: { id: ids[name] } });
  const token = await signAccessToken(
    { userId: user.id, companyId: company, role: user.role, tokenVersion: user.tokenVersion },
    database.config.jwtSecret,
    database.config.jwtTtlSeconds,
  );
  return testScope(database, null, { headers: { authorization: `Bearer ${token}`, appPath: 'teams' } });
}

/** The ranking computed without the product, over the people written above. */
function expected(level: 1 | 2, min: number, rankAdmins = true) {
  const groups = new Map<string, number[]>();
  for (const [, role, l1, l2, points, deleted] of PEOPLE) {
    const area = level === 1 ? l1 : l2;
    if (!area || deleted || (!rankAdmins && role !== 'player')) continue;
    groups.set(area, [...(groups.get(area) ?? []), points ?? 0]);
  }
  const rows = [...groups]
    .filter(([, points]) => points.length >= min)
    .map(([name, points]) => ({
      area: name,
      members: points.length,
      points: Math.round((points.reduce((a, b) => a + b, 0) / points.length) * 100) / 100,
    }))
    .sort((a, b) => b.points - a.points || (a.area < b.area ? -1 : 1));
  const positions: number[] = [];
  rows.forEach((r, i) => positions.push(i > 0 && rows[i - 1].points === r.points ? positions[i - 1] : i + 1));
  return rows.map((r, i) => ({ ...r, position: positions[i] }));
}

async function withSettings(data: object, work: () => Promise<void>) {
  const before = await database.db.prisma.company.findUniqueOrThrow({ where: { id: company } });
  await database.db.prisma.company.update({ where: { id: company }, data });
  try {
    await work();
  } finally {
    const keys = Object.keys(data) as Array<keyof typeof before>;
    await database.db.prisma.company.update({
      where: { id: company },
      // A JSON setting that was null reads as its defaults, as {} does.
      data: Object.fromEntries(keys.map((k) => [k, before[k] ?? {}])),
    });
  }
}

const settings = (areas: object, rankings: object = {}) => ({
  featureSettings: {
    ...DEFAULT_FEATURE_SETTINGS,
    areas: { ...DEFAULT_FEATURE_SETTINGS.areas, ...areas },
    rankings: { ...DEFAULT_FEATURE_SETTINGS.rankings, ...rankings },
  },
});

async function shown(scope: Awaited<ReturnType<typeof as>>, level: number, page: object = {}) {
  const result = await areaRanking(scope, { tournamentId: cup, level, take: 100, ...page });
  const names = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
  return {
    total: result.total,
    entries: result.entries.map((e) => ({
      area: names.get(e.areaId)!,
      members: e.members,
      points: e.points,
      position: e.position,
    })),
  };
}

describe('areaRanking', () => {
  it('ranks the areas of a level by the average points of their ranked members, small areas left out', async () => {
    await withSettings(settings({ minUsersForAreaRanking: 2 }, { visibleAreaRankings: 'all' }), async () => {
      const level1 = expected(1, 2);
      // North: (10 + 5 + 0 + 7) / 4 = 5.5; South: (12 + 3.5 + 0) / 3 = 5.17; East: 22 / 3 = 7.33; Tiny left out.
      expect(level1.map((r) => [r.area, r.points, r.members])).toEqual([
        ['East', 7.33, 3],
        ['North', 5.5, 4],
        ['South', 5.17, 3],
      ]);
      expect(await shown(await as('Ana'), 1)).toEqual({ total: 3, entries: level1 });
      expect(await shown(await as('Ana'), 2)).toEqual({ total: 3, entries: expected(2, 2) });
      const page = await shown(await as('Ana'), 1, { skip: 1, take: 1 });
      expect(page).toEqual({ total: 3, entries: level1.slice(1, 2) });
    });
    await withSettings(settings({ minUsersForAreaRanking: 1 }), async () => {
      expect((await shown(await as('Dee'), 1)).entries).toEqual(expected(1, 1));
      expect((await shown(await as('Dee'), 1)).entries[0]).toMatchObject({ area: 'Tiny', points: 40, position: 1 });
    });
  });

  it('shares a position between areas level on points, listed by name', async () => {
    // North East: (10 + 5) / 2 = 7.5 and North West: (0 + 7) / 2 = 3.5, South East 5.17; then with Cid on 8: 7.5.
    await database.db.prisma.tournamentStanding.update({
      where: { tournamentId_userId: { tournamentId: cup, userId: ids.Cid } },
      data: { points: 8 },
    });
    const row = PEOPLE.find((p) => p[0] === 'Cid')!;
    row[4] = 8;
    try {
      await withSettings(settings({ minUsersForAreaRanking: 2 }), async () => {
        const level2 = expected(2, 2);
        expect(level2.map((r) => [r.area, r.points, r.position])).toEqual([
          ['North East', 7.5, 1],
          ['North West', 7.5, 1],
          ['South East', 5.17, 3],
        ]);
        expect((await shown(await as('Dee'), 2)).entries).toEqual(level2);
      });
    } finally {
      row[4] = 0;
      await database.db.prisma.tournamentStanding.update({
        where: { tournamentId_userId: { tournamentId: cup, userId: ids.Cid } },
        data: { points: 0 },
      });
    }
  });

  it("ranks the people the company's scoring settings rank", async () => {
    await withSettings(
      { ...settings({ minUsersForAreaRanking: 1 }), scoringSettings: { rankAdmins: false } },
      async () => {
        const result = await shown(await as('Dee'), 1);
        expect(result.entries).toEqual(expected(1, 1, false));
        expect(result.entries.find((e) => e.area === 'North')).toMatchObject({ members: 3, points: 5 });
      },
    );
  });

  it('follows visibleAreaRankings for players; admins see every area', async () => {
    await withSettings(settings({ minUsersForAreaRanking: 2 }, { visibleAreaRankings: 'none' }), async () => {
      await expect(areaRanking(await as('Ana'), { tournamentId: cup, level: 1 })).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
      expect((await shown(await as('Dee'), 1)).total).toBe(3);
    });
    await withSettings(settings({ minUsersForAreaRanking: 2 }, { visibleAreaRankings: 'own' }), async () => {
      const own = await shown(await as('Eva'), 1);
      expect(own).toEqual({ total: 1, entries: expected(1, 2).filter((r) => r.area === 'South') });
      expect((await shown(await as('Kim'), 1)).entries).toEqual([]);
    });
  });

  it('refuses what it cannot rank, and other companies', async () => {
    const ana = await as('Ana');
    await expect(areaRanking(ana, { tournamentId: cup, level: 4 })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'level'),
    );
    await expect(areaRanking(ana, { tournamentId: cup, level: 1, take: 0 })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'take'),
    );
    await expect(areaRanking(ana, { tournamentId: database.demo.tournament, level: 1 })).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(
      areaRanking(await testScope(database, 'globexAdmin'), { tournamentId: cup, level: 1 }),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    await withSettings({ disableAreas: true }, async () => {
      await expect(areaRanking(await as('Dee'), { tournamentId: cup, level: 1 })).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
    });
  });
});
