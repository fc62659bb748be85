// Bonus questions (src/app/bonus-questions.ts) called on a request scope, without HTTP: admins ask and settle them
// in their own company, players answer once before they close, and the settled points move the ranking at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerBonusQuestion,
  bonusQuestions,
  createBonusQuestion,
  deleteBonusQuestion,
  setBonusAnswers,
  updateBonusQuestion,
} from '../../src/app/bonus-questions.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

const DAY = 86_400_000;
let database: AppTestDatabase;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

/** A CHOICE question of Demo Corp about the demo cup, closing in `days`. */
async function choiceQuestion(days = 2, text = 'Which half has more goals?') {
  return createBonusQuestion(await testScope(database, 'admin'), {
    tournamentId: database.demo.tournament,
    kind: 'CHOICE',
    text,
    options: ['First', 'Second', 'Same'],
    points: 7,
    closesAt: new Date(Date.now() + days * DAY),
  });
}

const standing = (email: `player${number}@demo.test`) =>
  database.db.prisma.tournamentStanding.findUniqueOrThrow({
    where: { tournamentId_userId: { tournamentId: database.demo.tournament, userId: database.demo.users[email] } },
  });

describe('createBonusQuestion', () => {
  it("an admin asks it in the company the request acts on; players and the anonymous can't", async () => {
    const q = await choiceQuestion(2, 'Asked by the admin?');
    const row = await database.db.prisma.bonusQuestion.findUniqueOrThrow({ where: { id: q.id } });
    expect(row).toMatchObject({ companyId: database.demo.companies.DEMO, kind: 'CHOICE', points: 7 });
    expect(row.options).toEqual(['First', 'Second', 'Same']);
    const input = { tournamentId: database.demo.tournament, kind: 'NUMBER' as const, text: 'How many goals?' };
    const asked = { ...input, points: 3, closesAt: new Date(Date.now() + DAY) };
    await expect(createBonusQuestion(await testScope(database, 'player'), asked)).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    await expect(createBonusQuestion(await testScope(database, null), asked)).rejects.toMatchObject(
      code('UNAUTHENTICATED'),
    );
    expect(await database.db.prisma.bonusQuestion.count({ where: { text: 'How many goals?' } })).toBe(0);
  });

  it('names the bad argument, and stores nothing', async () => {
    const admin = await testScope(database, 'admin');
    const good = {
      tournamentId: database.demo.tournament,
      kind: 'CHOICE' as const,
      text: 'A bad question',
      options: ['A', 'B'],
      points: 5,
      closesAt: new Date(Date.now() + DAY),
    };
    const cases: Array<[object, string]> = [
      [{ text: 'ab' }, 'text'],
      [{ options: ['A'] }, 'options'],
      [{ options: ['A', 'a'] }, 'options'],
      [{ points: -1 }, 'points'],
      [{ closesAt: new Date(Date.now() - 1000) }, 'closesAt'],
      [{ kind: 'NUMBER' }, 'options'],
    ];
    for (const [change, argument] of cases)
      await expect(createBonusQuestion(admin, { ...good, ...change })).rejects.toMatchObject(
        field('BAD_USER_INPUT', argument),
      );
    expect(await database.db.prisma.bonusQuestion.count({ where: { text: 'A bad question' } })).toBe(0);
  });

  it('a tournament the company does not play is NOT_FOUND; a company without them is FORBIDDEN', async () => {
    const prisma = database.db.prisma;
    const world = await prisma.country.findFirstOrThrow({ where: { name: 'World' } });
    const globexCup = await prisma.tournament.create({
      data: { name: 'Globex Cup', countryId: world.id, ownerCompanyId: database.demo.companies.GLOBEX },
    });
    const input = { kind: 'NUMBER' as const, text: 'Off limits?', points: 3, closesAt: new Date(Date.now() + DAY) };
    await expect(
      createBonusQuestion(await testScope(database, 'admin'), { ...input, tournamentId: globexCup.id }),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    await prisma.company.update({
      where: { id: database.demo.companies.GLOBEX },
      data: { disableExtraPredictions: true },
    });
    try {
      await expect(
        createBonusQuestion(await testScope(database, 'globexAdmin'), {
          ...input,
          tournamentId: database.demo.tournament,
        }),
      ).rejects.toMatchObject(code('FORBIDDEN'));
    } finally {
      await prisma.company.update({
        where: { id: database.demo.companies.GLOBEX },
        data: { disableExtraPredictions: false },
      });
    }
    expect(await prisma.bonusQuestion.count({ where: { text: 'Off limits?' } })).toBe(0);
  });
});

describe('answerBonusQuestion', () => {
  it('a player answers once, before it closes; the answer is kept in canonical form', async () => {
    const q = await choiceQuestion();
    const player = await testScope(database, 'player');
    const answered = await answerBonusQuestion(player, q.id, ' 1 ');
    expect(answered.myAnswer).toEqual({ value: '1', points: null });
    await expect(answerBonusQuestion(await testScope(database, 'player'), q.id, '2')).rejects.toMatchObject(
      code('CONFLICT'),
    );
    const rows = await database.db.prisma.bonusAnswer.findMany({ where: { questionId: q.id } });
    expect(rows.map((a) => [a.userId, a.value])).toEqual([[database.demo.users['player1@demo.test'], '1']]);
  });

  it('refuses a bad answer, a closed question, and a question of another company', async () => {
    const q = await choiceQuestion();
    await expect(answerBonusQuestion(await testScope(database, 'player2'), q.id, '3')).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'answer'),
    );
    const late = await testScope(database, 'player2', { now: new Date(Date.now() + 3 * DAY) });
    await expect(answerBonusQuestion(late, q.id, '0')).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(answerBonusQuestion(await testScope(database, 'globexPlayer'), q.id, '0')).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    // A reseller acting on Demo Corp does not play there.
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    await expect(answerBonusQuestion(reseller, q.id, '0')).rejects.toMatchObject(code('FORBIDDEN'));
    expect(await database.db.prisma.bonusAnswer.count({ where: { questionId: q.id } })).toBe(0);
  });
});

describe('updateBonusQuestion', () => {
  it('changes a question nobody answered; once answered it is a CONFLICT; another company’s is NOT_FOUND', async () => {
    const q = await choiceQuestion();
    const admin = await testScope(database, 'admin');
    await updateBonusQuestion(admin, q.id, { text: 'Which half scores more?', points: 9 });
    expect(await database.db.prisma.bonusQuestion.findUniqueOrThrow({ where: { id: q.id } })).toMatchObject({
      text: 'Which half scores more?',
      points: 9,
    });
    await expect(updateBonusQuestion(admin, q.id, { options: ['Only one'] })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'options'),
    );
    await expect(
      updateBonusQuestion(await testScope(database, 'globexAdmin'), q.id, { text: 'Hijacked' }),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    await answerBonusQuestion(await testScope(database, 'player'), q.id, '0');
    await expect(updateBonusQuestion(admin, q.id, { points: 100 })).rejects.toMatchObject(code('CONFLICT'));
    expect(await database.db.prisma.bonusQuestion.findUniqueOrThrow({ where: { id: q.id } })).toMatchObject({
      text: 'Which half scores more?',
      points: 9,
    });
  });
});

describe('setBonusAnswers and deleteBonusQuestion', () => {
  it('settles the answers once closed: points are stored and the ranking moves in the same step', async () => {
    const q = await choiceQuestion(1);
    await answerBonusQuestion(await testScope(database, 'player'), q.id, '0');
    await answerBonusQuestion(await testScope(database, 'player2'), q.id, '2');
    const admin = await testScope(database, 'admin');
    await expect(setBonusAnswers(admin, q.id, ['0'])).rejects.toMatchObject(code('CONFLICT'));

    const before = [await standing('player1@demo.test'), await standing('player2@demo.test')];
    const closed = await testScope(database, 'admin', { now: new Date(Date.now() + 2 * DAY) });
    await expect(setBonusAnswers(closed, q.id, ['7'])).rejects.toMatchObject(field('BAD_USER_INPUT', 'correctAnswers'));
    const globex = await testScope(database, 'globexAdmin', { now: new Date(Date.now() + 2 * DAY) });
    await expect(setBonusAnswers(globex, q.id, ['0'])).rejects.toMatchObject(code('NOT_FOUND'));
    expect(
      (await database.db.prisma.bonusQuestion.findUniqueOrThrow({ where: { id: q.id } })).correctAnswers,
    ).toBeNull();

    const published = database.published.length;
    await setBonusAnswers(closed, q.id, ['0']);
    const answers = await database.db.prisma.bonusAnswer.findMany({
      where: { questionId: q.id },
      orderBy: { id: 'asc' },
    });
    expect(answers.map((a) => a.points)).toEqual([7, 0]);
    const after = [await standing('player1@demo.test'), await standing('player2@demo.test')];
    expect(after[0].points).toBeCloseTo(before[0].points + 7);
    expect(after[1].points).toBeCloseTo(before[1].points);
    expect(database.published.slice(published)).toEqual([
      { kind: 'ranking', tournamentId: database.demo.tournament, companyId: database.demo.companies.DEMO },
    ]);

    // Deleting it takes its points out of the ranking with it.
    await expect(deleteBonusQuestion(await testScope(database, 'globexAdmin'), q.id)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(deleteBonusQuestion(await testScope(database, 'player'), q.id)).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    await deleteBonusQuestion(admin, q.id);
    expect(await database.db.prisma.bonusQuestion.findUnique({ where: { id: q.id } })).toBeNull();
    expect(await database.db.prisma.bonusAnswer.count({ where: { questionId: q.id } })).toBe(0);
    expect((await standing('player1@demo.test')).points).toBeCloseTo(before[0].points);
    expect(database.published.at(-1)).toEqual({
      kind: 'ranking',
      tournamentId: database.demo.tournament,
      companyId: database.demo.companies.DEMO,
    });
  });
});

describe('bonusQuestions', () => {
  it("lists the company's questions with the caller's own answer, never another company's", async () => {
    const q = await choiceQuestion(2, 'Listed with my answer?');
    await answerBonusQuestion(await testScope(database, 'player2'), q.id, '2');
    const mine = await bonusQuestions(await testScope(database, 'player2'), database.demo.tournament);
    expect(mine.find((x) => x.id === q.id)?.myAnswer).toEqual({ value: '2', points: null });
    const theirs = await bonusQuestions(await testScope(database, 'player'), database.demo.tournament);
    expect(theirs.find((x) => x.id === q.id)?.myAnswer).toBeNull();
    const globex = await bonusQuestions(await testScope(database, 'globexPlayer'), database.demo.tournament);
    expect(globex.map((x) => x.id)).not.toContain(q.id);
    await expect(bonusQuestions(await testScope(database, null), database.demo.tournament)).rejects.toMatchObject(
      code('UNAUTHENTICATED'),
    );
  });
});
