// The set-based rescoring (src/game/rescore.ts) against the pure rules: every prediction it writes must be what
// scorePrediction gives with its player's company rules, every standing it moves must be what a rebuild from
// scratch makes, and the notifications it writes must follow the outbox's rules. Three companies with
// different rules (bases, multipliers of hundredths, jokers, shoot-out and advancing-team points) predict a
// draw decided on penalties and a two-legged tie, with jokers, shoot-out winners, deleted players and players
// who turned notifications off; results are then corrected, cancelled and the rules changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOURNAMENT_EXTERNAL_ID } from '../../prisma/seed/demo-seed.ts';
import type { Db } from '../../src/db/client.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { firstLegsOf } from '../../src/game/first-legs.ts';
import { decidedMatchesOf, rescoreMatches } from '../../src/game/rescore.ts';
import { readScoringSettings } from '../../src/domain/scoring-settings.ts';
import { scorePrediction } from '../../src/domain/scoring.ts';
import { rebuildStandings } from '../../src/game/standings.ts';
import { seededDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
let p: Db;
let tournamentId: number;
let matchIds: number[];
const PLAYERS = 14;

beforeAll(async () => {
  t = await seededDatabase();
  p = t.db.prisma;
  const tournament = await p.tournament.findFirstOrThrow({ where: { externalId: DEMO_TOURNAMENT_EXTERNAL_ID } });
  tournamentId = tournament.id;
  const played = await p.match.findFirstOrThrow({ where: { tournamentId } });
  const [home, away] = [played.homeTeamId, played.awayTeamId];
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));
  const round = (name: string, position: number) =>
    p.round.create({ data: { tournamentId, name, date: day(position), hasPenalties: true, position: 100 + position } });
  const [semis, final] = [await round('Semis', 1), await round('Final', 5)];
  const match = (roundId: number, date: Date, h: number, a: number, second = false) =>
    p.match.create({
      data: {
        roundId,
        tournamentId,
        date,
        homeTeamId: h,
        awayTeamId: a,
        hasPenalties: true,
        isTwoWaysSecondMatch: second,
        status: 'SCHEDULED',
      },
    });
  const firstLeg = await match(semis.id, day(1), home, away);
  const secondLeg = await match(semis.id, day(3), away, home, true);
  const decider = await match(final.id, day(5), home, away);
  matchIds = [firstLeg.id, secondLeg.id, decider.id];

  const rules = [
    {},
    {
      exactScore: 5,
      goalDifference: 3,
      outcome: 2,
      penaltiesWinner: 2,
      advancingTeam: 1,
      basis: 'FULL_TIME',
      roundMultipliers: [{ roundId: final.id, multiplier: 1.5 }],
      jokersPerRound: 1,
    },
    { exactScore: 4, advancingTeam: 2, jokersPerRound: 2, roundMultipliers: [{ roundId: final.id, multiplier: 0.33 }] },
  ];
  for (const [c, scoringSettings] of rules.entries()) {
    const company = await p.company.create({
      data: { ...DEFAULT_COMPANY_JSON, name: `Rules ${c}`, code: `RULES${c}`, appPath: `rules${c}`, scoringSettings },
    });
    await p.companyTournament.create({ data: { companyId: company.id, tournamentId } });
    for (let i = 0; i < PLAYERS; i++) {
      // Settings players differ in: notifications off, e-mail off, a malformed value read as the defaults.
      const notificationSettings =
        i === 1
          ? { disabledTypes: ['rankingsUpdated'], emailEnabled: true }
          : i === 2
            ? { disabledTypes: [], emailEnabled: false }
            : i === 3
              ? { disabledTypes: 'rankingsUpdated' }
              : DEFAULT_USER_JSON.notificationSettings;
      const user = await p.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          notificationSettings,
          companyId: company.id,
          name: `Player ${c}.${i}`,
          email: `p${c}.${i}@rules.test`,
          externalId: `r${c}.${i}`,
          loginProviderId: `r${c}.${i}`,
          deletedAt: i === 4 ? new Date() : null,
        },
      });
      for (const [j, m] of matchIds.entries()) {
        const [h, a] = [(i + j) % 4, (i * (j + 1)) % 3];
        await p.prediction.create({
          data: {
            userId: user.id,
            matchId: m,
            homeTeamGoals: h,
            awayTeamGoals: a,
            penaltiesWinner: h === a || j === 1 ? (i % 2 ? 'home' : 'away') : null,
            isJoker: (i + j) % 3 === 0,
          },
        });
      }
    }
  }
});
afterAll(() => t.drop());

/** Each of the matches' predictions holds what the pure rules give with its player's company rules. */
async function expectScoredByTheRules() {
  const matches = await p.match.findMany({ where: { id: { in: matchIds } } });
  const firstLegs = await firstLegsOf(p, matches);
  const predictions = await p.prediction.findMany({
    where: { matchId: { in: matchIds } },
    include: { user: { select: { company: { select: { scoringSettings: true } } } } },
  });
  let scored = 0;
  for (const prediction of predictions) {
    const match = matches.find((m) => m.id === prediction.matchId)!;
    const rules = readScoringSettings(prediction.user.company.scoringSettings);
    const expected = scorePrediction(prediction, match, rules, firstLegs.get(match.id) ?? null);
    const { status, points, exactHit, outcomeHit } = prediction;
    expect({ id: prediction.id, status, points, exactHit, outcomeHit }).toEqual({ id: prediction.id, ...expected });
    if (status === 'SCORED') scored++;
  }
  return scored;
}

/** The standings the rescoring moved are the ones a rebuild from every prediction makes. */
async function expectStandingsAsRebuilt() {
  const read = () =>
    p.tournamentStanding.findMany({
      where: { tournamentId, points: { not: 0 } },
      orderBy: { userId: 'asc' },
      select: { userId: true, points: true, exactHits: true, outcomeHits: true },
    });
  const moved = await read();
  await rebuildStandings(p, [tournamentId]);
  expect(moved).toEqual(await read());
}

async function setResult(id: number, data: Record<string, unknown>) {
  return p.$transaction(
    async (tx) => {
      await tx.match.update({ where: { id }, data });
      return rescoreMatches(tx, [id]);
    },
    { timeout: 30_000 },
  );
}

describe('set-based rescoring', () => {
  it('scores every prediction as scorePrediction does, for every company; standings as a rebuild makes', async () => {
    await rebuildStandings(p, [tournamentId]);
    // Some players have no standing yet: their first scored predictions make one.
    await p.tournamentStanding.deleteMany({ where: { tournamentId, user: { name: { endsWith: '.5' } } } });
    await setResult(matchIds[0], { status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1 });
    // The second leg: 1-0 to the visitors of the first leg levels the aggregate, then extra time and penalties.
    const second = await setResult(matchIds[1], {
      status: 'FINISHED',
      homeTeamGoals: 2,
      awayTeamGoals: 1,
      homeTeamFullTimeGoals: 1,
      awayTeamFullTimeGoals: 0,
      penaltiesWinner: 'away',
    });
    expect(second.predictions).toBeGreaterThan(0);
    const decider = await setResult(matchIds[2], {
      status: 'FINISHED',
      homeTeamGoals: 1,
      awayTeamGoals: 1,
      homeTeamFullTimeGoals: 0,
      awayTeamFullTimeGoals: 0,
      penaltiesWinner: 'home',
    });
    expect(decider.standingsChanged).toBe(true);
    expect(await expectScoredByTheRules()).toBe(3 * PLAYERS * 3);
    await expectStandingsAsRebuilt();
  });

  it('a corrected result, a cancelled match and a first leg that moves its second leg', async () => {
    await setResult(matchIds[2], { homeTeamGoals: 3, awayTeamGoals: 0, penaltiesWinner: null });
    await expectScoredByTheRules();
    await expectStandingsAsRebuilt();
    // The first leg's correction changes the second leg's aggregate: both are rescored.
    const corrected = await setResult(matchIds[0], { homeTeamGoals: 0, awayTeamGoals: 0 });
    expect(corrected.matches).toBe(2);
    await expectScoredByTheRules();
    await expectStandingsAsRebuilt();
    await setResult(matchIds[2], { status: 'CANCELLED' });
    expect(await p.prediction.count({ where: { matchId: matchIds[2], status: { not: 'VOID' } } })).toBe(0);
    await expectScoredByTheRules();
    await expectStandingsAsRebuilt();
    // Rescoring again changes nothing.
    expect((await setResult(matchIds[0], {})).predictions).toBe(0);
  });

  it("a company's new rules rescore its players only, as the rules say", async () => {
    const company = await p.company.findFirstOrThrow({ where: { code: 'RULES1' } });
    const others = await p.prediction.findMany({
      where: { matchId: { in: matchIds }, user: { companyId: { not: company.id } } },
      orderBy: { id: 'asc' },
    });
    await p.company.update({
      where: { id: company.id },
      data: { scoringSettings: { exactScore: 7, outcome: 3, basis: 'AFTER_EXTRA_TIME', jokersPerRound: 0 } },
    });
    // As a change of its scoring settings does (src/app/scoring-settings.ts): every decided match its players
    // predicted, rescored with its rules.
    const report = await p.$transaction(
      async (tx) => rescoreMatches(tx, await decidedMatchesOf(tx, company.id), company.id),
      { timeout: 30_000 },
    );
    expect(report.predictions).toBeGreaterThan(0);
    await expectScoredByTheRules();
    await expectStandingsAsRebuilt();
    expect(
      await p.prediction.findMany({
        where: { matchId: { in: matchIds }, user: { companyId: { not: company.id } } },
        orderBy: { id: 'asc' },
      }),
    ).toEqual(others);
  });

  it('notifies each scored player once per rescoring and tournament, as the outbox rules say', async () => {
    const all = await p.notification.findMany({ where: { type: 'rankingsUpdated' }, include: { user: true } });
    const about = (ids: number[]) =>
      all.filter((n) => JSON.stringify((n.payload as { matchIds: number[] }).matchIds) === JSON.stringify(ids));
    // The first leg's correction rescored its second leg with it: one notification names both.
    const both = about([matchIds[0], matchIds[1]]);
    expect(both.length).toBeGreaterThan(0);
    expect(new Set(both.map((n) => n.userId)).size).toBe(both.length);
    // The second leg's own result: its rescoring alone.
    const notifications = about([matchIds[1]]);
    const players = await p.user.findMany({ where: { company: { code: { startsWith: 'RULES' } } } });
    const byUser = new Map(notifications.map((n) => [n.userId, n]));
    for (const player of players) {
      const n = byUser.get(player.id);
      const index = Number(player.name.split('.')[1]);
      // Deleted (4) and notifications off (1): nothing.
      if (index === 4 || index === 1) {
        expect(n, player.name).toBeUndefined();
        continue;
      }
      expect(n, player.name).toMatchObject({
        companyId: player.companyId,
        type: 'rankingsUpdated',
        status: 'PENDING',
        payload: { matchIds: [matchIds[1]], tournamentId },
        sendEmail: index !== 2,
      });
    }
    // One each for that rescoring.
    const keys = notifications.map((n) => n.dedupeKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(notifications.every((n) => n.createdAt instanceof Date && !Number.isNaN(n.createdAt.getTime()))).toBe(true);
  });
});
