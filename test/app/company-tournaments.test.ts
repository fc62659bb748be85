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
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

const DAY = 86_400_000;
let database: AppTestDatabase;
let openCup: number;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

beforeAll(async () => {
  database = await appTestDatabase();
  // A global tournament nobody plays yet.
  const world = await database.db.prisma.country.findFirstOrThrow({ where: { name: 'World' } });
  openCup = (await database.db.prisma.tournament.create({ data: { name: 'Open Cup', countryId: world.id } })).id;
});
afterAll(() => database.drop());

const plays = (companyId: number, tournamentId: number) =>
  database.db.prisma.companyTournament.count({ where: { companyId, tournamentId } });

/** A Demo Corp custom tournament with one round starting in `days`. */
async function demoCustom(days = 10) {
  const admin = await testScope(database, 'admin');
  const t = await createCustomTournament(admin, { name: `Office Cup ${Math.random()}` });
  const round = await createCustomRound(admin, t.id, { name: 'Day 1', date: new Date(Date.now() + days * DAY) });
  return { t, round };
}

describe('global tournaments', () => {
  it('an admin lists the global ones, enters one (idempotently) and leaves it; a player can do neither', async () => {
    const globex = database.demo.companies.GLOBEX;
    const admin = await testScope(database, 'globexAdmin');
    const listed = await availableTournaments(admin, { take: 100 });
    expect(listed.map((t) => t.id)).toEqual(expect.arrayContaining([openCup, database.demo.tournament]));
    expect(listed.every((t) => t.ownerCompanyId === null)).toBe(true);
    await expect(availableTournaments(await testScope(database, 'globexPlayer'), {})).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    await expect(enterTournament(await testScope(database, 'globexPlayer'), openCup)).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    expect(await plays(globex, openCup)).toBe(0);

    await enterTournament(admin, openCup);
    await enterTournament(await testScope(database, 'globexAdmin'), openCup);
    expect(await plays(globex, openCup)).toBe(1);
    expect(await plays(database.demo.companies.DEMO, openCup)).toBe(0);
    await leaveTournament(await testScope(database, 'globexAdmin'), openCup);
    expect(await plays(globex, openCup)).toBe(0);
    await expect(leaveTournament(await testScope(database, 'globexAdmin'), openCup)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
  });

  it("another company's custom tournament is not a global one to enter", async () => {
    const { t } = await demoCustom();
    await expect(enterTournament(await testScope(database, 'globexAdmin'), t.id)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    expect(await plays(database.demo.companies.GLOBEX, t.id)).toBe(0);
  });
});

describe('custom tournaments', () => {
  it('an admin builds one: the tournament, numbered rounds, its own teams and matches', async () => {
    const admin = await testScope(database, 'admin');
    const t = await createCustomTournament(admin, { name: ' Five-a-side ', logoUrl: 'https://example.test/l.png' });
    expect(await database.db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      name: 'Five-a-side',
      ownerCompanyId: database.demo.companies.DEMO,
    });
    const date = new Date(Date.now() + 5 * DAY);
    const first = await createCustomRound(admin, t.id, { name: 'Day 1', date });
    const second = await createCustomRound(admin, t.id, { name: 'Day 2', date: new Date(date.getTime() + DAY) });
    expect([first.position, second.position]).toEqual([1, 2]);
    await updateCustomRound(admin, second.id, { name: 'Day 2 (moved)' });
    expect((await database.db.prisma.round.findUniqueOrThrow({ where: { id: second.id } })).name).toBe('Day 2 (moved)');
    const team = await createCustomTeam(admin, { name: 'Accounting' });
    expect(team.companyId).toBe(database.demo.companies.DEMO);
    await expect(createCustomTeam(admin, { name: 'Accounting' })).rejects.toMatchObject(field('CONFLICT', 'name'));
    const match = await createCustomMatch(admin, {
      roundId: first.id,
      date,
      homeTeamId: team.id,
      awayTeamId: database.demo.teams.Japan,
    });
    expect(await database.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } })).toMatchObject({
      tournamentId: t.id,
      roundId: first.id,
      homeTeamId: team.id,
      status: 'SCHEDULED',
    });
  });

  it('names the bad argument, and writes nothing', async () => {
    const admin = await testScope(database, 'admin');
    await expect(createCustomTournament(admin, { name: '  ' })).rejects.toMatchObject(field('BAD_USER_INPUT', 'name'));
    await expect(createCustomTournament(admin, { name: 'Bad logo', logoUrl: 'ftp://x' })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'logoUrl'),
    );
    const { t, round } = await demoCustom();
    await expect(createCustomRound(admin, t.id, { name: 'No date' })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'date'),
    );
    const base = { roundId: round.id, date: new Date(Date.now() + DAY), homeTeamId: database.demo.teams.Argentina };
    await expect(
      createCustomMatch(admin, { ...base, awayTeamId: database.demo.teams.Argentina }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'awayTeamId'));
    await expect(createCustomMatch(admin, { ...base, roundId: null, awayTeamId: 1 })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'roundId'),
    );
    await expect(createCustomMatch(admin, { ...base, awayTeamId: null })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'awayTeamId'),
    );
    const globexTeam = await createCustomTeam(await testScope(database, 'globexAdmin'), { name: 'Globex Eleven' });
    await expect(createCustomMatch(admin, { ...base, awayTeamId: globexTeam.id })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'awayTeamId'),
    );
    expect(await database.db.prisma.tournament.count({ where: { name: { in: ['Bad logo'] } } })).toBe(0);
    expect(await database.db.prisma.round.count({ where: { tournamentId: t.id } })).toBe(1);
    expect(await database.db.prisma.match.count({ where: { tournamentId: t.id } })).toBe(0);
  });

  it("another company's admin reaches none of it: its tournament, rounds and matches are NOT_FOUND", async () => {
    const { t, round } = await demoCustom();
    const match = await createCustomMatch(await testScope(database, 'admin'), {
      roundId: round.id,
      date: new Date(Date.now() + 3 * DAY),
      homeTeamId: database.demo.teams.Argentina,
      awayTeamId: database.demo.teams.Japan,
    });
    const globex = await testScope(database, 'globexAdmin');
    await expect(updateCustomTournament(globex, t.id, { name: 'Taken' })).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(createCustomRound(globex, t.id, { name: 'Taken', date: new Date() })).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(updateCustomRound(globex, round.id, { name: 'Taken' })).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(
      createCustomMatch(globex, {
        roundId: round.id,
        date: new Date(),
        homeTeamId: database.demo.teams.Argentina,
        awayTeamId: database.demo.teams.Japan,
      }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'roundId'));
    await expect(updateCustomMatch(globex, match.id, { venue: 'Taken' })).rejects.toMatchObject(code('NOT_FOUND'));
    expect((await database.db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } })).name).toBe(t.name);
    expect((await database.db.prisma.round.findUniqueOrThrow({ where: { id: round.id } })).name).toBe('Day 1');
    expect(await database.db.prisma.round.count({ where: { tournamentId: t.id } })).toBe(1);
    expect((await database.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } })).venue).toBe('');
    await expect(
      updateCustomTournament(await testScope(database, 'player'), t.id, { name: 'x' }),
    ).rejects.toMatchObject(code('FORBIDDEN'));
  });

  it('a match changes until it kicks off, and live subscribers hear of it', async () => {
    const { round } = await demoCustom();
    const admin = await testScope(database, 'admin');
    const match = await createCustomMatch(admin, {
      roundId: round.id,
      date: new Date(Date.now() + 3 * DAY),
      homeTeamId: database.demo.teams.Argentina,
      awayTeamId: database.demo.teams.Japan,
    });
    const published = database.published.length;
    await updateCustomMatch(admin, match.id, { venue: ' Rooftop ', awayTeamId: database.demo.teams.Brazil });
    expect(await database.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } })).toMatchObject({
      venue: 'Rooftop',
      awayTeamId: database.demo.teams.Brazil,
    });
    expect(database.published.slice(published)).toEqual([
      { kind: 'match', tournamentId: match.tournamentId, matchId: match.id },
    ]);
    const kickedOff = await testScope(database, 'admin', { now: new Date(Date.now() + 4 * DAY) });
    await expect(updateCustomMatch(kickedOff, match.id, { venue: 'Too late' })).rejects.toMatchObject(code('CONFLICT'));
    expect((await database.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } })).venue).toBe('Rooftop');
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
    await expect(importOpenfootball(await testScope(database, 'admin'), file(null))).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    const manager = await testScope(database, 'manager');
    await expect(importOpenfootball(manager, '{not json')).rejects.toMatchObject(field('BAD_USER_INPUT', 'json'));
    await expect(importOpenfootball(manager, '{"matches": 3}')).rejects.toMatchObject(field('BAD_USER_INPUT', 'json'));
    await expect(importOpenfootball(manager, file(null), 'bad id with spaces')).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'externalId'),
    );
    expect(await database.db.prisma.tournament.count({ where: { name: 'Import Cup' } })).toBe(0);
  });

  it('writes the tournament idempotently; a changed result rescores predictions, or queues the rescoring', async () => {
    const manager = await testScope(database, 'manager');
    const first = await importOpenfootball(manager, file([1, 0]), 'test:import-cup');
    expect(first).toMatchObject({ tournament: 'created', matches: { created: 1 } });
    const match = await database.db.prisma.match.findFirstOrThrow({ where: { tournamentId: first.tournamentId } });
    expect(match).toMatchObject({ status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 0 });
    const again = await importOpenfootball(await testScope(database, 'manager'), file([1, 0]), 'test:import-cup');
    expect(again).toMatchObject({
      tournamentId: first.tournamentId,
      tournament: 'unchanged',
      changedResultMatchIds: [],
    });

    await database.db.prisma.prediction.create({
      data: { userId: database.demo.users['player1@demo.test'], matchId: match.id, homeTeamGoals: 2, awayTeamGoals: 2 },
    });
    const published = database.published.length;
    const corrected = await importOpenfootball(await testScope(database, 'manager'), file([2, 2]), 'test:import-cup');
    expect(corrected).toMatchObject({ changedResultMatchIds: [match.id], rescoreJobsQueued: 0 });
    expect(corrected.rescoredPredictions).toBe(1);
    expect(await database.db.prisma.prediction.findFirstOrThrow({ where: { matchId: match.id } })).toMatchObject({
      status: 'SCORED',
      exactHit: true,
    });
    expect(database.published.slice(published)).toEqual([
      { kind: 'match', tournamentId: first.tournamentId, matchId: match.id },
      { kind: 'ranking', tournamentId: first.tournamentId },
    ]);

    const wakes = database.wakes.rescoring;
    const limit = database.config.rescoreInRequestMaxPredictions;
    database.config.rescoreInRequestMaxPredictions = 0;
    try {
      const queued = await importOpenfootball(await testScope(database, 'manager'), file([3, 0]), 'test:import-cup');
      expect(queued).toMatchObject({ changedResultMatchIds: [match.id], rescoreJobsQueued: 1 });
    } finally {
      database.config.rescoreInRequestMaxPredictions = limit;
    }
    expect(database.wakes.rescoring).toBe(wakes + 1);
    expect(await database.db.prisma.rescoreJob.findUnique({ where: { matchId: match.id } })).not.toBeNull();
  });
  it('each result the import sets or corrects is in the audit trail, by the manager who imported it', async () => {
    const audited = JSON.stringify({ name: 'Audited Import Cup', matches: [JSON.parse(file([1, 0])).matches[0]] });
    const manager = await testScope(database, 'manager');
    const first = await importOpenfootball(manager, audited, 'test:audited-import-cup');
    const entries = () =>
      database.db.prisma.auditEntry.findMany({ where: { tournamentId: first.tournamentId }, orderBy: { id: 'asc' } });
    const [created] = await entries();
    expect(created).toMatchObject({ kind: 'RESULT_SET', companyId: null, actorId: manager.requireTenant().viewer.id });
    expect(created.before).toBeNull();
    expect(created.after).toMatchObject({ status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 0 });
    await importOpenfootball(await testScope(database, 'manager'), audited, 'test:audited-import-cup');
    expect(await entries()).toHaveLength(1);
    const corrected = audited.replace('"ft":[1,0]', '"ft":[2,2]');
    await importOpenfootball(await testScope(database, 'manager'), corrected, 'test:audited-import-cup');
    const [, correction] = await entries();
    expect(correction.before).toMatchObject({ homeTeamGoals: 1, awayTeamGoals: 0 });
    expect(correction.after).toMatchObject({ homeTeamGoals: 2, awayTeamGoals: 2 });
  });

  it("a result for a match whose kickoff is after the request's clock is left out unless allowed", async () => {
    const json = JSON.stringify({
      name: 'Future Import Cup',
      matches: [{ round: 'R1', date: '2099-01-10', team1: 'Argentina', team2: 'Japan', score: { ft: [1, 0] } }],
    });
    const manager = await testScope(database, 'manager');
    const refused = await importOpenfootball(manager, json, 'test:future-import-cup');
    expect(refused.futureResultsIgnored).toBe(1);
    const where = { tournamentId: refused.tournamentId };
    expect(await database.db.prisma.match.findFirstOrThrow({ where })).toMatchObject({
      status: 'SCHEDULED',
      homeTeamGoals: null,
    });
    const replay = await importOpenfootball(manager, json, 'test:future-import-cup', { allowFutureResults: true });
    expect(replay.futureResultsIgnored).toBe(0);
    expect(await database.db.prisma.match.findFirstOrThrow({ where })).toMatchObject({
      status: 'FINISHED',
      homeTeamGoals: 1,
    });
  });
});
