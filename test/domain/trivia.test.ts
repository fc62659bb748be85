// Trivia's pure rules, table by table: the window on the clock, what a question may hold (the refused argument
// named), grading, and the ranking order under each tie rule.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import {
  gradeTriviaAnswer,
  rankTrivia,
  triviaQuestionData,
  triviaTieRule,
  triviaWindow,
  type TriviaQuestionInput,
  type TriviaStanding,
} from '../../src/domain/trivia.ts';

const NOW = new Date('2026-06-11T12:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

describe('triviaWindow', () => {
  it.each([
    [-10, 10, 'OPEN'],
    [0, 10, 'OPEN'], // startsAt is included
    [1, 10, 'UPCOMING'],
    [-10, 0, 'CLOSED'], // endsAt is not
    [-10, -1, 'CLOSED'],
  ])('starting at %i min and ending at %i min: %s', (start, end, expected) => {
    expect(triviaWindow({ startsAt: at(start), endsAt: at(end) }, NOW)).toBe(expected);
  });
});

const VALID = {
  text: '  Who scored in the 2014 final?  ',
  options: ['Götze', ' Messi ', 'Müller'],
  correctOption: 0,
  points: 2,
  startsAt: at(-5),
  endsAt: at(60),
};
const refusedField = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('BAD_USER_INPUT');
    return (err as DomainError).extensions.argumentName;
  }
  return 'accepted';
};

describe('triviaQuestionData', () => {
  it('trims text and options, defaults points to 1', () => {
    expect(triviaQuestionData({ ...VALID, points: undefined }, null, NOW)).toEqual({
      ...VALID,
      text: 'Who scored in the 2014 final?',
      options: ['Götze', 'Messi', 'Müller'],
      points: 1,
    });
  });

  it.each<[string, TriviaQuestionInput, string]>([
    ['no text', { text: null }, 'text'],
    ['blank text', { text: ' \n ' }, 'text'],
    ['text too long', { text: 'x'.repeat(501) }, 'text'],
    ['no options', { options: null }, 'options'],
    ['one option', { options: ['Alone'] }, 'options'],
    ['eleven options', { options: Array.from({ length: 11 }, (_, i) => `${i}`) }, 'options'],
    ['a blank option', { options: ['A', '  ', 'C'] }, 'options'],
    ['an option too long', { options: ['A', 'b'.repeat(201)] }, 'options'],
    ['twins, case aside', { options: ['Messi', 'messi '] }, 'options'],
    ['no right option', { correctOption: null }, 'correctOption'],
    ['right option past the end', { correctOption: 3 }, 'correctOption'],
    ['negative right option', { correctOption: -1 }, 'correctOption'],
    ['fractional right option', { correctOption: 0.5 }, 'correctOption'],
    ['negative points', { points: -1 }, 'points'],
    ['too many points', { points: 1001 }, 'points'],
    ['no start', { startsAt: null }, 'startsAt'],
    ['no end', { endsAt: null }, 'endsAt'],
    ['an end before the start', { startsAt: at(10), endsAt: at(5) }, 'endsAt'],
    ['an empty window', { startsAt: at(10), endsAt: at(10) }, 'endsAt'],
    ['an end in the past', { startsAt: at(-10), endsAt: at(-1) }, 'endsAt'],
    ['a start before 2000', { startsAt: new Date('1999-12-31T23:59:59.000Z') }, 'startsAt'],
    ['an end past 9999', { endsAt: new Date('+010000-01-01T00:00:00.000Z') }, 'endsAt'],
  ])('refuses %s', (_name, over, field) => {
    expect(refusedField(() => triviaQuestionData({ ...VALID, ...over }, null, NOW))).toBe(field);
  });

  it('on update, checks what is given against what is stored', () => {
    const stored = triviaQuestionData(VALID, null, NOW);
    expect(triviaQuestionData({ points: 0 }, stored, NOW)).toEqual({ ...stored, points: 0 });
    expect(refusedField(() => triviaQuestionData({ options: ['A', 'B'] }, { ...stored, correctOption: 2 }, NOW))).toBe(
      'correctOption',
    );
    expect(refusedField(() => triviaQuestionData({ startsAt: at(120) }, stored, NOW))).toBe('endsAt');
    expect(triviaQuestionData({ text: null, options: null }, stored, NOW)).toEqual(stored);
  });
});

describe('gradeTriviaAnswer', () => {
  const q = { options: ['A', 'B', 'C'], correctOption: 2, points: 5 };
  it.each([
    [2, { isCorrect: true, points: 5 }],
    [0, { isCorrect: false, points: 0 }],
    [1, { isCorrect: false, points: 0 }],
  ])('option %i grades %o', (option, expected) => {
    expect(gradeTriviaAnswer(q, option)).toEqual(expected);
  });
  it.each([-1, 3, 1.5])('option %d is not one of the options', (option) => {
    expect(refusedField(() => gradeTriviaAnswer(q, option))).toBe('option');
  });
});

describe('the trivia ranking order', () => {
  it.each([
    ['HITS', 'HITS'],
    ['POINTS', 'POINTS'],
    ['ROUND_WINS', 'HITS'],
  ] as const)('%s ranks as %s', (rule, as) => expect(triviaTieRule(rule)).toBe(as));

  const field: TriviaStanding[] = [
    { userId: 1, name: 'Dan', points: 5, correctAnswers: 2 },
    { userId: 2, name: 'Ann', points: 5, correctAnswers: 3 },
    { userId: 3, name: 'Cid', points: 3, correctAnswers: 1 },
    { userId: 4, name: 'Bob', points: 3, correctAnswers: 1 },
    { userId: 5, name: 'Eve', points: 0, correctAnswers: 1 },
    { userId: 6, name: 'Fay', points: 0, correctAnswers: 0 },
  ];
  it.each([
    ['HITS', 'Ann 1, Dan 2, Bob 3, Cid 3, Eve 5, Fay 6'],
    ['ROUND_WINS', 'Ann 1, Dan 2, Bob 3, Cid 3, Eve 5, Fay 6'],
    ['POINTS', 'Ann 1, Dan 1, Bob 3, Cid 3, Eve 5, Fay 5'],
  ] as const)('under %s: %s', (rule, expected) => {
    expect(
      rankTrivia(field, rule)
        .map((r) => `${r.name} ${r.position}`)
        .join(', '),
    ).toBe(expected);
  });
});
