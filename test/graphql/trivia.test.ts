// Trivia over real HTTP: refused where the company has not purchased it or switched it off; admins publish
// questions (validation errors name the argument), players answer once inside the window by the server clock;
// the right option, and whether an answer was right, stay hidden until the window ends; the trivia ranking
// (positions, ties under HITS, POINTS and ROUND_WINS, paging, me, who is ranked) equals a computation written
// here; another company's people reach none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
type Who = 'admin' | 'player' | 'reseller' | 'globexAdmin' | 'globexPlayer';
let tokens: Record<Who, string>;
/** Demo Corp's players 1..9 by number. */
const players: Record<number, string> = {};
beforeAll(async () => {
  // Full engine: one case asserts that a question's window end bounds a response-cache hit (an engine property).
  s = await startTestServer({ env: FULL_ENGINE });
  tokens = await s.loginAll(['admin', 'player', 'reseller', 'globexAdmin', 'globexPlayer']);
  players[1] = tokens.player;
  for (let i = 2; i <= 9; i++) players[i] = await s.login(`player${i}@demo.test`, 'demo');
}, 120_000);
afterAll(() => s?.close());

type Answer = { data: any; errors?: Array<{ message: string; extensions: { code: string; argumentName?: string } }> };
const code = (r: Answer) => r.errors?.[0]?.extensions.code;
const refusal = (r: Answer) =>
  r.errors?.[0] && { code: r.errors[0].extensions.code, field: r.errors[0].extensions.argumentName };
const as = (who: Who | string) => bearer(who in tokens ? tokens[who as Who] : who);

const QUESTION = 'id text options points startsAt endsAt window correctOption myAnswer { option isCorrect points }';
const CREATE = `mutation($i: TriviaQuestionInput!) { createTriviaQuestion(input: $i) { ${QUESTION} } }`;
const UPDATE = `mutation($id: Int!, $i: TriviaQuestionInput!) {
  updateTriviaQuestion(id: $id, input: $i) { ${QUESTION} } }`;
const DELETE = 'mutation($id: Int!) { deleteTriviaQuestion(id: $id) }';
const ANSWER = `mutation($q: Int!, $o: Int!) { answerTrivia(questionId: $q, option: $o) { ${QUESTION} } }`;
const LIST = `query($skip: Int, $take: Int) { triviaQuestions(skip: $skip, take: $take) { ${QUESTION} } }`;
const RANKING = `query($skip: Int, $take: Int) { triviaRanking(skip: $skip, take: $take) {
  total entries { position points correctAnswers user { id name profilePictureUrl } } me { position points
  correctAnswers } } }`;

const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
const question = (over: Record<string, unknown> = {}) => ({
  text: 'Who won the 1986 World Cup?',
  options: ['Brazil', 'Argentina', 'Germany', 'France'],
  correctOption: 1,
  points: 3,
  startsAt: minutes(-1),
  endsAt: minutes(60),
  ...over,
});
const create = async (over: Record<string, unknown> = {}) => {
  const r = await s.gql(CREATE, { i: question(over) }, as('admin'));
  expect(r.errors).toBeUndefined();
  return r.data.createTriviaQuestion as { id: number };
};
const answer = (who: string, q: number, o: number) => s.gql(ANSWER, { q, o }, as(who));
/** The referee's whistle for trivia: the window ended a second ago. */
const close = (...ids: number[]) =>
  s.t.db.prisma.triviaQuestion.updateMany({
    where: { id: { in: ids } },
    data: { startsAt: new Date(Date.now() - 3_600_000), endsAt: new Date(Date.now() - 1000) },
  });
const setCompany = (code: 'DEMO' | 'GLOBEX', input: Record<string, unknown>) =>
  s.gql(
    'mutation($id: Int!, $i: UpdateCompanyInput!) { updateCompany(companyId: $id, input: $i) { id } }',
    { id: s.demo.companies[code], i: input },
    as(input.purchasedGames ? 'reseller' : code === 'DEMO' ? 'admin' : 'globexAdmin'),
  );

describe('where trivia is played', () => {
  it('refuses every operation where the company has not purchased it, admins included', async () => {
    const refused = [
      await s.gql(LIST, {}, as('player')),
      await s.gql(LIST, {}, as('admin')),
      await s.gql(RANKING, {}, as('player')),
      await s.gql(CREATE, { i: question() }, as('admin')),
      await s.gql(DELETE, { id: 1 }, as('admin')),
      await answer('player', 1, 0),
    ];
    for (const r of refused) {
      expect(code(r)).toBe('FORBIDDEN');
      expect(r.errors![0].message).toMatch(/purchasedGames\.trivia/);
    }
    expect((await s.t.db.prisma.triviaQuestion.count()) + (await s.t.db.prisma.triviaAnswer.count())).toBe(0);
  });

  it('with disableTrivias, players are refused; admins still manage and rank', async () => {
    expect((await setCompany('DEMO', { purchasedGames: { prode: true, trivia: true } })).errors).toBeUndefined();
    expect((await setCompany('DEMO', { disableTrivias: true })).errors).toBeUndefined();
    const q = await create({ text: 'Prepared while off' });
    for (const r of [
      await s.gql(LIST, {}, as('player')),
      await s.gql(RANKING, {}, as('player')),
      await answer('player', q.id, 1),
      await answer('admin', q.id, 1),
    ]) {
      expect(code(r)).toBe('FORBIDDEN');
      expect(r.errors![0].message).toMatch(/disableTrivias/);
    }
    expect((await s.gql(LIST, {}, as('admin'))).data.triviaQuestions.map((x: any) => x.text)).toEqual([
      'Prepared while off',
    ]);
    expect((await s.gql(RANKING, {}, as('admin'))).data.triviaRanking.total).toBe(21);
    expect((await s.gql(DELETE, { id: q.id }, as('admin'))).data).toEqual({ deleteTriviaQuestion: true });
    expect((await setCompany('DEMO', { disableTrivias: false })).errors).toBeUndefined();
    expect((await s.gql(LIST, {}, as('player'))).data.triviaQuestions).toEqual([]);
  });
});

describe('publishing', () => {
  it('checks the question, naming the argument', async () => {
    const halfAnHour = minutes(30); // one instant: two calls a millisecond apart would make a window of 1 ms
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ text: '   ' }, 'text'],
      [{ text: 'x'.repeat(501) }, 'text'],
      [{ text: undefined }, 'text'],
      [{ options: ['Only one'], correctOption: 0 }, 'options'],
      [{ options: Array.from({ length: 11 }, (_, i) => `O${i}`), correctOption: 0 }, 'options'],
      [{ options: ['Yes', ' '], correctOption: 0 }, 'options'],
      [{ options: ['Yes', 'yes '], correctOption: 0 }, 'options'],
      [{ options: ['Yes', 'y'.repeat(201)], correctOption: 0 }, 'options'],
      [{ correctOption: 4 }, 'correctOption'],
      [{ correctOption: -1 }, 'correctOption'],
      [{ correctOption: undefined }, 'correctOption'],
      [{ points: -1 }, 'points'],
      [{ points: 1001 }, 'points'],
      [{ startsAt: halfAnHour, endsAt: halfAnHour }, 'endsAt'],
      [{ startsAt: minutes(-30), endsAt: minutes(-1) }, 'endsAt'],
      [{ startsAt: '1999-12-31T00:00:00.000Z' }, 'startsAt'],
      [{ startsAt: undefined }, 'startsAt'],
    ];
    for (const [over, field] of cases) {
      const r = await s.gql(CREATE, { i: question(over) }, as('admin'));
      expect(refusal(r), JSON.stringify(over).slice(0, 80)).toEqual({ code: 'BAD_USER_INPUT', field });
    }
    expect(await s.t.db.prisma.triviaQuestion.count()).toBe(0);
    const made = await s.gql(CREATE, { i: question({ points: undefined, options: [' Yes ', 'No'] }) }, as('admin'));
    expect(made.data.createTriviaQuestion).toMatchObject({ options: ['Yes', 'No'], points: 1, window: 'OPEN' });
    await s.gql(DELETE, { id: made.data.createTriviaQuestion.id }, as('admin'));
  });

  it('players create nothing; updates only before the window starts; deletes take the answers along', async () => {
    expect(code(await s.gql(CREATE, { i: question() }, as('player')))).toBe('FORBIDDEN');
    const later = await create({ startsAt: minutes(60), endsAt: minutes(120) });
    const changed = await s.gql(UPDATE, { id: later.id, i: { text: 'Changed', points: 7 } }, as('admin'));
    expect(changed.data.updateTriviaQuestion).toMatchObject({ text: 'Changed', points: 7, correctOption: 1 });
    // The stored right option and new options are checked together.
    expect((await s.gql(UPDATE, { id: later.id, i: { correctOption: 3 } }, as('admin'))).errors).toBeUndefined();
    expect(refusal(await s.gql(UPDATE, { id: later.id, i: { options: ['A', 'B', 'C'] } }, as('admin')))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'correctOption',
    });
    expect(code(await s.gql(UPDATE, { id: later.id, i: { text: 'x' } }, as('player')))).toBe('FORBIDDEN');
    const open = await create();
    expect((await answer('player', open.id, 2)).errors).toBeUndefined();
    const started = await s.gql(UPDATE, { id: open.id, i: { correctOption: 2 } }, as('admin'));
    expect(code(started)).toBe('CONFLICT');
    expect(code(await s.gql(UPDATE, { id: 999_999, i: { text: 'x' } }, as('admin')))).toBe('NOT_FOUND');
    expect((await s.gql(DELETE, { id: open.id }, as('admin'))).data).toEqual({ deleteTriviaQuestion: true });
    expect(await s.t.db.prisma.triviaAnswer.count({ where: { questionId: open.id } })).toBe(0);
    expect(await s.t.db.prisma.triviaSolution.count({ where: { questionId: open.id } })).toBe(0);
    await s.gql(DELETE, { id: later.id }, as('admin'));
  });

  it("another company's admin and players get NOT_FOUND; a reseller manages but does not play", async () => {
    await setCompany('GLOBEX', { purchasedGames: { prode: true, trivia: true } });
    const q = await create();
    expect(code(await s.gql(UPDATE, { id: q.id, i: { text: 'x' } }, as('globexAdmin')))).toBe('NOT_FOUND');
    expect(code(await s.gql(DELETE, { id: q.id }, as('globexAdmin')))).toBe('NOT_FOUND');
    expect(code(await answer('globexPlayer', q.id, 1))).toBe('NOT_FOUND');
    expect(code(await answer('globexAdmin', q.id, 1))).toBe('NOT_FOUND');
    expect((await s.gql(LIST, {}, as('globexAdmin'))).data.triviaQuestions).toEqual([]);
    expect((await s.gql(LIST, {}, as('globexPlayer'))).data.triviaQuestions).toEqual([]);
    const onDemo = { ...as('reseller'), 'x-app-company': 'DEMO' };
    expect((await s.gql(LIST, {}, onDemo)).data.triviaQuestions.map((x: any) => x.id)).toEqual([q.id]);
    expect(code(await s.gql(ANSWER, { q: q.id, o: 1 }, onDemo))).toBe('FORBIDDEN');
    expect(code(await s.gql(LIST, {}, { ...as('player'), 'x-app-company': 'GLOBEX' }))).toBe('FORBIDDEN');
    expect(await s.t.db.prisma.triviaAnswer.count()).toBe(0);
    await s.gql(DELETE, { id: q.id }, as('admin'));
  });
});

describe('playing and the ranking', () => {
  /** [question key, option] per person; q4 stays open (not counted), q5 has not started. */
  const ANSWERS: Record<string, Array<[string, number]>> = {
    p1: [
      ['q1', 1],
      ['q2', 0],
      ['q3', 1],
    ],
    p2: [
      ['q1', 1],
      ['q2', 0],
      ['q3', 0],
    ],
    p3: [
      ['q1', 1],
      ['q2', 2],
      ['q3', 1],
    ],
    p4: [
      ['q1', 0],
      ['q2', 0],
      ['q3', 1],
    ],
    p5: [
      ['q1', 1],
      ['q3', 0],
    ],
    p6: [
      ['q2', 0],
      ['q3', 1],
    ],
    p7: [['q3', 1]],
    p8: [
      ['q1', 3],
      ['q4', 0],
    ],
  };
  const SPEC = {
    q1: { options: ['Brazil', 'Argentina', 'Germany', 'France'], correctOption: 1, points: 3 },
    q2: { options: ['Pelé', 'Maradona', 'Cruyff'], correctOption: 0, points: 2 },
    q3: { options: ['True', 'False'], correctOption: 1, points: 0 },
    q4: { options: ['Yes', 'No'], correctOption: 0, points: 5 },
    q5: { options: ['Yes', 'No'], correctOption: 0, points: 5, startsAt: minutes(60), endsAt: minutes(120) },
  };
  const ids: Record<string, number> = {};
  const tokenOf = (who: string) => (who === 'admin' ? tokens.admin : players[Number(who.slice(1))]);
  let users: Array<{ id: number; name: string; role: string }>;

  type Row = { id: number; name: string; points: number; correctAnswers: number; position?: number };
  /** The ranking, computed here from ANSWERS: what the closed questions earned, ordered and numbered as RANK(). */
  function reference(tieRule: 'HITS' | 'POINTS' | 'ROUND_WINS', rankAdmins = true, rankNonPlayers = true): Row[] {
    const who = (u: { id: number }) => Object.keys(ANSWERS).find((k) => ids[k] === u.id);
    const rows: Row[] = users
      .filter((u) => rankAdmins || u.role === 'player')
      .filter((u) => rankNonPlayers || who(u) !== undefined)
      .map((u) => {
        const mine = (ANSWERS[who(u) ?? ''] ?? []).filter(([q]) => ['q1', 'q2', 'q3'].includes(q));
        const right = mine.filter(([q, o]) => SPEC[q as keyof typeof SPEC].correctOption === o);
        const points = right.reduce((sum, [q]) => sum + SPEC[q as keyof typeof SPEC].points, 0);
        return { id: u.id, name: u.name, points, correctAnswers: right.length };
      });
    const key = (r: Row) => (tieRule === 'POINTS' ? [r.points] : [r.points, r.correctAnswers]);
    rows.sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
      return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id;
    });
    rows.forEach((r, i) => {
      const prev = rows[i - 1];
      r.position = prev && key(prev).join() === key(r).join() ? prev.position : i + 1;
    });
    return rows;
  }
  const shown = (rows: Row[]) =>
    rows.map((r) => ({ position: r.position, points: r.points, correctAnswers: r.correctAnswers, id: r.id }));
  const page = (data: any) =>
    data.triviaRanking.entries.map((e: any) => ({
      position: e.position,
      points: e.points,
      correctAnswers: e.correctAnswers,
      id: e.user.id,
    }));

  beforeAll(async () => {
    users = await s.t.db.prisma.user.findMany({
      where: { companyId: s.demo.companies.DEMO, deletedAt: null },
      select: { id: true, name: true, role: true },
    });
    for (const [key, spec] of Object.entries(SPEC)) ids[key] = (await create({ text: `Question ${key}`, ...spec })).id;
    for (const who of [...Object.keys(ANSWERS), 'p9']) {
      ids[who] =
        who === 'admin' ? s.demo.users['admin@demo.test'] : s.demo.users[`player${Number(who.slice(1))}@demo.test`];
    }
  });

  it('answers once, inside the window, with an option of the question', async () => {
    for (const [who, list] of Object.entries(ANSWERS))
      for (const [q, o] of list) expect((await answer(tokenOf(who), ids[q], o)).errors, `${who} ${q}`).toBeUndefined();
    expect(code(await answer(tokenOf('p1'), ids.q1, 2))).toBe('CONFLICT');
    expect(code(await answer(tokenOf('p1'), ids.q5, 0))).toBe('FORBIDDEN'); // not open yet
    expect(refusal(await answer(tokenOf('p9'), ids.q1, 4))).toEqual({ code: 'BAD_USER_INPUT', field: 'option' });
    expect(refusal(await answer(tokenOf('p9'), ids.q1, -1))).toEqual({ code: 'BAD_USER_INPUT', field: 'option' });
    expect(code(await answer(tokenOf('p9'), 999_999, 0))).toBe('NOT_FOUND');
    expect(await s.t.db.prisma.triviaAnswer.count({ where: { userId: ids.p1, questionId: ids.q1 } })).toBe(1);
  });

  it('keeps the right option and every grade hidden until the window ends', async () => {
    const list = (await s.gql(LIST, {}, as(tokenOf('p1')))).data.triviaQuestions;
    expect(list.map((q: any) => q.text).sort()).toEqual(['Question q1', 'Question q2', 'Question q3', 'Question q4']);
    for (const q of list) expect(q).toMatchObject({ window: 'OPEN', correctOption: null });
    const q1 = list.find((q: any) => q.id === ids.q1);
    expect(q1.myAnswer).toEqual({ option: 1, isCorrect: null, points: null });
    const mine = await s.gql(
      '{ me { triviaAnswers { questionId option } triviaSolutions { questionId } } }',
      {},
      as(tokenOf('p1')),
    );
    expect(mine.data.me.triviaAnswers).toHaveLength(3);
    expect(mine.data.me.triviaSolutions).toEqual([]);
    // Admins see the right option of every question, the upcoming one too.
    const all = (await s.gql(LIST, {}, as('admin'))).data.triviaQuestions;
    expect(all).toHaveLength(5);
    expect(all[0]).toMatchObject({ id: ids.q5, window: 'UPCOMING', correctOption: 0 });
    // Nobody has earned anything in public yet: everyone shares the first place.
    const early = (await s.gql(RANKING, { take: 100 }, as(tokenOf('p1')))).data.triviaRanking;
    expect(early.total).toBe(21);
    expect(new Set(early.entries.map((e: any) => `${e.position}/${e.points}/${e.correctAnswers}`))).toEqual(
      new Set(['1/0/0']),
    );
  });

  it('admins, who see the right option, do not answer', async () => {
    const r = await answer(tokenOf('admin'), ids.q4, 0);
    expect(code(r)).toBe('FORBIDDEN');
    expect(r.errors![0].message).toMatch(/admins see the right answers/);
  });

  it('after the window: no more answers, the right option and grades show', async () => {
    await close(ids.q1, ids.q2, ids.q3);
    expect(code(await answer(tokenOf('p9'), ids.q1, 1))).toBe('FORBIDDEN');
    const list = (await s.gql(LIST, {}, as(tokenOf('p2')))).data.triviaQuestions;
    const byId = (id: number) => list.find((q: any) => q.id === id);
    expect(byId(ids.q1)).toMatchObject({
      window: 'CLOSED',
      correctOption: 1,
      myAnswer: { option: 1, isCorrect: true, points: 3 },
    });
    expect(byId(ids.q3)).toMatchObject({ correctOption: 1, myAnswer: { option: 0, isCorrect: false, points: 0 } });
    expect(byId(ids.q4)).toMatchObject({ window: 'OPEN', correctOption: null, myAnswer: null });
    const mine = await s.gql('{ me { triviaSolutions { questionId isCorrect points } } }', {}, as(tokenOf('p8')));
    expect(mine.data.me.triviaSolutions).toEqual([{ questionId: ids.q1, isCorrect: false, points: 0 }]);
  });

  const setRules = (input: Record<string, string | boolean>) =>
    s.t.db.prisma.company.findUniqueOrThrow({ where: { id: s.demo.companies.DEMO } }).then((c) =>
      s.t.db.prisma.company.update({
        where: { id: c.id },
        data: { scoringSettings: { ...(c.scoringSettings as Record<string, string | boolean>), ...input } },
      }),
    );

  it.each(['HITS', 'POINTS', 'ROUND_WINS'] as const)(
    'ranks as computed here under %s, page by page',
    async (tieRule) => {
      await setRules({ tieRule, rankAdmins: true, rankNonPlayers: true });
      const expected = reference(tieRule);
      const full = await s.gql(RANKING, { take: 100 }, as(tokenOf('p5')));
      expect(full.errors).toBeUndefined();
      expect(full.data.triviaRanking.total).toBe(21);
      expect(page(full.data)).toEqual(shown(expected));
      const me = expected.find((r) => r.id === ids.p5)!;
      expect(full.data.triviaRanking.me).toEqual({ position: me.position, points: 3, correctAnswers: 1 });
      for (const [skip, take] of [
        [0, 3],
        [3, 3],
        [5, 2],
        [7, 5],
        [19, 5],
      ]) {
        const r = await s.gql(RANKING, { skip, take }, as(tokenOf('p5')));
        expect(page(r.data), `skip ${skip} take ${take}`).toEqual(shown(expected.slice(skip, skip + take)));
      }
      const past = await s.gql(RANKING, { skip: 50, take: 5 }, as(tokenOf('p5')));
      expect(past.data.triviaRanking).toMatchObject({ total: 21, entries: [] });
    },
  );

  it('ties: HITS breaks equal points by right answers, POINTS does not', () => {
    const hits = reference('HITS');
    const points = reference('POINTS');
    const at = (rows: Row[], who: string) => rows.find((r) => r.id === ids[who])!.position!;
    expect([at(hits, 'p1'), at(hits, 'p2'), at(hits, 'p3'), at(hits, 'p5')]).toEqual([1, 2, 3, 4]);
    expect([at(points, 'p1'), at(points, 'p2'), at(points, 'p3'), at(points, 'p5')]).toEqual([1, 1, 3, 3]);
    // p4 and p6: two right answers for 2 points each, tied under both rules.
    expect(at(hits, 'p4')).toBe(at(hits, 'p6'));
    expect(at(points, 'p4')).toBe(at(points, 'p6'));
    expect(at(hits, 'p7')).toBeLessThan(at(hits, 'p9'));
    expect(at(points, 'p7')).toBe(at(points, 'p9'));
  });

  it('ranks only players, or only people who answered, as the company says', async () => {
    await setRules({ tieRule: 'HITS', rankAdmins: false, rankNonPlayers: false });
    const expected = reference('HITS', false, false);
    expect(expected).toHaveLength(8);
    const r = await s.gql(RANKING, { take: 100 }, as(tokenOf('p9')));
    expect(r.data.triviaRanking.total).toBe(8);
    expect(page(r.data)).toEqual(shown(expected));
    expect(r.data.triviaRanking.me).toBeNull(); // player 9 answered nothing
    expect((await s.gql(RANKING, {}, as('admin'))).data.triviaRanking.me).toBeNull();
    await setRules({ rankAdmins: true, rankNonPlayers: true });
  });

  it('hides names under disableRankingsUserNames, as the prediction ranking does', async () => {
    await setCompany('DEMO', { disableRankingsUserNames: true });
    const entries = (await s.gql(RANKING, { take: 100 }, as(tokenOf('p1')))).data.triviaRanking.entries;
    expect(entries.filter((e: any) => e.user !== null).map((e: any) => e.user.id)).toEqual([ids.p1]);
    const forAdmin = (await s.gql(RANKING, { take: 100 }, as('admin'))).data.triviaRanking.entries;
    expect(forAdmin.every((e: any) => e.user !== null)).toBe(true);
    await setCompany('DEMO', { disableRankingsUserNames: false });
  });

  it('costs a bounded number of statements, whatever the page holds', async () => {
    const count = async (query: string, take: number) => {
      const r = await s.gql(query, { take }, as(tokenOf('p1')));
      expect(r.errors).toBeUndefined();
      return r.extensions!.sqlStatements!;
    };
    await count(RANKING, 1); // the caller's rows are read once, then served from the auth-row cache
    expect(await count(RANKING, 20)).toBe(await count(RANKING, 2));
    expect(await count(RANKING, 20)).toBeLessThanOrEqual(6);
    expect(await count(LIST, 4)).toBe(await count(LIST, 2));
  });

  it("a cached response does not outlive the end of a question's window", async () => {
    const soon = await create({
      text: 'Quick one',
      startsAt: minutes(-1),
      endsAt: new Date(Date.now() + 2500).toISOString(),
    });
    expect((await answer(tokenOf('p3'), soon.id, 1)).errors).toBeUndefined();
    const ME = '{ me { triviaSolutions { questionId } } }';
    const before = () => s.gql(ME, {}, as(tokenOf('p3')));
    expect((await before()).data.me.triviaSolutions.map((x: any) => x.questionId)).not.toContain(soon.id);
    const hit = await before();
    expect(hit.extensions?.sqlStatements).toBe(1); // served by the response cache
    expect(hit.data.me.triviaSolutions.map((x: any) => x.questionId)).not.toContain(soon.id);
    const end = (await s.t.db.prisma.triviaQuestion.findUniqueOrThrow({ where: { id: soon.id } })).endsAt;
    await new Promise((r) => setTimeout(r, Math.max(0, end.getTime() - Date.now()) + 50));
    expect((await before()).data.me.triviaSolutions.map((x: any) => x.questionId)).toContain(soon.id);
  });
});
