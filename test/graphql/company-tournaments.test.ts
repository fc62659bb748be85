// Tournaments for a company over real HTTP: a manager imports an openfootball file through the API, an admin
// enters and leaves global tournaments and builds a custom one (rounds, teams, matches, a result), and nobody
// reaches another company's custom tournament.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

const MINI = readFileSync(new URL('../fixtures/openfootball/mini-cup.json', import.meta.url), 'utf8');
const IMPORT = `mutation($j: String!, $e: String!) {
  importOpenfootball(json: $j, externalId: $e) { tournamentId tournament matches { created unchanged } }
}`;
const MY = '{ myTournaments { id name } }';

let s: TestServer;
let tokens: Record<'manager' | 'admin' | 'player' | 'globexAdmin', string>;
beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['manager', 'admin', 'player', 'globexAdmin']);
});
afterAll(() => s?.close());

type Errors = { errors?: Array<{ message: string; extensions: { code: string; argumentName?: string } }> };
const refusal = (r: Errors) =>
  r.errors?.[0] && { code: r.errors[0].extensions.code, field: r.errors[0].extensions.argumentName };
const as = (who: keyof typeof tokens) => bearer(tokens[who]);
const ids = (r: { data: { myTournaments: Array<{ id: number }> } }) => r.data.myTournaments.map((t) => t.id);

let imported: number;
describe('global tournaments', () => {
  it('a manager imports an openfootball file through the API, idempotently', async () => {
    const first = await s.gql(IMPORT, { j: MINI, e: 'test:mini-cup' }, as('manager'));
    expect(first.data.importOpenfootball).toMatchObject({ tournament: 'created', matches: { created: 7 } });
    imported = first.data.importOpenfootball.tournamentId;
    const again = await s.gql(IMPORT, { j: MINI, e: 'test:mini-cup' }, as('manager'));
    expect(again.data.importOpenfootball).toMatchObject({
      tournament: 'unchanged',
      matches: { created: 0, unchanged: 7 },
    });
    expect(refusal(await s.gql(IMPORT, { j: '{', e: 'test:x' }, as('manager')))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'json',
    });
    expect(refusal(await s.gql(IMPORT, { j: '{"matches": 3}', e: 'test:x' }, as('manager')))?.field).toBe('json');
    expect(refusal(await s.gql(IMPORT, { j: MINI, e: 'x' }, as('manager')))?.field).toBe('externalId');
    expect(refusal(await s.gql(IMPORT, { j: MINI, e: 'test:y' }, as('admin')))?.code).toBe('FORBIDDEN');
  });

  it('without externalId the tournament is known by the name in the file, as the CLI knows it', async () => {
    const NAMED = `mutation($j: String!) { importOpenfootball(json: $j) { tournamentId tournament } }`;
    const renamed = JSON.stringify({ ...JSON.parse(MINI), name: 'Mini Cup by Name' });
    const first = await s.gql(NAMED, { j: renamed }, as('manager'));
    expect(first.data.importOpenfootball.tournament).toBe('created');
    const again = await s.gql(NAMED, { j: renamed }, as('manager'));
    expect(again.data.importOpenfootball).toEqual({ ...first.data.importOpenfootball, tournament: 'unchanged' });
    const row = await s.t.db.prisma.tournament.findUniqueOrThrow({
      where: { id: first.data.importOpenfootball.tournamentId },
    });
    expect(row.externalId).toBe('openfootball:mini-cup-by-name');
    const unnamed = JSON.stringify({ ...JSON.parse(MINI), name: '!!!' });
    expect(refusal(await s.gql(NAMED, { j: unnamed }, as('manager')))?.field).toBe('externalId');
  });

  it('an admin enters and leaves it; players see it in their tournaments meanwhile', async () => {
    const available = await s.gql('{ availableTournaments { id } }', {}, as('admin'));
    expect(available.data.availableTournaments.map((t: { id: number }) => t.id)).toContain(imported);
    const ENTER = 'mutation($id: Int!) { enterTournament(tournamentId: $id) { id } }';
    const LEAVE = 'mutation($id: Int!) { leaveTournament(tournamentId: $id) }';
    expect(refusal(await s.gql(ENTER, { id: imported }, as('player')))?.code).toBe('FORBIDDEN');
    await s.gql(ENTER, { id: imported }, as('admin'));
    expect(refusal(await s.gql(ENTER, { id: imported }, as('admin')))).toBeUndefined(); // idempotent
    expect(ids(await s.gql(MY, {}, as('player')))).toContain(imported);
    expect((await s.gql(LEAVE, { id: imported }, as('admin'))).data).toEqual({ leaveTournament: true });
    expect(ids(await s.gql(MY, {}, as('player')))).not.toContain(imported);
    expect(refusal(await s.gql(LEAVE, { id: imported }, as('admin')))?.code).toBe('NOT_FOUND');
  });
});

describe('custom tournaments', () => {
  it('an admin builds one, plays a result, and another company reaches none of it', async () => {
    const t = await s.gql('mutation { createCustomTournament(input: { name: "Office Cup" }) { id } }', {}, as('admin'));
    const tournamentId = t.data.createCustomTournament.id;
    const round = await s.gql(
      'mutation($t: Int!) { createCustomRound(tournamentId: $t, input: { name: "Day 1", date: ' +
        '"2030-01-01T18:00:00.000Z" }) { id position } }',
      { t: tournamentId },
      as('admin'),
    );
    expect(round.data.createCustomRound.position).toBe(1);
    const TEAM = 'mutation($n: String!) { createCustomTeam(input: { name: $n }) { id } }';
    const reds = (await s.gql(TEAM, { n: 'Reds' }, as('admin'))).data.createCustomTeam.id;
    const blues = (await s.gql(TEAM, { n: 'Blues' }, as('admin'))).data.createCustomTeam.id;
    expect(refusal(await s.gql(TEAM, { n: 'Reds' }, as('admin')))).toEqual({ code: 'CONFLICT', field: 'name' });
    const MATCH = 'mutation($i: CustomMatchInput!) { createCustomMatch(input: $i) { id } }';
    const base = {
      roundId: round.data.createCustomRound.id,
      date: '2030-01-01T18:00:00.000Z',
      homeTeamId: reds,
      awayTeamId: blues,
    };
    const match = (await s.gql(MATCH, { i: base }, as('admin'))).data.createCustomMatch.id;
    expect(refusal(await s.gql(MATCH, { i: { ...base, awayTeamId: reds } }, as('admin')))?.field).toBe('awayTeamId');
    const globexTeam = (await s.gql(TEAM, { n: 'Globex FC' }, as('globexAdmin'))).data.createCustomTeam.id;
    expect(refusal(await s.gql(MATCH, { i: { ...base, homeTeamId: globexTeam } }, as('admin')))?.field).toBe(
      'homeTeamId',
    );
    expect(ids(await s.gql(MY, {}, as('player')))).toContain(tournamentId);

    // Past its kickoff a match keeps its date and teams, result or not (predictions closed at kickoff).
    const kicked = (await s.gql(MATCH, { i: { ...base, date: '2031-01-02T18:00:00.000Z' } }, as('admin'))).data
      .createCustomMatch.id;
    await s.t.db.prisma.match.update({ where: { id: kicked }, data: { date: new Date(Date.now() - 60_000) } });
    const MOVE =
      'mutation($m: Int!) { updateCustomMatch(matchId: $m, input: { date: "2032-01-01T00:00:00.000Z" }) { id } }';
    expect(refusal(await s.gql(MOVE, { m: kicked }, as('admin')))?.code).toBe('CONFLICT');
    const RESULT =
      'mutation($m: Int!) { setMatchResult(input: { matchId: $m, homeTeamGoals: 2, awayTeamGoals: 1, status: ' +
      'FINISHED }) { status } }';
    // No result before kickoff; after it, the admin records it.
    expect(refusal(await s.gql(RESULT, { m: match }, as('admin')))).toMatchObject({ code: 'BAD_USER_INPUT' });
    await s.kickOff(match);
    expect((await s.gql(RESULT, { m: match }, as('admin'))).data.setMatchResult.status).toBe('FINISHED');
    const UPDATE_MATCH = 'mutation($m: Int!) { updateCustomMatch(matchId: $m, input: { venue: "Roof" }) { id } }';
    expect(refusal(await s.gql(UPDATE_MATCH, { m: match }, as('admin')))?.code).toBe('CONFLICT');

    const RENAME = 'mutation($t: Int!) { updateCustomTournament(tournamentId: $t, input: { name: "Cup" }) { name } }';
    expect(refusal(await s.gql(RENAME, { t: tournamentId }, as('globexAdmin')))?.code).toBe('NOT_FOUND');
    expect((await s.gql(RENAME, { t: tournamentId }, as('admin'))).data.updateCustomTournament.name).toBe('Cup');
    expect(refusal(await s.gql(UPDATE_MATCH, { m: match }, as('globexAdmin')))?.code).toBe('NOT_FOUND');
    // A custom tournament is not a global one: nobody enters it.
    const enter = await s.gql(
      'mutation($id: Int!) { enterTournament(tournamentId: $id) { id } }',
      { id: tournamentId },
      as('globexAdmin'),
    );
    expect(refusal(enter)?.code).toBe('NOT_FOUND');
  });

  it('a match takes its round’s hasPenalties unless given its own, and then goes to a shoot-out', async () => {
    const t = await s.gql(
      'mutation { createCustomTournament(input: { name: "Knockout Cup" }) { id } }',
      {},
      as('admin'),
    );
    const ROUND = `mutation($t: Int!, $p: Boolean!) { createCustomRound(tournamentId: $t,
      input: { name: "Final", date: "2030-02-01T18:00:00.000Z", hasPenalties: $p }) { id } }`;
    const knockout = (await s.gql(ROUND, { t: t.data.createCustomTournament.id, p: true }, as('admin'))).data
      .createCustomRound.id;
    const group = (await s.gql(ROUND, { t: t.data.createCustomTournament.id, p: false }, as('admin'))).data
      .createCustomRound.id;
    const TEAM = 'mutation($n: String!) { createCustomTeam(input: { name: $n }) { id } }';
    const [home, away] = [
      (await s.gql(TEAM, { n: 'Greens' }, as('admin'))).data.createCustomTeam.id,
      (await s.gql(TEAM, { n: 'Whites' }, as('admin'))).data.createCustomTeam.id,
    ];
    const MATCH = 'mutation($i: CustomMatchInput!) { createCustomMatch(input: $i) { id hasPenalties } }';
    const create = async (roundId: number, more: object = {}) => {
      const r = await s.gql(
        MATCH,
        { i: { roundId, date: '2030-02-01T18:00:00.000Z', homeTeamId: home, awayTeamId: away, ...more } },
        as('admin'),
      );
      expect(r.errors).toBeUndefined();
      return r.data.createCustomMatch as { id: number; hasPenalties: boolean };
    };
    const inherited = await create(knockout);
    expect(inherited.hasPenalties).toBe(true);
    expect((await create(group)).hasPenalties).toBe(false);
    expect((await create(knockout, { hasPenalties: false })).hasPenalties).toBe(false);
    const own = await create(group, { hasPenalties: true });
    expect(own.hasPenalties).toBe(true);

    // Changed before kickoff: a shoot-out winner already predicted goes with the shoot-out.
    const player = await s.gql(
      `mutation($m: Int!) { upsertPrediction(input: { matchId: $m, homeTeamGoals: 1, awayTeamGoals: 1,
        penaltiesWinner: home }) { id } }`,
      { m: own.id },
      as('player'),
    );
    expect(player.errors).toBeUndefined();
    const UPDATE = `mutation($m: Int!, $p: Boolean!) { updateCustomMatch(matchId: $m, input: { hasPenalties: $p }) {
      hasPenalties } }`;
    expect((await s.gql(UPDATE, { m: own.id, p: false }, as('admin'))).data.updateCustomMatch.hasPenalties).toBe(false);
    const predicted = await s.t.db.prisma.prediction.findFirstOrThrow({ where: { matchId: own.id } });
    expect(predicted.penaltiesWinner).toBeNull();

    // The inherited shoot-out is played: a level final decided on penalties.
    await s.kickOff(inherited.id);
    const shootOut = await s.gql(
      `mutation($m: Int!) { setMatchResult(input: { matchId: $m, status: FINISHED, homeTeamGoals: 1, awayTeamGoals: 1,
        homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 3 }) { penaltiesWinner } }`,
      { m: inherited.id },
      as('admin'),
    );
    expect(shootOut.errors).toBeUndefined();
    expect(shootOut.data.setMatchResult.penaltiesWinner).toBe('home');
  });
});
