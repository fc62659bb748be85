import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let token: string;
let manager: string;
let ids: {
  setting: number;
  argentina: number;
  france: number;
  japan: number;
  final: number;
  tournament: number;
  stranger: number;
};
beforeAll(async () => {
  s = await startTestServer();
  token = await s.login('player15@demo.test', 'demo');
  manager = await s.loginAs('manager');
  const p = s.t.db.prisma;
  const { teams, dreamFinals, matches, tournament } = s.demo;
  const country = await p.country.findFirstOrThrow();
  ids = {
    setting: dreamFinals,
    argentina: teams.Argentina,
    france: teams.France,
    japan: teams.Japan,
    final: matches.final,
    tournament,
    stranger: (await p.team.create({ data: { name: 'Atlantis', countryId: country.id } })).id,
  };
});
afterAll(() => s.close());

const PICKS =
  'mutation($s: Int!, $t: [Int!]!) { setDreamFinalPicks(settingId: $s, teamIds: $t) { id awardedPoints myPicks { ' +
  'position points team { name } } } }';
const RANK = 'query($t: Int!) { ranking(tournamentId: $t, take: 100) { me { points } } }';

describe('dream finals', () => {
  it('picks until the limit round, scored when the final is decided, counted in the general ranking', async () => {
    const r = await s.gql(PICKS, { s: ids.setting, t: [ids.argentina, ids.france] }, bearer(token));
    expect(r.errors).toBeUndefined();
    expect(r.data.setDreamFinalPicks.myPicks).toEqual([
      { position: 1, points: null, team: { name: 'Argentina' } },
      { position: 2, points: null, team: { name: 'France' } },
    ]);
    for (const [teams, arg] of [
      [[ids.argentina], 'teamIds'],
      [[ids.argentina, ids.argentina], 'teamIds'],
      [[ids.argentina, ids.stranger], 'teamIds'],
    ] as const) {
      expect(
        (await s.gql(PICKS, { s: ids.setting, t: teams }, bearer(token))).errors?.[0].extensions.argumentName,
      ).toBe(arg);
    }
    const before = (await s.gql(RANK, { t: ids.tournament }, bearer(token))).data.ranking.me.points;
    // The final kicks off: picks close then, whatever round was named as the limit.
    await s.kickOff(ids.final);
    const late = await s.gql(PICKS, { s: ids.setting, t: [ids.japan, ids.france] }, bearer(token));
    expect(late.errors?.[0]).toMatchObject({
      extensions: { code: 'FORBIDDEN' },
      message: /deciding matches kicked off/,
    });
    const result = await s.gql(
      'mutation($m: Int!) { setMatchResult(input: { matchId: $m, status: FINISHED, homeTeamGoals: 3, awayTeamGoals: ' +
        '3, homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 2 }) { id } }',
      { m: ids.final },
      { ...bearer(manager), 'x-app-path': 'demo' },
    );
    expect(result.errors).toBeUndefined();
    const after = await s.gql('{ company { dreamFinalsSettings { myPicks { position points } } } }', {}, bearer(token));
    expect(after.data.company.dreamFinalsSettings[0].myPicks.map((p: { points: number }) => p.points)).toEqual([5, 5]);
    const prediction = await s.t.db.prisma.prediction.findFirst({
      where: { matchId: ids.final, user: { email: 'player15@demo.test' } },
    });
    const predictionPoints = prediction?.points ?? 0;
    expect((await s.gql(RANK, { t: ids.tournament }, bearer(token))).data.ranking.me.points).toBe(
      before + 10 + predictionPoints,
    );
  });

  it('refuses picks once the limit round has started', async () => {
    const setting = await s.t.db.prisma.dreamFinalsSetting.findUniqueOrThrow({ where: { id: ids.setting } });
    await s.t.db.prisma.round.update({
      where: { id: setting.limitRoundId },
      data: { date: new Date(Date.now() - 1000) },
    });
    const r = await s.gql(PICKS, { s: ids.setting, t: [ids.japan, ids.france] }, bearer(token));
    expect(r.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
