// Trivia (src/app/trivia.ts) called on a request scope, without HTTP: where it is purchased, the company's admins
// publish questions with a time window, its players answer once inside it, and the right answers show (and score)
// only once the window has ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerTrivia,
  createTriviaQuestion,
  deleteTriviaQuestion,
  myTriviaAnswer,
  triviaQuestions,
  triviaRanking,
  updateTriviaQuestion,
} from '../../src/app/trivia.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

const HOUR = 3600_000;
let database: AppTestDatabase;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

beforeAll(async () => {
  database = await appTestDatabase();
  // Demo Corp and Globex buy trivia; Channel Partners does not.
  await database.db.prisma.company.updateMany({
    where: { id: { in: [database.demo.companies.DEMO, database.demo.companies.GLOBEX] } },
    data: { purchasedGames: { prode: true, trivia: true } },
  });
});
afterAll(() => database.drop());

/** A Demo Corp question, right option 1, whose window opens `startsIn` from now and lasts two hours. */
async function question(startsIn: number, text = 'Who won in 1986?') {
  const startsAt = new Date(Date.now() + startsIn);
  return createTriviaQuestion(await testScope(database, 'admin'), {
    text,
    options: ['Germany', 'Argentina', 'Brazil'],
    correctOption: 1,
    points: 3,
    startsAt,
    endsAt: new Date(startsAt.getTime() + 2 * HOUR),
  });
}

const answers = (questionId: number) =>
  database.db.prisma.triviaAnswer.count({ where: { questionId } }).then(async (n) => ({
    answers: n,
    solutions: await database.db.prisma.triviaSolution.count({ where: { questionId } }),
  }));

describe('createTriviaQuestion', () => {
  it('an admin publishes one in a company that purchased trivia; nobody else does', async () => {
    const q = await question(HOUR, 'Published by the admin?');
    expect(await database.db.prisma.triviaQuestion.findUniqueOrThrow({ where: { id: q.id } })).toMatchObject({
      companyId: database.demo.companies.DEMO,
      correctOption: 1,
      points: 3,
    });
    const input = {
      text: 'Refused?',
      options: ['A', 'B'],
      correctOption: 0,
      startsAt: new Date(Date.now() + HOUR),
      endsAt: new Date(Date.now() + 2 * HOUR),
    };
    await expect(createTriviaQuestion(await testScope(database, 'player'), input)).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    await expect(createTriviaQuestion(await testScope(database, null), input)).rejects.toMatchObject(
      code('UNAUTHENTICATED'),
    );
    // Channel Partners has not purchased trivia: its own reseller may not publish there.
    await expect(createTriviaQuestion(await testScope(database, 'reseller'), input)).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    expect(await database.db.prisma.triviaQuestion.count({ where: { text: 'Refused?' } })).toBe(0);
  });

  it('names the bad argument, and stores nothing', async () => {
    const admin = await testScope(database, 'admin');
    const good = {
      text: 'A bad question',
      options: ['A', 'B'],
      correctOption: 0,
      startsAt: new Date(Date.now() + HOUR),
      endsAt: new Date(Date.now() + 2 * HOUR),
    };
    const cases: Array<[object, string]> = [
      [{ text: null }, 'text'],
      [{ options: ['A'] }, 'options'],
      [{ options: ['A', 'a'] }, 'options'],
      [{ correctOption: 2 }, 'correctOption'],
      [{ points: 1001 }, 'points'],
      [{ endsAt: new Date(Date.now() + HOUR / 2) }, 'endsAt'],
      [{ startsAt: new Date(Date.now() - 2 * HOUR), endsAt: new Date(Date.now() - HOUR) }, 'endsAt'],
    ];
    for (const [change, argument] of cases)
      await expect(createTriviaQuestion(admin, { ...good, ...change })).rejects.toMatchObject(
        field('BAD_USER_INPUT', argument),
      );
    expect(await database.db.prisma.triviaQuestion.count({ where: { text: 'A bad question' } })).toBe(0);
  });
});

describe('answerTrivia', () => {
  it('a player answers once inside the window; the grade is stored but shown only once the window ends', async () => {
    const q = await question(-HOUR);
    const player = await testScope(database, 'player');
    const shown = await answerTrivia(player, q.id, 1);
    expect(shown.correctOption).toBeNull();
    const solution = await database.db.prisma.triviaSolution.findFirstOrThrow({ where: { questionId: q.id } });
    expect(solution).toMatchObject({ userId: database.demo.users['player1@demo.test'], isCorrect: true, points: 3 });
    await expect(answerTrivia(await testScope(database, 'player'), q.id, 0)).rejects.toMatchObject(
      field('CONFLICT', 'questionId'),
    );
    expect(await answers(q.id)).toEqual({ answers: 1, solutions: 1 });

    const open = (await triviaQuestions(await testScope(database, 'player'), {})).find((x) => x.id === q.id)!;
    expect(await myTriviaAnswer(await testScope(database, 'player'), open)).toMatchObject({
      option: 1,
      isCorrect: null,
      points: null,
    });
    const later = await testScope(database, 'player', { now: new Date(Date.now() + 2 * HOUR) });
    const ended = (await triviaQuestions(later, {})).find((x) => x.id === q.id)!;
    expect(ended).toMatchObject({ window: 'CLOSED', correctOption: 1 });
    expect(await myTriviaAnswer(later, ended)).toMatchObject({ option: 1, isCorrect: true, points: 3 });
  });

  it('refuses outside the window, a bad option, an admin, and another company’s player', async () => {
    const upcoming = await question(HOUR);
    const open = await question(-HOUR);
    const player = await testScope(database, 'player2');
    await expect(answerTrivia(player, upcoming.id, 1)).rejects.toMatchObject(code('FORBIDDEN'));
    const late = await testScope(database, 'player2', { now: new Date(Date.now() + 2 * HOUR) });
    await expect(answerTrivia(late, open.id, 1)).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(answerTrivia(player, open.id, 3)).rejects.toMatchObject(field('BAD_USER_INPUT', 'option'));
    await expect(answerTrivia(await testScope(database, 'admin'), open.id, 1)).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(answerTrivia(await testScope(database, 'globexPlayer'), open.id, 1)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    expect(await answers(open.id)).toEqual({ answers: 0, solutions: 0 });
    expect(await answers(upcoming.id)).toEqual({ answers: 0, solutions: 0 });
  });
});

describe('triviaQuestions', () => {
  it('players see the started questions without the right option; admins see all of them with it', async () => {
    const upcoming = await question(HOUR, 'Not started yet?');
    const open = await question(-HOUR, 'Open now?');
    const seen = await triviaQuestions(await testScope(database, 'player'), {});
    expect(seen.map((x) => x.id)).toContain(open.id);
    expect(seen.map((x) => x.id)).not.toContain(upcoming.id);
    expect(seen.find((x) => x.id === open.id)).toMatchObject({ window: 'OPEN', correctOption: null });
    const managed = await triviaQuestions(await testScope(database, 'admin'), {});
    expect(managed.find((x) => x.id === upcoming.id)).toMatchObject({ window: 'UPCOMING', correctOption: 1 });
    const globex = await triviaQuestions(await testScope(database, 'globexAdmin'), {});
    expect(globex.map((x) => x.id)).not.toContain(open.id);
  });

  it('where trivia is switched off, players are refused and admins still prepare', async () => {
    const globex = database.demo.companies.GLOBEX;
    await database.db.prisma.company.update({ where: { id: globex }, data: { disableTrivias: true } });
    try {
      await expect(triviaQuestions(await testScope(database, 'globexPlayer'), {})).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
      await expect(triviaRanking(await testScope(database, 'globexPlayer'), {})).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
      expect(await triviaQuestions(await testScope(database, 'globexAdmin'), {})).toEqual([]);
    } finally {
      await database.db.prisma.company.update({ where: { id: globex }, data: { disableTrivias: false } });
    }
  });
});

describe('updateTriviaQuestion and deleteTriviaQuestion', () => {
  it('a question changes only before its window starts, and only in its own company', async () => {
    const upcoming = await question(HOUR);
    const admin = await testScope(database, 'admin');
    await updateTriviaQuestion(admin, upcoming.id, { text: 'Who won in 1978?', points: 5 });
    expect(await database.db.prisma.triviaQuestion.findUniqueOrThrow({ where: { id: upcoming.id } })).toMatchObject({
      text: 'Who won in 1978?',
      points: 5,
      correctOption: 1,
    });
    await expect(updateTriviaQuestion(admin, upcoming.id, { correctOption: 3 })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'correctOption'),
    );
    await expect(
      updateTriviaQuestion(await testScope(database, 'globexAdmin'), upcoming.id, { text: 'Hijacked' }),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    const open = await question(-HOUR, 'Started already?');
    await expect(updateTriviaQuestion(admin, open.id, { correctOption: 0 })).rejects.toMatchObject(code('CONFLICT'));
    expect((await database.db.prisma.triviaQuestion.findUniqueOrThrow({ where: { id: open.id } })).correctOption).toBe(
      1,
    );
    expect((await database.db.prisma.triviaQuestion.findUniqueOrThrow({ where: { id: upcoming.id } })).text).toBe(
      'Who won in 1978?',
    );
  });

  it('a question is deleted with its answers, by its own company’s admins only', async () => {
    const open = await question(-HOUR);
    await answerTrivia(await testScope(database, 'player2'), open.id, 0);
    await expect(deleteTriviaQuestion(await testScope(database, 'globexAdmin'), open.id)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(deleteTriviaQuestion(await testScope(database, 'player'), open.id)).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    expect(await answers(open.id)).toEqual({ answers: 1, solutions: 1 });
    await deleteTriviaQuestion(await testScope(database, 'admin'), open.id);
    expect(await database.db.prisma.triviaQuestion.findUnique({ where: { id: open.id } })).toBeNull();
    expect(await answers(open.id)).toEqual({ answers: 0, solutions: 0 });
  });
});

describe('triviaRanking', () => {
  it('counts the points of ended windows only, within the company', async () => {
    // A Globex question and its answer, ranked while the window is open and after it ends.
    const globex = await testScope(database, 'globexAdmin');
    const startsAt = new Date(Date.now() - HOUR);
    const q = await createTriviaQuestion(globex, {
      text: 'Globex only?',
      options: ['Yes', 'No'],
      correctOption: 0,
      points: 4,
      startsAt,
      endsAt: new Date(Date.now() + HOUR),
    });
    await answerTrivia(await testScope(database, 'globexPlayer'), q.id, 0);
    const me = database.demo.users['player1@globex.test'];
    const during = await triviaRanking(await testScope(database, 'globexPlayer'), {});
    expect(during.me).toMatchObject({ userId: me, points: 0 });
    const after = await triviaRanking(
      await testScope(database, 'globexPlayer', { now: new Date(Date.now() + 2 * HOUR) }),
      {
        take: 50,
      },
    );
    expect(after.me).toMatchObject({ userId: me, points: 4, position: 1 });
    expect(after.entries[0]).toMatchObject({ userId: me, points: 4 });
    const userIds = new Set(after.entries.map((e) => e.userId));
    expect(userIds.has(database.demo.users['player1@demo.test'])).toBe(false);
  });
});
