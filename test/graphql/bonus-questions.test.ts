// Bonus questions through the API: admins ask, players answer once before closing, the right answers score
// every answer and the general ranking at once, and the company's switch turns the game off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let t: Record<'player' | 'player2' | 'admin' | 'globexAdmin', string>;
beforeAll(async () => {
  s = await startTestServer();
  t = await s.loginAll(['player', 'player2', 'admin', 'globexAdmin']);
});
afterAll(() => s.close());

const FIELDS = 'id kind text options points closesAt correctAnswers myAnswer { value points }';
const CREATE = `mutation($i: CreateBonusQuestionInput!) { createBonusQuestion(input: $i) { ${FIELDS} } }`;
const LIST = `query($t: Int!) { bonusQuestions(tournamentId: $t) { ${FIELDS} } }`;
const ANSWER = `mutation($id: Int!, $a: String!) { answerBonusQuestion(id: $id, answer: $a) { ${FIELDS} } }`;
const SET = `mutation($id: Int!, $c: [String!]!) {
  setBonusQuestionAnswers(id: $id, correctAnswers: $c) { ${FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $i: UpdateBonusQuestionInput!) { updateBonusQuestion(id: $id, input: $i) { id } }`;
const DELETE = `mutation($id: Int!) { deleteBonusQuestion(id: $id) }`;
const ME = `query($t: Int!) { ranking(tournamentId: $t) { me { points } } }`;
const errorOf = (r: { errors?: Array<{ extensions: Record<string, unknown> }> }) =>
  r.errors?.[0] && { code: r.errors[0].extensions.code, argument: r.errors[0].extensions.argumentName };
const myPoints = async (token: string) =>
  (await s.gql(ME, { t: s.demo.tournament }, bearer(token))).data.ranking.me.points;

describe('bonus questions', () => {
  it('admins ask; bad questions name the argument; players do not ask', async () => {
    const tournamentId = s.demo.tournament;
    const inAYear = new Date(Date.now() + 365 * 86400e3).toISOString();
    for (const [input, argument] of [
      [{ kind: 'CHOICE', text: 'Best goal?', points: 3, closesAt: inAYear }, 'options'],
      [{ kind: 'NUMBER', text: 'Goals?', points: 3, closesAt: new Date(Date.now() - 1000).toISOString() }, 'closesAt'],
      [{ kind: 'NUMBER', text: 'Goals?', points: 1001, closesAt: inAYear }, 'points'],
    ] as const) {
      const r = await s.gql(CREATE, { i: { tournamentId, ...input } }, bearer(t.admin));
      expect(errorOf(r), JSON.stringify(input)).toEqual({ code: 'BAD_USER_INPUT', argument });
    }
    const i = { tournamentId, kind: 'NUMBER', text: 'Goals?', points: 3, closesAt: inAYear };
    expect(errorOf(await s.gql(CREATE, { i }, bearer(t.player)))?.code).toBe('FORBIDDEN');
    // Globex plays the cup too: its question is its own, and Demo Corp's people never see it.
    const globex = await s.gql(CREATE, { i: { ...i, text: 'Globex asks' } }, bearer(t.globexAdmin));
    expect(globex.errors).toBeUndefined();
    const seen = (await s.gql(LIST, { t: tournamentId }, bearer(t.player))).data.bonusQuestions;
    expect(seen.map((q: { text: string }) => q.text)).not.toContain('Globex asks');
    expect(
      errorOf(await s.gql(ANSWER, { id: globex.data.createBonusQuestion.id, a: '1' }, bearer(t.player)))?.code,
    ).toBe('NOT_FOUND');
  });

  it('players answer once before it closes; the right answer scores everyone and the ranking at once', async () => {
    const tournamentId = s.demo.tournament;
    const final = await s.t.db.prisma.match.findUniqueOrThrow({ where: { id: s.demo.matches.final } });
    const created = await s.gql(
      CREATE,
      {
        i: {
          tournamentId,
          kind: 'CHAMPION',
          text: 'Who lifts the cup?',
          points: 10,
          closesAt: new Date(final.date.getTime() + 86400e3).toISOString(),
        },
      },
      bearer(t.admin),
    );
    expect(created.errors).toBeUndefined();
    const question = created.data.createBonusQuestion;
    // A champion question closes at the final's kickoff, not later.
    expect(question.closesAt).toBe(final.date.toISOString());

    const [argentina, france] = [s.demo.teams.Argentina, s.demo.teams.France];
    expect(errorOf(await s.gql(ANSWER, { id: question.id, a: 'Narnia' }, bearer(t.player)))).toEqual({
      code: 'BAD_USER_INPUT',
      argument: 'answer',
    });
    const mine = await s.gql(ANSWER, { id: question.id, a: String(argentina) }, bearer(t.player));
    expect(mine.data.answerBonusQuestion.myAnswer).toEqual({ value: String(argentina), points: null });
    expect(errorOf(await s.gql(ANSWER, { id: question.id, a: String(france) }, bearer(t.player)))?.code).toBe(
      'CONFLICT',
    );
    expect((await s.gql(ANSWER, { id: question.id, a: String(france) }, bearer(t.player2))).errors).toBeUndefined();
    expect(errorOf(await s.gql(UPDATE, { id: question.id, i: { points: 20 } }, bearer(t.admin)))?.code).toBe(
      'CONFLICT',
    );
    // Its answer is set after it closes.
    expect(errorOf(await s.gql(SET, { id: question.id, c: [String(argentina)] }, bearer(t.admin)))?.code).toBe(
      'CONFLICT',
    );

    const before = [await myPoints(t.player), await myPoints(t.player2)];
    await s.kickOff(final.id);
    expect(errorOf(await s.gql(ANSWER, { id: question.id, a: String(argentina) }, bearer(t.admin)))?.code).toBe(
      'FORBIDDEN',
    );
    const set = await s.gql(SET, { id: question.id, c: [String(argentina)] }, bearer(t.admin));
    expect(set.errors).toBeUndefined();
    expect(set.data.setBonusQuestionAnswers.correctAnswers).toEqual([String(argentina)]);
    expect([await myPoints(t.player), await myPoints(t.player2)]).toEqual([before[0] + 10, before[1]]);
    const listed = (await s.gql(LIST, { t: tournamentId }, bearer(t.player2))).data.bonusQuestions;
    expect(listed.find((q: { id: number }) => q.id === question.id).myAnswer).toEqual({
      value: String(france),
      points: 0,
    });

    // A correction moves the points; deleting the question takes them out of the ranking.
    await s.gql(SET, { id: question.id, c: [String(france)] }, bearer(t.admin));
    expect([await myPoints(t.player), await myPoints(t.player2)]).toEqual([before[0], before[1] + 10]);
    expect((await s.gql(DELETE, { id: question.id }, bearer(t.admin))).data.deleteBonusQuestion).toBe(true);
    expect([await myPoints(t.player), await myPoints(t.player2)]).toEqual(before);
    // Another company's admin reaches none of it.
    expect(errorOf(await s.gql(DELETE, { id: question.id }, bearer(t.globexAdmin)))?.code).toBe('NOT_FOUND');
  });

  it('where disableExtraPredictions is on, nothing is asked or answered', async () => {
    const p = s.t.db.prisma;
    const demo = s.demo.companies.DEMO;
    const q = await p.bonusQuestion.create({
      data: {
        companyId: demo,
        tournamentId: s.demo.tournament,
        kind: 'NUMBER',
        text: 'Goals in the cup?',
        options: [],
        points: 2,
        closesAt: new Date(Date.now() + 86400e3),
      },
    });
    await p.company.update({ where: { id: demo }, data: { disableExtraPredictions: true } });
    try {
      expect((await s.gql(LIST, { t: s.demo.tournament }, bearer(t.player))).data.bonusQuestions).toEqual([]);
      expect(errorOf(await s.gql(ANSWER, { id: q.id, a: '40' }, bearer(t.player)))?.code).toBe('FORBIDDEN');
      const i = { tournamentId: s.demo.tournament, kind: 'NUMBER', text: 'Goals?', points: 3, closesAt: q.closesAt };
      expect(errorOf(await s.gql(CREATE, { i }, bearer(t.admin)))?.code).toBe('FORBIDDEN');
    } finally {
      await p.company.update({ where: { id: demo }, data: { disableExtraPredictions: false } });
    }
    const answered = await s.gql(ANSWER, { id: q.id, a: '040' }, bearer(t.player));
    expect(answered.data.answerBonusQuestion.myAnswer).toEqual({ value: '40', points: null });
  });
});
