// The performance contract: statements per request are bounded by the selection depth, not by list sizes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentNode } from 'graphql';
import type { Db } from '../../src/db/client.ts';
import { DeepTournamentsDocument } from '../../src/graphql/generated/operations.ts';
import { DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

// Seven levels of objects: company > tournaments > rounds > matches > predictions > user > company + areas.
const DEPTH = 7;
const DEEP = DeepTournamentsDocument;

/** Grows Demo Corp a hundredfold: 100x its players, each placed in the area tree and predicting every match. */
async function multiply(prisma: Db, factor: number) {
  const demo = await prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });
  const players = await prisma.user.count({ where: { companyId: demo.id } });
  const leaves = await prisma.area.findMany({ where: { companyId: demo.id, level: 3 }, include: { parentArea: true } });
  const matches = await prisma.match.findMany({ select: { id: true } });
  const extra = players * (factor - 1);
  const users = Array.from({ length: extra }, (_, i) => {
    const leaf = leaves[i % leaves.length];
    return {
      ...DEFAULT_USER_JSON,
      companyId: demo.id,
      email: `bulk${i}@demo.test`,
      name: `Bulk ${i}`,
      externalId: `B${i}`,
      loginProviderId: `bulk${i}`,
      areaLevel1Id: leaf.parentArea!.parentAreaId,
      areaLevel2Id: leaf.parentAreaId,
      areaLevel3Id: leaf.id,
    };
  });
  for (let i = 0; i < users.length; i += 500) await prisma.user.createMany({ data: users.slice(i, i + 500) });
  const ids = (await prisma.user.findMany({ where: { email: { startsWith: 'bulk' } }, select: { id: true } })).map(
    (u) => u.id,
  );
  const predictions = ids.flatMap((userId, i) =>
    matches.map((m, j) => ({ userId, matchId: m.id, homeTeamGoals: (i + j) % 3, awayTeamGoals: (i * j) % 2 })),
  );
  for (let i = 0; i < predictions.length; i += 2000)
    await prisma.prediction.createMany({ data: predictions.slice(i, i + 2000) });
  return { users: players + extra, predictions: await prisma.prediction.count() };
}

let small: TestServer;
let large: TestServer;
beforeAll(async () => {
  // The bound is the loaders' own: the response cache (test/engine/cache/response-cache.test.ts) is off here. The cost
  // limit too: company sizes are counted every minute, and a slow run may count the 100x players before the query.
  const env = { RESPONSE_CACHE_MB: '0', GRAPHQL_MAX_COST: '1000000000' };
  [small, large] = await Promise.all([startTestServer({ env }), startTestServer({ env })]);
  await multiply(large.t.db.prisma, 100);
}, 300_000);
afterAll(async () => {
  await small.close();
  await large.close();
});

async function statements(s: TestServer, query: string | DocumentNode) {
  const token = await s.loginAs('player');
  const r = await s.gql(query, {}, bearer(token));
  expect(r.errors).toBeUndefined();
  expect(Number(r.headers.get('x-sql-statements'))).toBe(r.extensions!.sqlStatements);
  return { count: r.extensions!.sqlStatements!, data: r.data };
}

const predictionCount = (data: any) =>
  data.company.tournaments.flatMap((t: any) =>
    t.rounds.flatMap((r: any) => r.matches.flatMap((m: any) => m.predictions)),
  ).length;

describe('SQL statements per request', () => {
  it(
    `the deep tournaments query costs the same on the demo data and on 100x the data, at most depth + 2 = ` +
      `${DEPTH + 2}`,
    async () => {
      const a = await statements(small, DEEP);
      const b = await statements(large, DEEP);
      expect(predictionCount(b.data)).toBeGreaterThan(predictionCount(a.data) * 50);
      expect(b.count).toBe(a.count);
      expect(a.count).toBeLessThanOrEqual(DEPTH + 2);
    },
  );

  it("a match's teams come with their countries: asking for them too adds no statement", async () => {
    const teams = (country: string) =>
      `{ myTournaments { rounds { matches { homeTeam { id ${country} } awayTeam { id ${country} } } } } }`;
    const without = await statements(small, teams(''));
    const withCountries = await statements(small, teams('country { id name alpha2Code flagUrl }'));
    const countries = JSON.stringify(withCountries.data).match(/"alpha2Code"/g) ?? [];
    expect(countries.length).toBeGreaterThan(0);
    expect(withCountries.count).toBe(without.count);
  });

  it('a post with its comments, likes and authors is bounded too', async () => {
    const q = (id: number) =>
      `{ post(id: ${id}) { id user { id company { id } areaLevel1 { id } } comments { id user { id areaLevel1 { id } ` +
      `} likes { id user { id } } likesCount likedByMe } likes { id user { id } } likesCount commentsCount likedByMe ` +
      `} }`;
    const id = small.demo.posts.demo[0];
    const a = await statements(small, q(id));
    const b = await statements(large, q(id));
    expect(b.count).toBe(a.count);
    // One statement per distinct relation or aggregate selected (14 here), not per post, comment or like.
    expect(a.count).toBeLessThanOrEqual(15);
  });
});
