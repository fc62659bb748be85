import { describe, expect, it } from 'vitest';
import {
  answerPoints,
  canonicalAnswer,
  canonicalCorrect,
  closesAt,
  decidingRound,
  questionProblem,
  type BonusQuestionInput,
} from '../../src/domain/bonus-questions.ts';

const teams = new Set([10, 11, 12]);
const q = (kind: BonusQuestionInput['kind'], options: string[] = []) => ({ kind, options });
const base: BonusQuestionInput = { kind: 'NUMBER', text: 'Goals in the final?', points: 5, closesAt: new Date() };

describe('bonus questions', () => {
  it.each<[string, Partial<BonusQuestionInput>, string | null]>([
    ['a number question', {}, null],
    ['a choice with options', { kind: 'CHOICE', options: ['Yes', 'No'] }, null],
    ['a choice with one option', { kind: 'CHOICE', options: ['Yes'] }, 'options'],
    ['a choice with the same option twice', { kind: 'CHOICE', options: ['Yes', 'yes'] }, 'options'],
    ['a choice with an empty option', { kind: 'CHOICE', options: ['Yes', ' '] }, 'options'],
    ['options on a team question', { kind: 'CHAMPION', options: ['a', 'b'] }, 'options'],
    ['a short text', { text: 'Hi' }, 'text'],
    ['negative points', { points: -1 }, 'points'],
    ['fractional points', { points: 1.5 }, 'points'],
    ['an unknown kind', { kind: 'MVP' as never }, 'kind'],
    ['an invalid date', { closesAt: new Date('nope') }, 'closesAt'],
  ])('question: %s', (_name, over, argument) => {
    expect(questionProblem({ ...base, ...over })?.argument ?? null).toBe(argument);
  });

  it.each<[string, ReturnType<typeof q>, string, string | null]>([
    ['a team of the tournament', q('CHAMPION'), ' 11 ', '11'],
    ['a team elsewhere', q('FINALIST'), '99', null],
    ['a team by name', q('CHAMPION'), 'France', null],
    ['a name, plainly', q('TOP_SCORER'), '  Kylian   Mbappé ', 'kylian mbappe'],
    ['a one-letter name', q('TOP_SCORER'), 'K', null],
    ['a number', q('NUMBER'), '007', '7'],
    ['a negative number', q('NUMBER'), '-3', null],
    ['an option index', q('CHOICE', ['a', 'b', 'c']), '2', '2'],
    ['an option out of range', q('CHOICE', ['a', 'b', 'c']), '3', null],
  ])('answer: %s', (_name, question, raw, value) => {
    const c = canonicalAnswer(question, raw, teams);
    expect('value' in c ? c.value : null).toBe(value);
  });

  it('right answers: one champion, up to two finalists, joint top scorers; points only when set', () => {
    expect(canonicalCorrect(q('CHAMPION'), ['10', '11'], teams)).toMatchObject({ argument: 'correctAnswers' });
    expect(canonicalCorrect(q('FINALIST'), ['10', '11'], teams)).toEqual({ values: ['10', '11'] });
    expect(canonicalCorrect(q('TOP_SCORER'), ['Harry Kane', 'KYLIAN MBAPPÉ'], teams)).toEqual({
      values: ['harry kane', 'kylian mbappe'],
    });
    expect(canonicalCorrect(q('NUMBER'), [], teams)).toMatchObject({ argument: 'correctAnswers' });
    expect(answerPoints('11', null, 5)).toBeNull();
    expect(answerPoints('11', ['10', '11'], 5)).toBe(5);
    expect(answerPoints('12', ['10', '11'], 5)).toBe(0);
  });

  it('team questions close when the deciding round kicks off, if that is earlier', () => {
    const rounds = [
      { id: 1, name: 'Group A', position: 1 },
      { id: 2, name: 'Semi-finals', position: 2 },
      { id: 3, name: 'Match for third place', position: 3 },
      { id: 4, name: 'Final', position: 4 },
    ];
    expect(decidingRound('CHAMPION', rounds)?.id).toBe(4);
    expect(decidingRound('FINALIST', rounds)?.id).toBe(2);
    expect(decidingRound('NUMBER', rounds)).toBeNull();
    // Without a round named so, the final is the last round that is not the match for third place.
    const unnamed = [
      { id: 1, name: 'Semis', position: 1 },
      { id: 2, name: 'Championship game', position: 2 },
      { id: 3, name: 'Third place', position: 3 },
    ];
    expect(decidingRound('CHAMPION', unnamed)?.id).toBe(2);
    expect(decidingRound('FINALIST', unnamed)?.id).toBe(1);
    const late = new Date('2030-08-01T00:00:00Z');
    const kickoff = new Date('2030-07-14T19:00:00Z');
    expect(closesAt({ closesAt: late }, kickoff)).toEqual(kickoff);
    expect(closesAt({ closesAt: new Date('2030-07-01T00:00:00Z') }, kickoff)).toEqual(new Date('2030-07-01T00:00:00Z'));
    expect(closesAt({ closesAt: late }, null)).toEqual(late);
  });
});
