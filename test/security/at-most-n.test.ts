// "At most N" rules under parallel requests: each rule is fired at by a burst of requests over HTTP at once, on
// the suite's database (SQLite, or PostgreSQL when DATABASE_URL names one), and must leave exactly N rows, with every
// loser got the operation's own refusal (never a 500). On PostgreSQL several transactions run at once, each
// under READ COMMITTED, so a rule counted in SQL holds only where the counting is serialised (docs/security.md,
// "At most N, under concurrency").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let t: Record<'player' | 'player2' | 'admin' | 'reseller', string>;
beforeAll(async () => {
  s = await startTestServer();
  t = await s.loginAll(['player', 'player2', 'admin', 'reseller']);
}, 60_000);
afterAll(() => s?.close());

/** Requests fired together in each burst. */
const BURST = 16;

const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions.code ?? 'OK';
/** How many responses had each code: { OK: 1, CONFLICT: 15 }. */
function tally(results: Array<GqlResult<unknown>>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of results) counts[codeOf(a)] = (counts[codeOf(a)] ?? 0) + 1;
  return counts;
}
const burst = (n: number, request: (i: number) => Promise<GqlResult<any>>) =>
  Promise.all(Array.from({ length: n }, (_, i) => request(i)));
const ok = <T>(r: GqlResult<T>) => {
  expect(r.errors).toBeUndefined();
  return r;
};

const SET_SCORING = `mutation($c: Int!, $i: ScoringSettingsInput!) {
  updateScoringSettings(companyId: $c, input: $i, confirm: true) { company { id } } }`;
const UPSERT = `mutation($i: UpsertPredictionInput!) { upsertPrediction(input: $i) { id isJoker } }`;

describe('at most N, under concurrency', () => {
  it('jokers per round: of a burst of jokers on different matches of one round, the allowance is placed', async () => {
    const p = s.t.db.prisma;
    const userId = s.demo.users['player1@demo.test'];
    const final = await p.match.findUniqueOrThrow({ where: { id: s.demo.matches.final } });
    const { id: _id, externalId: _e, createdAt: _c, updatedAt: _u, ...rest } = final;
    const jokersInRound = () =>
      p.prediction.count({ where: { userId, isJoker: true, match: { roundId: final.roundId } } });
    // Several bursts per allowance: the race the rule guards against is one of timing.
    for (const allowance of [1, 2]) {
      ok(await s.gql(SET_SCORING, { c: s.demo.companies.DEMO, i: { jokersPerRound: allowance } }, bearer(t.admin)));
      for (let attempt = 0; attempt < 3; attempt++) {
        await p.prediction.updateMany({
          where: { userId, match: { roundId: final.roundId } },
          data: { isJoker: false },
        });
        const matches = await Promise.all(
          Array.from({ length: BURST }, () =>
            p.match.create({ data: { ...rest, date: new Date(Date.now() + 86400e3) } }),
          ),
        );
        const results = await burst(BURST, (i) =>
          s.gql(
            UPSERT,
            { i: { matchId: matches[i].id, homeTeamGoals: 1, awayTeamGoals: 0, isJoker: true } },
            bearer(t.player),
          ),
        );
        expect(tally(results), `allowance ${allowance}, burst ${attempt + 1}`).toEqual({
          OK: allowance,
          FORBIDDEN: BURST - allowance,
        });
        for (const a of results.filter((x) => x.errors))
          expect(a.errors![0].message).toMatch(`you have played the round's ${allowance} joker(s) already`);
        expect(await jokersInRound(), `allowance ${allowance}, burst ${attempt + 1}`).toBe(allowance);
      }
    }
    // A burst on one match: the same prediction each time, so every request succeeds and one joker stands.
    await p.prediction.updateMany({ where: { userId, match: { roundId: final.roundId } }, data: { isJoker: false } });
    const results = await burst(BURST, (i) =>
      s.gql(
        UPSERT,
        { i: { matchId: final.id, homeTeamGoals: i % 3, awayTeamGoals: 0, isJoker: true } },
        bearer(t.player),
      ),
    );
    expect(tally(results)).toEqual({ OK: BURST });
    expect(await jokersInRound()).toBe(1);
    ok(await s.gql(SET_SCORING, { c: s.demo.companies.DEMO, i: { jokersPerRound: 0 } }, bearer(t.admin)));
  });

  it('dream-final picks: a burst of pick lists leaves one whole list, and every request succeeds', async () => {
    const PICKS = 'mutation($s: Int!, $t: [Int!]!) { setDreamFinalPicks(settingId: $s, teamIds: $t) { id } }';
    const { Argentina, France } = s.demo.teams;
    const lists = [
      [Argentina, France],
      [France, Argentina],
    ];
    const results = await burst(BURST, (i) =>
      s.gql(PICKS, { s: s.demo.dreamFinals, t: lists[i % 2] }, bearer(t.player)),
    );
    expect(tally(results)).toEqual({ OK: BURST });
    const picks = await s.t.db.prisma.dreamFinalPick.findMany({
      where: { settingId: s.demo.dreamFinals, userId: s.demo.users['player1@demo.test'] },
      orderBy: { position: 'asc' },
    });
    expect(picks.map((p) => p.position)).toEqual([1, 2]);
    expect(lists).toContainEqual(picks.map((p) => p.teamId));
  });

  it('one bonus answer: of a burst of answers to one question, one is kept and the rest are CONFLICT', async () => {
    const CREATE = `mutation($i: CreateBonusQuestionInput!) { createBonusQuestion(input: $i) { id } }`;
    const ANSWER = `mutation($id: Int!, $a: String!) { answerBonusQuestion(id: $id, answer: $a) {
      myAnswer { value } } }`;
    const closesAt = new Date(Date.now() + 365 * 86400e3).toISOString();
    const i = { tournamentId: s.demo.tournament, kind: 'NUMBER', text: 'Goals in the final?', points: 3, closesAt };
    const { id } = ok(await s.gql(CREATE, { i }, bearer(t.admin))).data.createBonusQuestion;
    // Two players at once, each with a burst of different answers.
    const players = [t.player, t.player2];
    const results = await burst(BURST * 2, (n) => s.gql(ANSWER, { id, a: String(n) }, bearer(players[n % 2])));
    for (const [k, email] of (['player1@demo.test', 'player2@demo.test'] as const).entries()) {
      const mine = results.filter((_, n) => n % 2 === k);
      expect(tally(mine)).toEqual({ OK: 1, CONFLICT: BURST - 1 });
      for (const a of mine.filter((x) => x.errors)) expect(a.errors![0].message).toMatch(/answered this question/);
      const kept = mine.find((x) => !x.errors)!.data.answerBonusQuestion.myAnswer.value;
      const rows = await s.t.db.prisma.bonusAnswer.findMany({ where: { questionId: id, userId: s.demo.users[email] } });
      expect(rows.map((r) => r.value)).toEqual([kept]);
    }
  });

  it('one trivia answer: of a burst of answers to one question, one is kept and graded, others CONFLICT', async () => {
    const p = s.t.db.prisma;
    ok(
      await s.gql(
        'mutation($id: Int!, $i: UpdateCompanyInput!) { updateCompany(companyId: $id, input: $i) { id } }',
        { id: s.demo.companies.DEMO, i: { purchasedGames: { prode: true, trivia: true } } },
        bearer(t.reseller),
      ),
    );
    const CREATE = `mutation($i: TriviaQuestionInput!) { createTriviaQuestion(input: $i) { id } }`;
    const ANSWER = `mutation($q: Int!, $o: Int!) { answerTrivia(questionId: $q, option: $o) { id } }`;
    const i = {
      text: 'Who won the 1986 World Cup?',
      options: ['Brazil', 'Argentina', 'Germany', 'France'],
      correctOption: 1,
      points: 3,
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const { id } = ok(await s.gql(CREATE, { i }, bearer(t.admin))).data.createTriviaQuestion;
    const results = await burst(BURST, (n) => s.gql(ANSWER, { q: id, o: n % 4 }, bearer(t.player)));
    expect(tally(results)).toEqual({ OK: 1, CONFLICT: BURST - 1 });
    for (const a of results.filter((x) => x.errors)) {
      expect(a.errors![0].message).toMatch(/answered this question/);
      expect(a.errors![0].extensions.argumentName).toBe('questionId');
    }
    const userId = s.demo.users['player1@demo.test'];
    const kept = results.findIndex((x) => !x.errors) % 4;
    const answer = await p.triviaAnswer.findMany({ where: { questionId: id, userId } });
    const solution = await p.triviaSolution.findMany({ where: { questionId: id, userId } });
    expect(answer.map((a) => a.option)).toEqual([kept]);
    // The grade kept is the kept answer's, not another request's.
    expect(solution.map((x) => x.isCorrect)).toEqual([kept === 1]);
  });

  it('one like: a burst of likes of one post or comment leaves one like, and every request succeeds', async () => {
    const p = s.t.db.prisma;
    const postId = s.demo.posts.demo[0];
    const COMMENT = 'mutation($p: Int!) { createComment(postId: $p, text: "Ha") { id } }';
    const commentId = ok(await s.gql(COMMENT, { p: postId }, bearer(t.player2))).data.createComment.id;
    const userId = s.demo.users['player1@demo.test'];
    await p.postLike.deleteMany({ where: { postId, userId } });
    // Liking is idempotent (schema.graphql): every request returns the post, liked once.
    const LIKE_POST = 'mutation($id: Int!) { likePost(postId: $id) { likesCount likedByMe } }';
    const LIKE_COMMENT = 'mutation($id: Int!) { likeComment(commentId: $id) { likesCount likedByMe } }';
    const posts = await burst(BURST, () => s.gql(LIKE_POST, { id: postId }, bearer(t.player)));
    const comments = await burst(BURST, () => s.gql(LIKE_COMMENT, { id: commentId }, bearer(t.player)));
    expect(tally(posts)).toEqual({ OK: BURST });
    expect(tally(comments)).toEqual({ OK: BURST });
    for (const r of posts) expect(r.data.likePost.likedByMe).toBe(true);
    expect(await p.postLike.count({ where: { postId, userId } })).toBe(1);
    expect(await p.postCommentLike.count({ where: { commentId, userId } })).toBe(1);
  });

  it('one answer to an internal-ranking invitation: one of a burst wins, the rest are CONFLICT', async () => {
    const p = s.t.db.prisma;
    const CREATE = 'mutation($t: Int!, $n: String!) { createInternalRanking(tournamentId: $t, name: $n) { id } }';
    const INVITE = 'mutation($r: Int!, $u: Int!) { inviteToInternalRanking(rankingId: $r, userId: $u) { id } }';
    const RESPOND = `mutation($i: Int!, $a: Boolean!) {
      respondToInternalRankingInvitation(invitationId: $i, accept: $a) { status } }`;
    const invitee = s.demo.users['player2@demo.test'];
    const inviter = s.demo.users['player1@demo.test'];
    // All accept; then, on another league, half accept and half reject at once.
    for (const [name, accepts] of [
      ['Office league', () => true],
      ['Lunch league', (n: number) => n % 2 === 0],
    ] as const) {
      const rankingId = ok(await s.gql(CREATE, { t: s.demo.tournament, n: name }, bearer(t.player))).data
        .createInternalRanking.id;
      const invitationId = ok(await s.gql(INVITE, { r: rankingId, u: invitee }, bearer(t.player))).data
        .inviteToInternalRanking.id;
      const results = await burst(BURST, (n) => s.gql(RESPOND, { i: invitationId, a: accepts(n) }, bearer(t.player2)));
      expect(tally(results), name).toEqual({ OK: 1, CONFLICT: BURST - 1 });
      const status = results.find((x) => !x.errors)!.data.respondToInternalRankingInvitation.status;
      expect((await p.internalRankingInvitation.findUniqueOrThrow({ where: { id: invitationId } })).status).toBe(
        status,
      );
      expect(await p.internalRankingMembership.count({ where: { rankingId, userId: invitee } })).toBe(
        status === 'ACCEPTED' ? 1 : 0,
      );
      // The inviter is told once.
      const told = await p.notification.findMany({
        where: {
          userId: inviter,
          type: { in: ['internalRankingInvitationAccepted', 'internalRankingInvitationRejected'] },
        },
      });
      expect(told.filter((x) => (x.payload as { rankingId: number }).rankingId === rankingId).length, name).toBe(1);
    }
  });
});
