// The game as an organiser runs it, through the API: the company's scoring settings (and the rescoring a change
// makes), jokers, the prediction deadline, a postponed match given a new date, and both scores of a match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let t: Record<'player' | 'admin' | 'manager' | 'globexAdmin', string>;
beforeAll(async () => {
  s = await startTestServer();
  t = await s.loginAll(['player', 'admin', 'manager', 'globexAdmin']);
});
afterAll(() => s.close());

const SET = `mutation($c: Int!, $i: ScoringSettingsInput!, $confirm: Boolean) {
  updateScoringSettings(companyId: $c, input: $i, confirm: $confirm) {
    rescoredPredictions company { id } scoringSettings { exactScore goalDifference outcome penaltiesWinner
      advancingTeam basis roundMultipliers { roundId multiplier } predictionDeadlineMinutes jokersPerRound tieRule
      rankAdmins rankNonPlayers } } }`;
const READ = `{ company { scoringSettings { exactScore goalDifference outcome penaltiesWinner advancingTeam basis
  roundMultipliers { roundId multiplier } predictionDeadlineMinutes jokersPerRound tieRule rankAdmins
  rankNonPlayers } } }`;
const UPSERT = `mutation($i: UpsertPredictionInput!) { upsertPrediction(input: $i) { id points isJoker } }`;
const RESULT = `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id status homeTeamGoals
  awayTeamGoals homeTeamFullTimeGoals awayTeamFullTimeGoals homeTeamExtraTimeGoals awayTeamExtraTimeGoals } }`;
const RESCHEDULE = `mutation($m: Int!, $d: DateTime!) { rescheduleMatch(matchId: $m, date: $d) { id status date } }`;
const demoHeader = { 'x-app-path': 'demo' };
const errorOf = (r: { errors?: Array<{ message: string; extensions: Record<string, unknown> }> }) =>
  r.errors?.[0] && { code: r.errors[0].extensions.code, argument: r.errors[0].extensions.argumentName };

const DEFAULTS = {
  exactScore: 3,
  goalDifference: 1,
  outcome: 1,
  penaltiesWinner: 1,
  advancingTeam: 0,
  basis: 'AFTER_EXTRA_TIME',
  roundMultipliers: [],
  predictionDeadlineMinutes: 0,
  jokersPerRound: 0,
  tieRule: 'HITS',
  rankAdmins: true,
  rankNonPlayers: true,
};

/** The rules written out again, apart from src/game: 4 exact / 3 difference / 2 outcome on the 90 minutes. */
function leadingPlatformPoints(
  p: { homeTeamGoals: number; awayTeamGoals: number; penaltiesWinner: string | null },
  m: { homeTeamFullTimeGoals: number | null; awayTeamFullTimeGoals: number | null; penaltiesWinner: string | null },
  multiplier: number,
) {
  const [h, a] = [m.homeTeamFullTimeGoals!, m.awayTeamFullTimeGoals!];
  let points = 0;
  if (p.homeTeamGoals === h && p.awayTeamGoals === a) points = 4;
  else if (Math.sign(p.homeTeamGoals - p.awayTeamGoals) === Math.sign(h - a))
    points = h !== a && p.homeTeamGoals - p.awayTeamGoals === h - a ? 3 : 2;
  if (m.penaltiesWinner && p.homeTeamGoals === p.awayTeamGoals && p.penaltiesWinner === m.penaltiesWinner) points += 1;
  return Math.round(points * multiplier * 100) / 100;
}

describe('scoring settings', () => {
  it('anyone in the company reads them; the defaults are the rules played so far', async () => {
    const r = await s.gql(READ, {}, bearer(t.player));
    expect(r.errors).toBeUndefined();
    expect(r.data.company.scoringSettings).toEqual(DEFAULTS);
  });

  it('a change once play has started needs confirm; then every decided prediction is rescored at once', async () => {
    const p = s.t.db.prisma;
    const demo = s.demo.companies.DEMO;
    const semis = s.demo.rounds['Semi-finals'];
    const change = {
      exactScore: 4,
      goalDifference: 3,
      outcome: 2,
      basis: 'FULL_TIME',
      roundMultipliers: [{ roundId: semis, multiplier: 1.5 }],
    };
    const before = await p.prediction.findMany({ orderBy: { id: 'asc' } });

    const unconfirmed = await s.gql(SET, { c: demo, i: change }, bearer(t.admin));
    expect(errorOf(unconfirmed)).toEqual({ code: 'CONFLICT', argument: 'confirm' });
    expect(unconfirmed.errors![0].message).toMatch(/confirm: true/);
    expect((await s.gql(READ, {}, bearer(t.player))).data.company.scoringSettings).toEqual(DEFAULTS);
    expect(await p.prediction.findMany({ orderBy: { id: 'asc' } })).toEqual(before);

    const r = await s.gql(SET, { c: demo, i: change, confirm: true }, bearer(t.admin));
    expect(r.errors).toBeUndefined();
    expect(r.data.updateScoringSettings.scoringSettings).toEqual({ ...DEFAULTS, ...change });

    const after = await p.prediction.findMany({
      orderBy: { id: 'asc' },
      include: { match: true, user: { select: { companyId: true } } },
    });
    let changed = 0;
    for (const [i, x] of after.entries()) {
      if (x.user.companyId !== demo) {
        expect(x, 'another company keeps its points').toMatchObject({ points: before[i].points });
        continue;
      }
      if (x.status !== 'SCORED') continue;
      const expected = leadingPlatformPoints(x, x.match, x.match.roundId === semis ? 1.5 : 1);
      expect(x.points, `prediction ${x.id}`).toBe(expected);
      if (expected !== before[i].points) changed++;
    }
    expect(changed).toBeGreaterThan(0);
    expect(r.data.updateScoringSettings.rescoredPredictions).toBe(changed);
    // Some points are decimals now, and the ranking shows them as they are.
    expect(after.some((x) => x.points !== null && !Number.isInteger(x.points))).toBe(true);
    const me = await s.gql(
      'query($t: Int!) { ranking(tournamentId: $t) { me { points } } }',
      { t: s.demo.tournament },
      bearer(t.player),
    );
    const mine = after.filter((x) => x.userId === s.demo.users['player1@demo.test'] && x.status === 'SCORED');
    const picks = await p.dreamFinalPick.findMany({ where: { userId: s.demo.users['player1@demo.test'] } });
    const total = mine.reduce((a, x) => a + x.points!, 0) + picks.reduce((a, x) => a + (x.points ?? 0), 0);
    expect(me.data.ranking.me.points).toBe(Math.round(total * 100) / 100);

    // Back to the defaults: the points are those of before.
    const back = await s.gql(SET, { c: demo, i: DEFAULTS, confirm: true }, bearer(t.admin));
    expect(back.data.updateScoringSettings.rescoredPredictions).toBe(changed);
    expect(await p.prediction.findMany({ orderBy: { id: 'asc' } })).toEqual(
      before.map((x, i) => ({ ...x, updatedAt: expect.any(Date) as unknown as Date, id: before[i].id })),
    );
  });

  it('refuses settings out of range, naming the argument', async () => {
    const demo = s.demo.companies.DEMO;
    for (const [input, argument] of [
      [{ exactScore: -1 }, 'exactScore'],
      [{ outcome: 0.001 }, 'outcome'],
      [{ predictionDeadlineMinutes: -5 }, 'predictionDeadlineMinutes'],
      [{ jokersPerRound: 99 }, 'jokersPerRound'],
      [{ roundMultipliers: [{ roundId: 999999, multiplier: 2 }] }, 'roundMultipliers'],
    ] as const) {
      const r = await s.gql(SET, { c: demo, i: input, confirm: true }, bearer(t.admin));
      expect(errorOf(r), JSON.stringify(input)).toEqual({ code: 'BAD_USER_INPUT', argument });
    }
    // A player may read the rules, not change them.
    const r = await s.gql(SET, { c: demo, i: { exactScore: 5 } }, bearer(t.player));
    expect(errorOf(r)?.code).toBe('FORBIDDEN');
  });
});

describe('jokers, the deadline, and a postponed match', () => {
  const demo = () => s.demo.companies.DEMO;
  const set = async (input: object) => {
    const r = await s.gql(SET, { c: demo(), i: input, confirm: true }, bearer(t.admin));
    expect(r.errors).toBeUndefined();
  };
  /** Another match in the final's round, kicking off `minutes` from now. */
  const extraFinal = async (minutes: number) => {
    const final = await s.t.db.prisma.match.findUniqueOrThrow({ where: { id: s.demo.matches.final } });
    const { id: _id, externalId: _e, createdAt: _c, updatedAt: _u, ...rest } = final;
    return s.t.db.prisma.match.create({ data: { ...rest, date: new Date(Date.now() + minutes * 60_000) } });
  };

  it('jokers: as many per round as the company allows, doubled, taken back before kickoff', async () => {
    const predict = (matchId: number, isJoker?: boolean | null) =>
      s.gql(UPSERT, { i: { matchId, homeTeamGoals: 2, awayTeamGoals: 1, isJoker } }, bearer(t.player));
    const final = s.demo.matches.final;
    expect(errorOf(await predict(final, true))).toEqual({ code: 'BAD_USER_INPUT', argument: 'isJoker' });

    await set({ jokersPerRound: 1 });
    const replay = await extraFinal(600);
    expect((await predict(final, true)).data.upsertPrediction.isJoker).toBe(true);
    // Left out, the joker stays; a second one in the round is refused.
    expect((await predict(final)).data.upsertPrediction.isJoker).toBe(true);
    const second = await predict(replay.id, true);
    expect(second.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' }, message: /joker/ });
    expect(await s.t.db.prisma.prediction.count({ where: { matchId: replay.id } })).toBe(0);
    // Taken back from the final, it goes to the replay.
    expect((await predict(final, false)).data.upsertPrediction.isJoker).toBe(false);
    expect((await predict(replay.id, true)).data.upsertPrediction.isJoker).toBe(true);

    await s.kickOff(replay.id);
    const r = await s.gql(
      RESULT,
      { i: { matchId: replay.id, status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1 } },
      { ...bearer(t.manager), ...demoHeader },
    );
    expect(r.errors).toBeUndefined();
    const mine = await s.t.db.prisma.prediction.findFirstOrThrow({
      where: { matchId: replay.id, userId: s.demo.users['player1@demo.test'] },
    });
    expect(mine).toMatchObject({ status: 'SCORED', points: 6, exactHit: true });
    // A joker placed under a larger allowance stays, and the prediction still changes without naming it.
    await set({ jokersPerRound: 2 });
    const third = await extraFinal(600);
    expect((await predict(third.id, true)).data.upsertPrediction.isJoker).toBe(true);
    await set({ jokersPerRound: 0 });
    expect((await predict(third.id)).data.upsertPrediction.isJoker).toBe(true);
    expect(errorOf(await predict(third.id, true))).toEqual({ code: 'BAD_USER_INPUT', argument: 'isJoker' });
    // Without jokers the company's jokers count once again.
    await set({ jokersPerRound: 0 });
    expect((await s.t.db.prisma.prediction.findUniqueOrThrow({ where: { id: mine.id } })).points).toBe(3);
  });

  it('predictions close predictionDeadlineMinutes before kickoff', async () => {
    await set({ predictionDeadlineMinutes: 60 });
    try {
      const soon = await extraFinal(30);
      const later = await extraFinal(120);
      const up = (matchId: number) =>
        s.gql(UPSERT, { i: { matchId, homeTeamGoals: 0, awayTeamGoals: 0 } }, bearer(t.player));
      const closed = await up(soon.id);
      expect(closed.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' }, message: /60 minutes before/ });
      expect((await up(later.id)).errors).toBeUndefined();
      // Every match says when it closes for the company.
      const listed = await s.gql(
        '{ myTournaments { rounds { matches { id date predictionsCloseAt } } } }',
        {},
        bearer(t.player),
      );
      const all = listed.data.myTournaments.flatMap((x: any) => x.rounds.flatMap((r: any) => r.matches));
      const shown = all.find((m: { id: number }) => m.id === soon.id);
      expect(new Date(shown.date).getTime() - new Date(shown.predictionsCloseAt).getTime()).toBe(60 * 60_000);
    } finally {
      await set({ predictionDeadlineMinutes: 0 });
    }
  });

  it('a postponed match takes no predictions until it gets a new date; a played one keeps its date', async () => {
    const manager = { ...bearer(t.manager), ...demoHeader };
    const match = await extraFinal(24 * 60);
    const up = () => s.gql(UPSERT, { i: { matchId: match.id, homeTeamGoals: 1, awayTeamGoals: 0 } }, bearer(t.player));
    expect((await up()).errors).toBeUndefined();
    const postponed = await s.gql(RESULT, { i: { matchId: match.id, status: 'POSTPONED' } }, manager);
    expect(postponed.data.setMatchResult.status).toBe('POSTPONED');
    expect(errorOf(await up())?.code).toBe('FORBIDDEN');

    const past = await s.gql(RESCHEDULE, { m: match.id, d: new Date(Date.now() - 1000).toISOString() }, manager);
    expect(errorOf(past)).toEqual({ code: 'BAD_USER_INPUT', argument: 'date' });
    const when = new Date(Date.now() + 7 * 24 * 3600e3);
    const moved = await s.gql(RESCHEDULE, { m: match.id, d: when.toISOString() }, manager);
    expect(moved.errors).toBeUndefined();
    expect(moved.data.rescheduleMatch).toEqual({ id: match.id, status: 'SCHEDULED', date: when.toISOString() });
    expect((await up()).errors).toBeUndefined();
    // The prediction made before the postponement is still there (the same row, updated).
    expect(await s.t.db.prisma.prediction.count({ where: { matchId: match.id } })).toBe(1);

    const played = await s.gql(RESCHEDULE, { m: s.demo.matches.opener, d: when.toISOString() }, manager);
    expect(errorOf(played)?.code).toBe('CONFLICT');
    // Past its kickoff, a match without a result is not moved (its predictions are shown): postponed first.
    const kicked = await extraFinal(60);
    await s.kickOff(kicked.id);
    expect(errorOf(await s.gql(RESCHEDULE, { m: kicked.id, d: when.toISOString() }, manager))?.code).toBe('CONFLICT');
    expect(errorOf(await s.gql(RESCHEDULE, { m: match.id, d: when.toISOString() }, bearer(t.player)))?.code).toBe(
      'FORBIDDEN',
    );
  });
});

describe('both scores of a match', () => {
  it('keeps the 90-minute and extra-time scores apart, as the importer and setMatchResult write them', async () => {
    const semi = await s.t.db.prisma.match.findFirstOrThrow({
      where: { roundId: s.demo.rounds['Semi-finals'], homeTeam: { name: 'Argentina' } },
    });
    // Imported from the demo file: 1-1 after 90 minutes, 2-1 after extra time.
    expect(semi).toMatchObject({
      homeTeamGoals: 2,
      awayTeamGoals: 1,
      homeTeamFullTimeGoals: 1,
      awayTeamFullTimeGoals: 1,
      homeTeamExtraTimeGoals: 2,
      awayTeamExtraTimeGoals: 1,
    });
    const manager = { ...bearer(t.manager), ...demoHeader };
    const r = await s.gql(
      RESULT,
      {
        i: {
          matchId: semi.id,
          status: 'FINISHED',
          homeTeamGoals: 3,
          awayTeamGoals: 2,
          homeTeamFullTimeGoals: 2,
          awayTeamFullTimeGoals: 2,
        },
      },
      manager,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.setMatchResult).toMatchObject({
      homeTeamGoals: 3,
      awayTeamGoals: 2,
      homeTeamFullTimeGoals: 2,
      awayTeamFullTimeGoals: 2,
      homeTeamExtraTimeGoals: 3,
      awayTeamExtraTimeGoals: 2,
    });
    // A correction that leaves the extra time out is refused; noExtraTime says there was none.
    const leftOut = await s.gql(
      RESULT,
      { i: { matchId: semi.id, status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 0 } },
      manager,
    );
    expect(errorOf(leftOut)).toEqual({ code: 'BAD_USER_INPUT', argument: 'homeTeamFullTimeGoals' });
    const plain = await s.gql(
      RESULT,
      { i: { matchId: semi.id, status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 0, noExtraTime: true } },
      manager,
    );
    expect(plain.data.setMatchResult).toMatchObject({
      homeTeamFullTimeGoals: 2,
      awayTeamFullTimeGoals: 0,
      homeTeamExtraTimeGoals: null,
      awayTeamExtraTimeGoals: null,
    });
    // Extra time after a 90-minute win is refused.
    const wrong = await s.gql(
      RESULT,
      {
        i: {
          matchId: semi.id,
          status: 'FINISHED',
          homeTeamGoals: 3,
          awayTeamGoals: 1,
          homeTeamFullTimeGoals: 2,
          awayTeamFullTimeGoals: 1,
        },
      },
      manager,
    );
    expect(errorOf(wrong)).toEqual({ code: 'BAD_USER_INPUT', argument: 'homeTeamFullTimeGoals' });
  });
});

describe('two-legged ties', () => {
  it('a corrected first leg rescores its second leg, whose aggregate it changes', async () => {
    const p = s.t.db.prisma;
    const manager = { ...bearer(t.manager), ...demoHeader };
    const final = await p.match.findUniqueOrThrow({ where: { id: s.demo.matches.final } });
    const [argentina, france] = [s.demo.teams.Argentina, s.demo.teams.France];
    const leg = (home: number, away: number, minutes: number, second: boolean) =>
      p.match.create({
        data: {
          roundId: final.roundId,
          tournamentId: final.tournamentId,
          date: new Date(Date.now() + minutes * 60_000),
          homeTeamId: home,
          awayTeamId: away,
          hasPenalties: true,
          isTwoWaysSecondMatch: second,
        },
      });
    const first = await leg(france, argentina, -120, false);
    const second = await leg(argentina, france, 60, true);
    const result = (matchId: number, more: object) =>
      s.gql(RESULT, { i: { matchId, status: 'FINISHED', ...more } }, manager);
    expect((await result(first.id, { homeTeamGoals: 2, awayTeamGoals: 0 })).errors).toBeUndefined();
    await s.gql(SET, { c: s.demo.companies.DEMO, i: { advancingTeam: 2 }, confirm: true }, bearer(t.admin));
    try {
      const up = await s.gql(
        UPSERT,
        { i: { matchId: second.id, homeTeamGoals: 1, awayTeamGoals: 0, penaltiesWinner: 'home' } },
        bearer(t.player),
      );
      expect(up.errors).toBeUndefined();
      await s.kickOff(second.id);
      // 2-0 levels the tie at 2-2; Argentina wins the shoot-out.
      const r = await result(second.id, {
        homeTeamGoals: 2,
        awayTeamGoals: 0,
        homeTeamPenaltyGoals: 4,
        awayTeamPenaltyGoals: 3,
      });
      expect(r.errors).toBeUndefined();
      const mine = () =>
        p.prediction.findFirstOrThrow({ where: { matchId: second.id, userId: s.demo.users['player1@demo.test'] } });
      // Right winner (1) and the shoot-out's winner (1); 1-0 would have sent France through (2-1 over both legs).
      expect((await mine()).points).toBe(2);
      // The first leg was 1-0, not 2-0: the 1-0 now levels the tie, which Argentina wins on penalties: +2.
      expect((await result(first.id, { homeTeamGoals: 1, awayTeamGoals: 0 })).errors).toBeUndefined();
      expect((await mine()).points).toBe(4);
    } finally {
      await s.gql(SET, { c: s.demo.companies.DEMO, i: { advancingTeam: 0 }, confirm: true }, bearer(t.admin));
    }
  });
});
