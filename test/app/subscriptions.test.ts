// What a subscriber may watch and what an event shows them (src/app/subscriptions.ts), called on a request scope
// without HTTP or a socket: the guards of the queries, run again for every event, so an event never shows another
// company's rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliveredNotification,
  standingNow,
  updatedMatch,
  watchMatches,
  watchNotifications,
  watchRanking,
} from '../../src/app/subscriptions.ts';
import { DEFAULT_FEATURE_SETTINGS } from '../../src/domain/defaults.ts';
import { EventReads } from '../../src/live/bus.ts';
import { runWithSqlStats } from '../../src/db/sql-stats.ts';
import { customMatch, testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
let globexCup: number;
let globexMatch: number;
const code = (c: string) => ({ extensions: { code: c } });

beforeAll(async () => {
  database = await appTestDatabase();
  const m = await customMatch(database, database.demo.companies.GLOBEX, new Date(Date.now() + 86_400_000), {
    name: 'Globex Cup',
  });
  globexCup = m.tournamentId;
  globexMatch = m.id;
});
afterAll(() => database.drop());

describe('matches', () => {
  it("a subscriber watches the tournaments their company plays, and sees an event's match only there", async () => {
    const player = await testScope(database, 'player');
    await watchMatches(player, database.demo.tournament);
    const match = await updatedMatch(player, database.demo.tournament, database.demo.matches.final);
    expect(match.id).toBe(database.demo.matches.final);
    await expect(watchMatches(player, globexCup)).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(updatedMatch(player, globexCup, globexMatch)).rejects.toMatchObject(code('NOT_FOUND'));
    // An event naming a match under the wrong tournament shows nothing.
    await expect(updatedMatch(player, database.demo.tournament, globexMatch)).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(watchMatches(await testScope(database, null), database.demo.tournament)).rejects.toMatchObject(
      code('UNAUTHENTICATED'),
    );
    const globex = await testScope(database, 'globexPlayer');
    expect((await updatedMatch(globex, globexCup, globexMatch)).id).toBe(globexMatch);
  });

  it("the subscribers of one event share its reads through the event's cache", async () => {
    const loads: string[] = [];
    const cache = new Map<string, Promise<unknown>>();
    const reads = {
      once<T>(key: string, load: () => Promise<T>): Promise<T> {
        if (!cache.has(key)) {
          loads.push(key);
          cache.set(key, load());
        }
        return cache.get(key) as Promise<T>;
      },
    };
    const matchId = database.demo.matches.final;
    for (const who of ['player', 'player2', 'admin'] as const)
      expect((await updatedMatch(await testScope(database, who), database.demo.tournament, matchId, reads)).id).toBe(
        matchId,
      );
    expect(loads).toEqual([`tournamentsByCompany:${database.demo.companies.DEMO}`, `match:${matchId}`]);
  });
});

describe('ranking', () => {
  it("hears of every company's ranking events, not another company's own; refused where it is hidden", async () => {
    const player = await testScope(database, 'player');
    const concerns = await watchRanking(player, database.demo.tournament);
    const reads = new EventReads();
    expect(concerns({}, reads)).toBe(true);
    expect(concerns({ companyId: database.demo.companies.DEMO }, reads)).toBe(true);
    expect(concerns({ companyId: database.demo.companies.GLOBEX }, reads)).toBe(false);
    const standing = await standingNow(player, database.demo.tournament);
    expect(standing?.userId).toBe(database.demo.users['player1@demo.test']);
    await expect(watchRanking(player, globexCup)).rejects.toMatchObject(code('NOT_FOUND'));

    const demo = database.demo.companies.DEMO;
    const { featureSettings } = await database.db.prisma.company.findUniqueOrThrow({ where: { id: demo } });
    const rankings = { ...DEFAULT_FEATURE_SETTINGS.rankings, showGeneralRanking: false };
    await database.db.prisma.company.update({
      where: { id: demo },
      data: { featureSettings: { ...DEFAULT_FEATURE_SETTINGS, rankings } },
    });
    try {
      await expect(watchRanking(await testScope(database, 'player'), database.demo.tournament)).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
    } finally {
      await database.db.prisma.company.update({
        where: { id: demo },
        data: { featureSettings: featureSettings! },
      });
    }
  });
});

describe('ranking events', () => {
  it("one statement reads every subscriber's standing of a company; each is given their own", async () => {
    const tournamentId = database.demo.tournament;
    const who = ['player', 'player2', 'admin', 'globexPlayer', 'globexAdmin'] as const;
    const scopes = await Promise.all(who.map((w) => testScope(database, w)));
    const concerns = await Promise.all(scopes.map((scope) => watchRanking(scope, tournamentId)));
    // Each subscriber's own standing, read on its own as before.
    const alone = await Promise.all(scopes.map((scope) => standingNow(scope, tournamentId)));
    expect(alone.every((standing) => standing !== null)).toBe(true);

    // An event for every company: all five join their company's audience, before any of them executes.
    const reads = new EventReads();
    for (const c of concerns) expect(c({}, reads)).toBe(true);
    const fresh = await Promise.all(who.map((w) => testScope(database, w)));
    const counted = { statements: 0 };
    const shared = await runWithSqlStats(counted, () =>
      Promise.all(fresh.map((scope) => standingNow(scope, tournamentId, reads))),
    );
    expect(shared).toEqual(alone);
    // Per company: its tournaments and its standings, whatever the number of subscribers.
    expect(counted.statements).toBeGreaterThan(0);
    expect(counted.statements).toBeLessThanOrEqual(4);
  });
});

describe('notifications', () => {
  it("a signed-in user hears of their own notifications only, never another user's", async () => {
    const prisma = database.db.prisma;
    const note = (userId: number, companyId: number, key: string) =>
      prisma.notification.create({
        data: { userId, companyId, type: 'rankingsUpdated', payload: {}, dedupeKey: `live-test:${key}` },
      });
    const mine = await note(database.demo.users['player1@demo.test'], database.demo.companies.DEMO, 'mine');
    const colleague = await note(database.demo.users['player2@demo.test'], database.demo.companies.DEMO, 'colleague');
    const globex = await note(database.demo.users['player1@globex.test'], database.demo.companies.GLOBEX, 'globex');
    const player = await testScope(database, 'player');
    watchNotifications(player);
    expect((await deliveredNotification(player, mine.id)).id).toBe(mine.id);
    for (const other of [colleague, globex])
      await expect(deliveredNotification(player, other.id)).rejects.toMatchObject(code('NOT_FOUND'));
    const anonymous = await testScope(database, null);
    expect(() => watchNotifications(anonymous)).toThrow(expect.objectContaining(code('UNAUTHENTICATED')));
    await expect(deliveredNotification(anonymous, mine.id)).rejects.toMatchObject(code('UNAUTHENTICATED'));
  });
});
