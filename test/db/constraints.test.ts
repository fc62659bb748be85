// The constraints the domain demands, on a real database of the suite's provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { checkAreaPlacement, insertArea } from '../../src/app/areas.ts';
import { AreaRuleError } from '../../src/domain/areas.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { freshDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
let prisma: Db;
let ids: {
  a: number;
  b: number;
  userA: number;
  userA2: number;
  match: number;
  post: number;
  comment: number;
  l1: number;
  l2: number;
  l3: number;
  otherL1: number;
};

const uniqueViolation = expect.objectContaining({ code: 'P2002' });

beforeAll(async () => {
  t = await freshDatabase();
  prisma = t.db.prisma;
  const a = await prisma.company.create({
    data: { ...DEFAULT_COMPANY_JSON, name: 'A', code: 'A', appPath: 'a', appCustomDomain: 'a.test' },
  });
  const b = await prisma.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'B', code: 'B', appPath: 'b' } });
  const mkUser = (companyId: number, email: string) =>
    prisma.user.create({
      data: { ...DEFAULT_USER_JSON, companyId, email, name: email, externalId: email, loginProviderId: email },
    });
  const userA = await mkUser(a.id, 'u1@a.test');
  const userA2 = await mkUser(a.id, 'u2@a.test');
  const country = await prisma.country.create({ data: { name: 'World' } });
  const tournament = await prisma.tournament.create({ data: { name: 'T', countryId: country.id } });
  const round = await prisma.round.create({
    data: { tournamentId: tournament.id, name: 'R1', date: new Date(), position: 1 },
  });
  const home = await prisma.team.create({ data: { name: 'H', countryId: country.id } });
  const away = await prisma.team.create({ data: { name: 'V', countryId: country.id } });
  const match = await prisma.match.create({
    data: {
      roundId: round.id,
      tournamentId: tournament.id,
      date: new Date(),
      homeTeamId: home.id,
      awayTeamId: away.id,
    },
  });
  const post = await prisma.post.create({ data: { companyId: a.id, userId: userA.id, text: 'hi' } });
  const comment = await prisma.postComment.create({ data: { postId: post.id, userId: userA2.id, text: 'hello' } });
  const l1 = await insertArea(prisma, { companyId: a.id, name: 'North', level: 1 });
  const l2 = await insertArea(prisma, { companyId: a.id, name: 'City', level: 2, parentAreaId: l1.id });
  const l3 = await insertArea(prisma, { companyId: a.id, name: 'Dept', level: 3, parentAreaId: l2.id });
  const otherL1 = await insertArea(prisma, { companyId: b.id, name: 'B-North', level: 1 });
  ids = {
    a: a.id,
    b: b.id,
    userA: userA.id,
    userA2: userA2.id,
    match: match.id,
    post: post.id,
    comment: comment.id,
    l1: l1.id,
    l2: l2.id,
    l3: l3.id,
    otherL1: otherL1.id,
  };
});
afterAll(() => t.drop());

describe('unique constraints', () => {
  it('one prediction per user and match', async () => {
    const data = { userId: ids.userA, matchId: ids.match, homeTeamGoals: 1, awayTeamGoals: 0 };
    await prisma.prediction.create({ data });
    await expect(prisma.prediction.create({ data: { ...data, homeTeamGoals: 2 } })).rejects.toEqual(uniqueViolation);
    expect(await prisma.prediction.count({ where: { userId: ids.userA, matchId: ids.match } })).toBe(1);
  });

  it('one like per user and post, and per user and comment', async () => {
    await prisma.postLike.create({ data: { postId: ids.post, userId: ids.userA2 } });
    await expect(prisma.postLike.create({ data: { postId: ids.post, userId: ids.userA2 } })).rejects.toEqual(
      uniqueViolation,
    );
    await prisma.postCommentLike.create({ data: { commentId: ids.comment, userId: ids.userA } });
    await expect(
      prisma.postCommentLike.create({ data: { commentId: ids.comment, userId: ids.userA } }),
    ).rejects.toEqual(uniqueViolation);
  });

  it('appPath and appCustomDomain are unique across companies', async () => {
    await expect(
      prisma.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'C', code: 'C', appPath: 'a' } }),
    ).rejects.toEqual(uniqueViolation);
    await expect(
      prisma.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'D', code: 'D', appCustomDomain: 'a.test' } }),
    ).rejects.toEqual(uniqueViolation);
  });

  it('an invitation e-mail is unique within a company, not across companies', async () => {
    await prisma.invitation.create({ data: { companyId: ids.a, email: 'x@example.test' } });
    await expect(prisma.invitation.create({ data: { companyId: ids.a, email: 'x@example.test' } })).rejects.toEqual(
      uniqueViolation,
    );
    await expect(
      prisma.invitation.create({ data: { companyId: ids.b, email: 'x@example.test' } }),
    ).resolves.toBeTruthy();
  });

  it('a user e-mail is unique within a company', async () => {
    const data = {
      ...DEFAULT_USER_JSON,
      companyId: ids.a,
      email: 'u1@a.test',
      name: 'dup',
      externalId: 'dup',
      loginProviderId: 'dup',
    };
    await expect(prisma.user.create({ data })).rejects.toEqual(uniqueViolation);
  });
});

describe('area tree', () => {
  it('rejects an area at the wrong level and writes nothing', async () => {
    const before = await prisma.area.count();
    await expect(insertArea(prisma, { companyId: ids.a, name: 'Bad', level: 3, parentAreaId: ids.l1 })).rejects.toThrow(
      /parent must be at level 2/,
    );
    await expect(insertArea(prisma, { companyId: ids.a, name: 'Bad', level: 2 })).rejects.toThrow(AreaRuleError);
    await expect(insertArea(prisma, { companyId: ids.a, name: 'Bad', level: 1, parentAreaId: ids.l1 })).rejects.toThrow(
      /no parent/,
    );
    await expect(insertArea(prisma, { companyId: ids.a, name: 'Bad', level: 4, parentAreaId: ids.l3 })).rejects.toThrow(
      /1, 2 or 3/,
    );
    await expect(
      insertArea(prisma, { companyId: ids.a, name: 'Bad', level: 2, parentAreaId: ids.otherL1 }),
    ).rejects.toThrow(/not found in this company/);
    expect(await prisma.area.count()).toBe(before);
  });

  it('accepts a placement on one path of the tree and rejects the rest', async () => {
    await expect(
      checkAreaPlacement(prisma, ids.a, { areaLevel1Id: ids.l1, areaLevel2Id: ids.l2, areaLevel3Id: ids.l3 }),
    ).resolves.toBeUndefined();
    await expect(checkAreaPlacement(prisma, ids.a, { areaLevel1Id: ids.l1 })).resolves.toBeUndefined();
    await expect(checkAreaPlacement(prisma, ids.a, { areaLevel1Id: ids.l2 })).rejects.toThrow(
      /areaLevel1: area \d+ is at level 2/,
    );
    await expect(checkAreaPlacement(prisma, ids.a, { areaLevel2Id: ids.l2 })).rejects.toThrow(/areaLevel1 is required/);
    await expect(checkAreaPlacement(prisma, ids.a, { areaLevel1Id: ids.otherL1 })).rejects.toThrow(
      /not found in this company/,
    );
    await expect(checkAreaPlacement(prisma, ids.b, { areaLevel1Id: ids.l1 })).rejects.toThrow(
      /not found in this company/,
    );
  });
});
