// Company tournaments (src/app/company-tournaments.ts) called on a request scope, without HTTP: a company's admins
// enter and leave global tournaments and build custom ones of their own; managers import openfootball files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availableTournaments,
  createCustomMatch,
  createCustomRound,
  createCustomTeam,
  createCustomTournament,
  enterTournament,
  importOpenfootball,
  leaveTournament,
  updateCustomMatch,
  updateCustomRound,
  updateCustomTournament,
} from '../../src/app/company-tournaments.ts';
import { testScope, testStore, type TestStore } from '../helpers/scope.ts';

const DAY = 86_400_000;
let store: TestStore;
let openCup: number;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

beforeAll(async () => {
  store = await testStore();
  // A global tournament nobody plays yet.
  const world = await store.db.prisma.country.findFirstOrThrow({ where: { name: 'World' } });
  openCup = (await store.db.prisma.tournament.create({ data: { name: 'Open Cup', countryId: world.id } })).id;
});
afterAll(() => store.drop());

const plays = (companyId: number, tournamentId: number) =>
  store.db.prisma.companyTournament.count({ where: { companyId, tournamentId } });

/** A Demo Corp custom tournament with one round starting in `days`. */
async function demoCustom(days = 10) {
  const admin = await testScope(store, 'admin');
  const t = await createCustomTournament(admin, { name: `Office Cup ${Math.random()}` });
  const round = await createCustomRound(admin, t.id, { name: 'Day 1', date: new Date(Date.now() + days * DAY) });
  return { t, round };
}

describe('global tournaments', () => {
  it('an admin lists the global ones, enters one (idempotently) and leaves it; a player can do neither', async () => {
    const globex = store.demo.companies.GLOBEX;
    const admin = await testScope(store, 'globexAdmin');
    const listed = await availableTournaments(admin, { take: 100 });
    expect(listed.map((t) => t.id)).toEqual(expect.arrayContaining([openCup, store.demo.tournament]));
    expect(listed.every((t) => t.ownerCompanyId === null)).toBe(true);
    await expect(availableTournaments(await testScope(store, 'globexPlayer'), {})).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    await expect(enterTournament(await testScope(store, 'globexPlayer'), openCup)).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    expect(await plays(globex, openCup)).toBe(0);

    await enterTournament(admin, openCup);
    await enterTournament(await testScope(store, 'globexAdmin'), openCup);
    expect(await plays(globex, openCup)).toBe(1);
    expect(await plays(store.demo.companies.DEMO, openCup)).toBe(0);
    await leaveTournament(await testScope(store, 'globexAdmin'), openCup);
    expect(await plays(globex, openCup)).toBe(0);
    await expect(leaveTournament(await testScope(store, 'globexAdmin'), openCup)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
  });

  it("another company's custom tournament is not a global one to enter", async () => {
    const { t } = await demoCustom();
    await expect(enterTournament(await testScope(store, 'globexAdmin'), t.id)).rejects.toMatchObject(code('NOT_FOUND'));
    expect(await plays(store.demo.companies.GLOBEX, t.id)).toBe(0);
  });
});

describe('custom tournaments', () => {
  it('an admin builds one: the tournament, numbered rounds, its own teams and matches', async () => {
    const admin = await testScope(store, 'admin');
    const t = await createCustomTournament(admin, { name: ' Five-a-side ', logoUrl: 'https://example.test/l.png' });
    expect(await store.db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      name: 'Five-a-side',
      ownerCompanyId: store.demo.companies.DEMO,
    });
    const date = new Date(Date.now() + 5 * DAY);
    const first = await createCustomRound(admin, t.id, { name: 'Day 1', date });
    const second = await createCustomRound(admin, t.id, { name: 'Day 2', date: new Date(date.getTime() + DAY) });
    expect([first.position, second.position]).toEqual([1, 2]);
    await updateCustomRound(admin, second.id, { name: 'Day 2 (moved)' });
    expect((await store.db.prisma.round.findUniqueOrThrow({ where: { id: second.id } })).name).toBe('Day 2 (moved)');
    const team = await createCustomTeam(admin, { name: 'Accounting' });
    expect(team.companyId).toBe(store.demo.companies.DEMO);
    await expect(createCustomTeam(admin, { name: 'Accounting' })).rejects.toMatchObject(field('CONFLICT', 'name'));
    const match = await createCustomMatch(admin, {
      roundId: first.id,
      date,
      homeTeamId: team.id,
      awayTeamId: store.demo.teams.Japan,
    });
    expect(await store.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } })).toMatchObject({
      tournamentId: t.id,
      roundId: first.id,
      homeTeamId: team.id,
      status: 'SCHEDULED',
    });
  });

  it('names the bad argument, and writes nothing', async () => {
    const admin = await testScope(store, 'admin');
    await expect(createCustomTournament(admin, { name: '  ' })).rejects.toMatchObject(field('BAD_USER_INPUT', 'name'));
    await expect(createCustomTournament(admin, { name: 'Bad logo', logoUrl: 'ftp://x' })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'logoUrl'),
    );
    const { t, round } = await demoCustom();
    await expect(createCustomRound(admin, t.id, { name: 'No date' })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'date'),
    );
    const base = { roundId: round.id, date: new Date(Date.now() + DAY), homeTeamId: store.demo.teams.Argentina };
    await expect(createCustomMatch(admin, { ...base, awayTeamId: store.demo.teams.Argentina })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'awayTeamId'),
    );
    await expect(createCustomMatch(admin, { ...base, roundId: null, awayTeamId: 1 })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'roundId'),
    );
    await expect(createCustomMatch(admin, { ...base, awayTeamId: null })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'awayTeamId'),
    );
    const globexTeam = await createCustomTeam(await testScope(store, 'globexAdmin'), { name: 'Globex Eleven' });
    await expect(createCustomMatch(admin, { ...base, awayTeamId: globexTeam.id })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'awayTeamId'),
    );
    expect(await store.db.prisma.tournament.count({ where: { name: { in: ['Bad logo'] } } })).toBe(0);
    expect(await store.db.prisma.round.count({ where: { tournamentId: t.id } })).toBe(1);
    expect(await store.db.prisma.match.count({ where: { tournamentId: t.id } })).toBe(0);
  });

  it("another company's admin reaches none of it: its tournament, rounds and matches are NOT_FOUND", async () => {
    const { t, round } = await demoCustom();
    const match = await createCustomMatch(await testScope(store, 'admin'), {
      roundId: round.id,
      date: new Date(Date.now() + 3 * DAY),
      homeTeamId: store.demo.teams.Argentina,
      awayTeamId: store.demo.teams.Japan,
    });
    const globex = await testScope(store, 'globexAdmin');
    await expect(updateCustomTournament(globex, t.id, { name: 'Taken' })).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(createCustomRound(globex, t.id, { name: 'Taken', date: new Date() })).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(updateCustomRound(globex, round.id, { name: 'Taken' })).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(
      createCustomMatch(globex, {
        roundId: round.id,
        date: new Date(),
        homeTeamId: store.demo.teams.Argentina,
        awayTeamId: store.demo.teams.Japan,
      }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'roundId'));
    await expect(updateCustomMatch(globex, match.id, { venue: 'Taken' })).rejects.toMatchObject(code('NOT_FOUND'));
    expect((await store.db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } })).name).toBe(t.name);
    expect((await store.db.prisma.round.findUniqueOrThrow({ where: { id: round.id } })).name).toBe('Day 1');
    expect(await store.db.prisma.round.count({ where: { tournamentId: t.id } })).toBe(1);
    expect((await store.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } })).venue).toBe('');
    await expect(updateCustomTournament(await testScope(store, 'player'), t.id, { name: 'x' })).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
  });

  it('a match changes until it kicks off, and live subscribers hear of it', async () => {
    const { round } = await demoCustom();
    const admin = await testScope(store, 'admin');
    const match = await createCustomMatch(admin, {
      roundId: round.id,
      date: new Date(Date.now() + 3 * DAY),
      homeTeamId: store.demo.teams.Argentina,
      awayTeamId: store.demo.teams.Japan,
    });
    const published = store.published.length;
    await updateCustomMatch(admin, match.id, { venue: ' Rooftop ', awayTeamId: store.demo.teams.Brazil });
    expect(await store.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } })).toMatchObject({
      venue: 'Rooftop',
      awayTeamId: store.demo.teams.Brazil,
    });
    expect(store.published.slice(published)).toEqual([
      { kind: 'match', tournamentId: match.tournamentId, matchId: match.id },
    ]);
    const kickedOff = await testScope(store, 'admin', { now: new Date(Date.now() + 4 * DAY) });
    await expect(updateCustomMatch(kickedOff, match.id, { venue: 'Too late' })).rejects.toMatchObject(code('CONFLICT'));
    expect((await store.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } })).venue).toBe('Rooftop');
  });
});

describe('importOpenfootball', () => {
  const file = (ft: [number, number] | null) =>
    JSON.stringify({
      name: 'Import Cup',
      matches: [
        {
          round: 'Matchday 1',
          date: '2026-01-10',
          time: '18:00 UTC+0',
          team1: 'Argentina',
          team2: 'Japan',
          ...(ft ? { score: { ft } } : {}),
        },
      ],
    });

  it('only managers import; a file that is not JSON or not openfootball names json', async () => {
    await expect(importOpenfootball(await testScope(store, 'admin'), file(null))).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    const manager = await testScope(store, 'manager');
    await expect(importOpenfootball(manager, '{not json')).rejects.toMatchObject(field('BAD_USER_INPUT', 'json'));
    await expect(importOpenfootball(manager, '{"matches": 3}')).rejects.toMatchObject(field('BAD_USER_INPUT', 'json'));
    await expect(importOpenfootball(manager, file(null), 'bad id with spaces')).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'externalId'),
    );
    expect(await store.db.prisma.tournament.count({ where: { name: 'Import Cup' } })).toBe(0);
  });

  it('writes the tournament idempotently; a changed result rescores predictions, or queues the rescoring', async () => {
    const manager = await testScope(store, 'manager');
    const first = await importOpenfootball(manager, file([1, 0]), 'test:import-cup');
    expect(first).toMatchObject({ tournament: 'created', matches: { created: 1 } });
    const match = await store.db.prisma.match.findFirstOrThrow({ where: { tournamentId: first.tournamentId } });
    expect(match).toMatchObject({ status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 0 });
    const again = await importOpenfootball(await testScope(store, 'manager'), file([1, 0]), 'test:import-cup');
    expect(again).toMatchObject({
      tournamentId: first.tournamentId,
      tournament: 'unchanged',
      changedResultMatchIds: [],
    });

    await store.db.prisma.prediction.create({
      data: { userId: store.demo.users['player1@demo.test'], matchId: match.id, homeTeamGoals: 2, awayTeamGoals: 2 },
    });
    const published = store.published.length;
    const corrected = await importOpenfootball(await testScope(store, 'manager'), file([2, 2]), 'test:import-cup');
    expect(corrected).toMatchObject({ changedResultMatchIds: [match.id], rescoreJobsQueued: 0 });
    expect(corrected.rescoredPredictions).toBe(1);
    expect(await store.db.prisma.prediction.findFirstOrThrow({ where: { matchId: match.id } })).toMatchObject({
      status: 'SCORED',
      exactHit: true,
    });
    expect(store.published.slice(published)).toEqual([
      { kind: 'match', tournamentId: first.tournamentId, matchId: match.id },
      { kind: 'ranking', tournamentId: first.tournamentId },
    ]);

    const wakes = store.wakes.rescoring;
    const limit = store.config.rescoreInRequestMaxPredictions;
    store.config.rescoreInRequestMaxPredictions = 0;
    try {
      const queued = await importOpenfootball(await testScope(store, 'manager'), file([3, 0]), 'test:import-cup');
      expect(queued).toMatchObject({ changedResultMatchIds: [match.id], rescoreJobsQueued: 1 });
    } finally {
      store.config.rescoreInRequestMaxPredictions = limit;
    }
    expect(store.wakes.rescoring).toBe(wakes + 1);
    expect(await store.db.prisma.rescoreJob.findUnique({ where: { matchId: match.id } })).not.toBeNull();
  });
});
