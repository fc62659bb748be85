// Match lists (src/app/match-lists.ts) called on a request scope, without HTTP: the tenant's matches in a time
// window and the caller's own predictions, both bounded by the tournaments the company plays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matches, MAX_WINDOW_DAYS, myPredictions } from '../../src/app/match-lists.ts';
import { customMatch, testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

const DAY = 86_400_000;
let database: AppTestDatabase;
let globexCup: number;
let globexMatch: number;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

beforeAll(async () => {
  database = await appTestDatabase();
  // Globex's own custom tournament, with a match next week: never in Demo Corp's lists.
  const m = await customMatch(database, database.demo.companies.GLOBEX, new Date(Date.now() + 7 * DAY), {
    name: 'Globex Cup',
  });
  globexCup = m.tournamentId;
  globexMatch = m.id;
});
afterAll(() => database.drop());

describe('matches', () => {
  it('lists the tenant’s matches from now on by kickoff, one page at a time, never another company’s', async () => {
    const player = await testScope(database, 'player');
    const upcoming = await matches(player, {});
    const now = Date.now();
    expect(upcoming.length).toBeGreaterThan(0);
    expect(upcoming.every((m) => m.date.getTime() >= now - 60_000)).toBe(true);
    expect(upcoming.map((m) => m.date.getTime())).toEqual(upcoming.map((m) => m.date.getTime()).sort((a, b) => a - b));
    expect(upcoming.map((m) => m.id)).toContain(database.demo.matches.final);
    expect(upcoming.map((m) => m.id)).not.toContain(globexMatch);
    const second = await matches(player, { skip: 1, take: 1 });
    expect(second.map((m) => m.id)).toEqual([upcoming[1].id]);

    const globex = await matches(await testScope(database, 'globexPlayer'), {});
    expect(globex.map((m) => m.id)).toContain(globexMatch);
    await expect(matches(await testScope(database, null), {})).rejects.toMatchObject(code('UNAUTHENTICATED'));
  });

  it('filters by window, tournament and status', async () => {
    const admin = await testScope(database, 'admin');
    const tournamentId = database.demo.tournament;
    const all = await database.db.prisma.match.findMany({ where: { tournamentId }, orderBy: [{ date: 'asc' }] });
    const from = all[0].date;
    const to = all[3].date;
    const window = await matches(admin, { from, to, tournamentId });
    expect(window.map((m) => m.id)).toEqual(all.filter((m) => m.date >= from && m.date <= to).map((m) => m.id));
    const finished = await matches(admin, { from, to: new Date(from.getTime() + 300 * DAY), status: ['FINISHED'] });
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.every((m) => m.status === 'FINISHED')).toBe(true);
  });

  it('names the bad argument: a window upside down or too wide, an empty status list, a bad tournament', async () => {
    const admin = await testScope(database, 'admin');
    const from = new Date();
    await expect(matches(admin, { from, to: new Date(from.getTime() - 1) })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'to'),
    );
    await expect(
      matches(admin, { from, to: new Date(from.getTime() + (MAX_WINDOW_DAYS + 1) * DAY) }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'to'));
    await expect(matches(admin, { from: new Date('nope') })).rejects.toMatchObject(field('BAD_USER_INPUT', 'from'));
    await expect(matches(admin, { status: [] })).rejects.toMatchObject(field('BAD_USER_INPUT', 'status'));
    await expect(matches(admin, { tournamentId: 0 })).rejects.toMatchObject(field('BAD_USER_INPUT', 'tournamentId'));
    await expect(matches(admin, { tournamentId: globexCup })).rejects.toMatchObject(code('NOT_FOUND'));
  });
});

describe('myPredictions', () => {
  it('lists the caller’s own predictions only, by kickoff, filtered by status', async () => {
    const player = await testScope(database, 'player');
    const me = database.demo.users['player1@demo.test'];
    const mine = await myPredictions(player, { take: 100 });
    const stored = await database.db.prisma.prediction.findMany({ where: { userId: me } });
    expect(new Set(mine.map((p) => p.id))).toEqual(new Set(stored.map((p) => p.id)));
    expect(mine.every((p) => p.userId === me)).toBe(true);
    const scored = await myPredictions(player, { status: ['SCORED'], take: 100 });
    expect(scored.length).toBeGreaterThan(0);
    expect(scored.every((p) => p.status === 'SCORED')).toBe(true);
    expect(scored.length).toBe(stored.filter((p) => p.status === 'SCORED').length);
  });

  it('a reseller acting on a company has none there; another company’s tournament is NOT_FOUND', async () => {
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    expect(await myPredictions(reseller, {})).toEqual([]);
    await expect(myPredictions(await testScope(database, 'player'), { tournamentId: globexCup })).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(myPredictions(await testScope(database, 'player'), { status: [] })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'status'),
    );
    await expect(myPredictions(await testScope(database, null), {})).rejects.toMatchObject(code('UNAUTHENTICATED'));
  });
});
