// The rules of a result and of a prediction, pure: what a referee would accept, and when predictions close.
import { describe, expect, it } from 'vitest';
import { checkResult, predictionProblem, type MatchForResult, type ResultInput } from '../../src/domain/predictions.ts';

const KICKOFF = new Date('2030-06-11T19:00:00Z');
const AFTER = new Date('2030-06-11T21:00:00Z');
const BEFORE = new Date('2030-06-11T18:00:00Z');
const group: MatchForResult = {
  homeTeamExtraTimeGoals: null,
  date: KICKOFF,
  hasPenalties: false,
  isTwoWaysSecondMatch: false,
  homeTeamPenaltyGoals: null,
};
const knockout: MatchForResult = { ...group, hasPenalties: true };
const secondLeg: MatchForResult = { ...knockout, isTwoWaysSecondMatch: true };
const withShootOut: MatchForResult = { ...knockout, homeTeamPenaltyGoals: 4 };
const withExtraTime: MatchForResult = { ...knockout, homeTeamExtraTimeGoals: 2 };
const score = (h: number, a: number, more: Partial<ResultInput> = {}): ResultInput => ({
  status: 'FINISHED',
  homeTeamGoals: h,
  awayTeamGoals: a,
  ...more,
});
// First leg B 2-1 A; in the second leg A is at home.
const firstLeg = { homeTeamGoals: 2, awayTeamGoals: 1 };

describe('checkResult', () => {
  it.each<[string, ResultInput, MatchForResult, Date, typeof firstLeg | null, string | null]>([
    ['a group result after kickoff', score(2, 1), group, AFTER, null, null],
    ['a FINISHED result before kickoff', score(2, 1), group, BEFORE, null, 'status'],
    ['an AWARDED result before kickoff', score(3, 0, { status: 'AWARDED' }), group, BEFORE, null, 'status'],
    ['a match in play before kickoff', score(0, 0, { status: 'IN_PLAY' }), group, BEFORE, null, 'status'],
    ['half time before kickoff', score(0, 0, { status: 'PAUSED' }), group, BEFORE, null, 'status'],
    ['extra time before kickoff', score(1, 1, { status: 'EXTRA_TIME' }), knockout, BEFORE, null, 'status'],
    ['a shoot-out before kickoff', score(1, 1, { status: 'PENALTY_SHOOTOUT' }), knockout, BEFORE, null, 'status'],
    ['a suspension before kickoff', score(0, 0, { status: 'SUSPENDED' }), group, BEFORE, null, 'status'],
    ['a clock before kickoff', { status: 'IN_PLAY', elapsedTime: 1 }, group, BEFORE, null, 'status'],
    ['TIMED before kickoff', { status: 'TIMED' }, group, BEFORE, null, null],
    ['CANCELLED before kickoff', { status: 'CANCELLED' }, group, BEFORE, null, null],
    ['POSTPONED without a score', { status: 'POSTPONED' }, group, BEFORE, null, null],
    ['the clock of a match in play', score(1, 0, { status: 'IN_PLAY', elapsedTime: 67 }), group, AFTER, null, null],
    ['the clock at half time', score(1, 0, { status: 'PAUSED', elapsedTime: 45 }), group, AFTER, null, null],
    ['a clock on a finished match', score(1, 0, { elapsedTime: 90 }), group, AFTER, null, 'elapsedTime'],
    [
      'a clock past 150 minutes',
      score(1, 0, { status: 'IN_PLAY', elapsedTime: 151 }),
      group,
      AFTER,
      null,
      'elapsedTime',
    ],
    ['a negative clock', score(1, 0, { status: 'IN_PLAY', elapsedTime: -1 }), group, AFTER, null, 'elapsedTime'],
    ['FINISHED without a score', { status: 'FINISHED' }, group, AFTER, null, 'homeTeamGoals'],
    ['one side only', { status: 'FINISHED', homeTeamGoals: 1 }, group, AFTER, null, 'awayTeamGoals'],
    ['negative goals', score(-1, 0), group, AFTER, null, 'homeTeamGoals'],
    // Extra time
    [
      'extra time in a knockout',
      score(2, 1, { homeTeamFullTimeGoals: 1, awayTeamFullTimeGoals: 1 }),
      knockout,
      AFTER,
      null,
      null,
    ],
    [
      'extra time in a group match',
      score(2, 1, { homeTeamFullTimeGoals: 1, awayTeamFullTimeGoals: 1 }),
      group,
      AFTER,
      null,
      'homeTeamFullTimeGoals',
    ],
    [
      'extra time after a 90-minute win',
      score(3, 1, { homeTeamFullTimeGoals: 2, awayTeamFullTimeGoals: 1 }),
      knockout,
      AFTER,
      null,
      'homeTeamFullTimeGoals',
    ],
    [
      'a score that went down in extra time',
      score(1, 2, { homeTeamFullTimeGoals: 2, awayTeamFullTimeGoals: 2 }),
      knockout,
      AFTER,
      null,
      'homeTeamGoals',
    ],
    [
      'one 90-minute side only',
      score(2, 1, { homeTeamFullTimeGoals: 1 }),
      knockout,
      AFTER,
      null,
      'awayTeamFullTimeGoals',
    ],
    // Shoot-outs
    [
      'a shoot-out after a draw',
      score(1, 1, { homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 3 }),
      knockout,
      AFTER,
      null,
      null,
    ],
    [
      'a shoot-out in a group match',
      score(1, 1, { homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 3 }),
      group,
      AFTER,
      null,
      'homeTeamPenaltyGoals',
    ],
    [
      'a shoot-out after a win',
      score(2, 1, { homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 3 }),
      knockout,
      AFTER,
      null,
      'homeTeamPenaltyGoals',
    ],
    [
      'a drawn shoot-out',
      score(1, 1, { homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 4 }),
      knockout,
      AFTER,
      null,
      'homeTeamPenaltyGoals',
    ],
    // Second legs: the aggregate decides
    [
      'a second leg to penalties on a level aggregate',
      score(1, 0, { homeTeamPenaltyGoals: 5, awayTeamPenaltyGoals: 4 }),
      secondLeg,
      AFTER,
      firstLeg,
      null,
    ],
    [
      'a drawn second leg with an unlevel aggregate',
      score(1, 1, { homeTeamPenaltyGoals: 5, awayTeamPenaltyGoals: 4 }),
      secondLeg,
      AFTER,
      firstLeg,
      'homeTeamPenaltyGoals',
    ],
    [
      'a second leg shoot-out without the first leg',
      score(1, 1, { homeTeamPenaltyGoals: 5, awayTeamPenaltyGoals: 4 }),
      secondLeg,
      AFTER,
      null,
      'homeTeamPenaltyGoals',
    ],
    [
      'second-leg extra time on a level aggregate',
      score(2, 0, { homeTeamFullTimeGoals: 1, awayTeamFullTimeGoals: 0 }),
      secondLeg,
      AFTER,
      firstLeg,
      null,
    ],
    // Corrections of a recorded shoot-out
    ['a correction leaving out the shoot-out', score(1, 1), withShootOut, AFTER, null, 'homeTeamPenaltyGoals'],
    ['a correction saying there was none', score(2, 1, { noShootOut: true }), withShootOut, AFTER, null, null],
    [
      'a correction repeating it',
      score(1, 1, { homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 2 }),
      withShootOut,
      AFTER,
      null,
      null,
    ],
    [
      'noShootOut with penalty scores',
      score(1, 1, { homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 2, noShootOut: true }),
      withShootOut,
      AFTER,
      null,
      'noShootOut',
    ],
    ['clearing the score (postponed) drops the shoot-out', { status: 'POSTPONED' }, withShootOut, AFTER, null, null],
    // Corrections of recorded extra time
    ['a correction leaving out the extra time', score(2, 1), withExtraTime, AFTER, null, 'homeTeamFullTimeGoals'],
    ['a correction saying there was none', score(2, 1, { noExtraTime: true }), withExtraTime, AFTER, null, null],
    [
      'a correction repeating it',
      score(2, 1, { homeTeamFullTimeGoals: 1, awayTeamFullTimeGoals: 1 }),
      withExtraTime,
      AFTER,
      null,
      null,
    ],
    [
      'noExtraTime with a 90-minute score',
      score(2, 1, { homeTeamFullTimeGoals: 1, awayTeamFullTimeGoals: 1, noExtraTime: true }),
      withExtraTime,
      AFTER,
      null,
      'noExtraTime',
    ],
  ])('%s', (_name, input, match, now, leg, argument) => {
    const checked = checkResult(input, match, now, leg);
    expect(checked.ok ? null : checked.argument).toBe(argument);
  });

  it('stores the 90-minute and extra-time scores apart and derives the shoot-out winner', () => {
    const checked = checkResult(
      score(1, 1, {
        homeTeamFullTimeGoals: 0,
        awayTeamFullTimeGoals: 0,
        homeTeamPenaltyGoals: 3,
        awayTeamPenaltyGoals: 4,
      }),
      knockout,
      AFTER,
    );
    expect(checked).toEqual({
      ok: true,
      data: {
        status: 'FINISHED',
        homeTeamGoals: 1,
        awayTeamGoals: 1,
        homeTeamFullTimeGoals: 0,
        awayTeamFullTimeGoals: 0,
        homeTeamExtraTimeGoals: 1,
        awayTeamExtraTimeGoals: 1,
        homeTeamPenaltyGoals: 3,
        awayTeamPenaltyGoals: 4,
        penaltiesWinner: 'away',
        elapsedTime: null,
      },
    });
    const plain = checkResult(score(2, 0), group, AFTER);
    expect(plain.ok && plain.data).toMatchObject({
      homeTeamFullTimeGoals: 2,
      awayTeamFullTimeGoals: 0,
      homeTeamExtraTimeGoals: null,
      awayTeamExtraTimeGoals: null,
    });
  });

  it('keeps the clock of a match in play, leaves it as it was when not given, and stops it otherwise', () => {
    const live = (more: Partial<ResultInput>) => checkResult(score(1, 0, { status: 'IN_PLAY', ...more }), group, AFTER);
    const at = (r: ReturnType<typeof checkResult>) => (r.ok ? r.data.elapsedTime : 'refused');
    expect(at(live({ elapsedTime: 67 }))).toBe(67);
    expect(at(live({}))).toBeUndefined();
    expect(at(checkResult(score(1, 0), group, AFTER))).toBeNull();
  });
});

describe('predictionProblem', () => {
  const open = { date: KICKOFF, status: 'SCHEDULED', hasPenalties: true, isTwoWaysSecondMatch: false };
  const minutesBefore = (m: number) => new Date(KICKOFF.getTime() - m * 60_000);
  it.each<[string, object, Date, number, string | null]>([
    ['open until kickoff', open, minutesBefore(1), 0, null],
    ['closed at kickoff', open, KICKOFF, 0, 'closed'],
    ['a 30-minute deadline: open 31 minutes before', open, minutesBefore(31), 30, null],
    ['a 30-minute deadline: closed 30 minutes before', open, minutesBefore(30), 30, 'closed'],
    ['a postponed match takes none', { ...open, status: 'POSTPONED' }, minutesBefore(60), 0, 'closed'],
    ['rescheduled (SCHEDULED again) it does', { ...open, date: new Date('2030-07-01T00:00:00Z') }, AFTER, 0, null],
  ])('%s', (_name, match, now, deadline, kind) => {
    const problem = predictionProblem(match as never, { homeTeamGoals: 1, awayTeamGoals: 0 }, now, deadline);
    expect(problem?.kind ?? null).toBe(kind);
  });

  it('a shoot-out winner goes with a predicted draw, or any score in a second leg', () => {
    const win = { homeTeamGoals: 2, awayTeamGoals: 1, penaltiesWinner: 'home' as const };
    expect(predictionProblem(open, win, BEFORE)?.kind).toBe('input');
    expect(predictionProblem({ ...open, isTwoWaysSecondMatch: true }, win, BEFORE)).toBeNull();
    expect(predictionProblem({ ...open, hasPenalties: false }, { ...win, awayTeamGoals: 2 }, BEFORE)?.kind).toBe(
      'input',
    );
  });
});
