// Statistics and round winners show no more than the predictions and rankings they count (docs/security.md,
// "Field-level rules"). The attacks: a player reads how colleagues predicted a match still open through
// Match.statistics (served from the response cache too), and a player reads the names of round winners that
// disableRankingsUserNames hides, from a response first computed for an admin. Real HTTP, real JWTs, the demo data,
// the full engine (its response cache is part of the attack).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let t: Record<'player' | 'admin', string>;
beforeAll(async () => {
  s = await startTestServer({ env: FULL_ENGINE });
  t = await s.loginAll(['player', 'admin']);
});
afterAll(() => s?.close());

const STATISTICS = `query($id: Int!) { match(id: $id) { statistics { predictions home draw away
  topScores(take: 20) { homeTeamGoals awayTeamGoals count } } } }`;

describe('Match.statistics before kickoff', () => {
  it("tells nothing of colleagues' predictions of an open match, cached or not; counts them from kickoff", async () => {
    const p = s.t.db.prisma;
    const { final } = s.demo.matches;
    const colleagues = [2, 3, 4].map((n) => s.demo.users[`player${n}@demo.test` as 'player2@demo.test']);
    for (const userId of colleagues)
      await p.prediction.upsert({
        where: { userId_matchId: { userId, matchId: final } },
        create: { userId, matchId: final, homeTeamGoals: 4, awayTeamGoals: 0 },
        update: { homeTeamGoals: 4, awayTeamGoals: 0 },
      });
    for (let i = 0; i < 2; i++) {
      const r = await s.gql(STATISTICS, { id: final }, bearer(t.player));
      expect(r.errors).toBeUndefined();
      expect(r.data.match.statistics).toBeNull();
    }
    await s.kickOff(final);
    const after = await s.gql(STATISTICS, { id: final }, bearer(t.player));
    const all = await p.prediction.findMany({ where: { matchId: final, user: { companyId: s.demo.companies.DEMO } } });
    expect(after.data.match.statistics.predictions).toBe(all.length);
    expect(after.data.match.statistics.topScores).toContainEqual(
      expect.objectContaining({ homeTeamGoals: 4, awayTeamGoals: 0 }),
    );
  });
});

describe('roundWinners under disableRankingsUserNames', () => {
  it("never serves a player the winners' names computed for an admin", async () => {
    const p = s.t.db.prisma;
    const WINNERS = `query($t: Int!) { roundWinners(tournamentId: $t) { round { id } points winners { id name } } }`;
    await p.company.update({ where: { id: s.demo.companies.DEMO }, data: { disableRankingsUserNames: true } });
    const me = s.demo.users['player1@demo.test'];
    const named = await s.gql(WINNERS, { t: s.demo.tournament }, bearer(t.admin));
    expect(named.errors).toBeUndefined();
    const winners = named.data.roundWinners.flatMap((r: { winners: Array<{ id: number } | null> }) => r.winners);
    expect(winners.length).toBeGreaterThan(0);
    expect(winners.every((w: { id: number } | null) => w !== null)).toBe(true);
    const hidden = await s.gql(WINNERS, { t: s.demo.tournament }, bearer(t.player));
    for (const round of hidden.data.roundWinners as Array<{ winners: Array<{ id: number } | null> }>)
      for (const w of round.winners) if (w !== null) expect(w.id).toBe(me);
    expect(JSON.stringify(hidden.data)).not.toMatch(/Dana Admin|Demo Player (?!1")\d+/);
  });
});
