import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, seedDemo } from '../../prisma/seed/demo-seed.ts';
import { verifyPassword } from '../../src/auth/passwords.ts';
import type { Db } from '../../src/db/client.ts';
import { Prisma } from '../../src/generated/sqlite/client.ts';
import { freshDatabase, type TestDatabase } from '../helpers/db.ts';

// Values that legitimately differ between two runs: clock defaults and the salted hash.
const VOLATILE = new Set(['createdAt', 'updatedAt', 'joinedAt', 'passwordHash']);

async function dump(prisma: Db) {
  const out: Record<string, unknown[]> = {};
  for (const model of Object.values(Prisma.ModelName)) {
    const delegate = (prisma as unknown as Record<string, { findMany(): Promise<Record<string, unknown>[]> }>)[
      model[0].toLowerCase() + model.slice(1)
    ];
    const rows = (await delegate.findMany()).map((row) =>
      Object.fromEntries(Object.entries(row).filter(([k]) => !VOLATILE.has(k))),
    );
    out[model] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

let first: TestDatabase;
let second: TestDatabase;
beforeAll(async () => {
  [first, second] = await Promise.all([freshDatabase(), freshDatabase()]);
  await seedDemo(first.db.prisma);
  await seedDemo(second.db.prisma);
});
afterAll(async () => {
  await first.drop();
  await second.drop();
});

describe('demo seed', () => {
  it('is deterministic: two runs on empty databases give the same rows', async () => {
    const [a, b] = await Promise.all([dump(first.db.prisma), dump(second.db.prisma)]);
    expect(a.Prediction.length).toBeGreaterThan(300);
    expect(a).toEqual(b);
  });

  it('holds the tenants, users and roles the README documents', async () => {
    const prisma = first.db.prisma;
    const companies = await prisma.company.findMany({
      include: { resellerCompany: true, _count: { select: { users: true } } },
      orderBy: { id: 'asc' },
    });
    const byName = Object.fromEntries(companies.map((c) => [c.name, c]));
    expect(byName['Demo Corp']).toMatchObject({
      appPath: 'demo',
      resellerCompany: { name: 'Channel Partners' },
      _count: { users: 21 },
    });
    expect(byName['Globex']).toMatchObject({
      appCustomDomain: 'prode.globex.test',
      resellerCompany: { name: 'Channel Partners' },
      _count: { users: 11 },
    });
    expect(byName['Channel Partners']).toMatchObject({ appPath: 'partners', isReseller: true, _count: { users: 2 } });
    const roles = Object.fromEntries((await prisma.user.findMany()).map((u) => [u.email, u.role]));
    expect(roles).toMatchObject({
      'admin@demo.test': 'admin',
      'player1@demo.test': 'player',
      'player20@demo.test': 'player',
      'admin@globex.test': 'admin',
      'player10@globex.test': 'player',
      'reseller@partners.test': 'reseller',
      'manager@partners.test': 'manager',
    });
    const admin = await prisma.user.findFirstOrThrow({ where: { email: 'admin@demo.test' } });
    expect(await verifyPassword(DEMO_PASSWORD, admin.passwordHash)).toBe(true);
  });

  it('has a three-level area tree with users placed on its paths, invitations, news and a community', async () => {
    const prisma = first.db.prisma;
    const demo = await prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    const areas = await prisma.area.findMany({ where: { companyId: demo.id } });
    expect(new Set(areas.map((a) => a.level))).toEqual(new Set([1, 2, 3]));
    const placed = await prisma.user.findMany({
      where: { companyId: demo.id, areaLevel3Id: { not: null } },
      include: { areaLevel3: true, areaLevel2: true },
    });
    expect(placed.length).toBeGreaterThanOrEqual(20);
    for (const u of placed) expect(u.areaLevel3!.parentAreaId).toBe(u.areaLevel2Id);
    expect(await prisma.invitation.count({ where: { companyId: demo.id, acceptedAt: null } })).toBeGreaterThanOrEqual(
      2,
    );
    expect(await prisma.news.count({ where: { companyId: demo.id } })).toBeGreaterThan(0);
    expect(await prisma.post.count({ where: { companyId: demo.id } })).toBe(5);
    expect(await prisma.postComment.count()).toBeGreaterThan(5);
    expect(await prisma.postLike.count()).toBeGreaterThan(5);
    expect(await prisma.postCommentLike.count()).toBeGreaterThan(0);
    expect(await prisma.dreamFinalsSetting.count({ where: { companyId: demo.id } })).toBe(1);
  });

  it('has finished matches (one on penalties) and future ones, with scored and pending predictions', async () => {
    const prisma = first.db.prisma;
    const now = new Date();
    expect(await prisma.match.count({ where: { status: 'FINISHED', date: { lt: now } } })).toBeGreaterThanOrEqual(8);
    expect(await prisma.match.count({ where: { status: 'SCHEDULED', date: { gt: now } } })).toBeGreaterThanOrEqual(2);
    const shootout = await prisma.match.findFirstOrThrow({ where: { penaltiesWinner: { not: null } } });
    expect(shootout).toMatchObject({
      homeTeamGoals: 1,
      awayTeamGoals: 1,
      homeTeamPenaltyGoals: 4,
      awayTeamPenaltyGoals: 3,
      penaltiesWinner: 'home',
    });
    expect(await prisma.prediction.count({ where: { status: 'SCORED', points: { not: null } } })).toBeGreaterThan(100);
    expect(
      await prisma.prediction.count({ where: { status: 'PENDING', match: { date: { gt: now } } } }),
    ).toBeGreaterThan(20);
  });
});
