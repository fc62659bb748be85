// Recomputes the points of every prediction (and the dream-final picks) of the given matches from their current
// results, with each predicting user's company rules. Idempotent: run it after any result change (API, importer,
// correction) or a company's change of rules.
//
// Set-based, so a match with 100,000 predictions costs a handful of statements and no rows in the process: the
// predictions are read grouped into kinds (src/domain/rescore-plan.ts: scored once each by the pure rules), and
// each kind whose score moved is one row of a VALUES list that three statements join the predictions to: the
// standings move by the difference, the players are notified, the predictions take their new score.
import type { Tx } from '../db/client.ts';
import { Prisma } from '../db/sql.ts';
import { rescoreDreamFinals } from './dream-finals-rescore.ts';
import { changedKinds, type KindChange, type PredictionKind } from '../domain/rescore-plan.ts';
import { moveStandings, refreshStandings, usersWithoutStanding } from './standings.ts';
import { firstLegsOf, secondLegsOf } from './first-legs.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { notifyRankingsUpdated } from './rescore-notifications.ts';
import { kindsAndPredictions, KINDS_PER_STATEMENT, OF_KIND } from './rescore-sql.ts';

export interface RescoreReport {
  matches: number;
  predictions: number;
  /** Tournaments of the matches rescored: what "rankingsUpdated" notifications are about. */
  tournamentIds: number[];
  /** Whether any standing was refreshed: rankings moved (live subscribers hear of it). */
  standingsChanged: boolean;
}

/** `companyId`: only that company's players' predictions (its rules changed, nobody else's). */
export async function rescoreMatches(tx: Tx, matchIds: number[], companyId?: number): Promise<RescoreReport> {
  if (matchIds.length === 0) return { matches: 0, predictions: 0, tournamentIds: [], standingsChanged: false };
  await lockMatches(tx, matchIds);
  const given = await tx.match.findMany({ where: { id: { in: matchIds } } });
  // Deleted since (a job queued for it): nothing is left to score.
  if (given.length === 0) return { matches: 0, predictions: 0, tournamentIds: [], standingsChanged: false };
  // A first leg's result is part of its second leg's aggregate: that one is rescored too.
  const seconds = (await secondLegsOf(tx, given)).filter((id) => !matchIds.includes(id));
  if (seconds.length) await lockMatches(tx, seconds);
  const matches = seconds.length ? [...given, ...(await tx.match.findMany({ where: { id: { in: seconds } } }))] : given;
  matchIds = matches.map((m) => m.id);
  const firstLegs = await firstLegsOf(tx, matches);
  const kinds = await readKinds(tx, matchIds, companyId);
  const companies = await tx.company.findMany({
    where: { id: { in: [...new Set(kinds.map((k) => k.companyId))] } },
    select: { id: true, scoringSettings: true, notificationSettings: true },
  });
  const rules = new Map(companies.map((c) => [c.id, readScoringSettings(c.scoringSettings)]));
  const byId = new Map(matches.map((m) => [m.id, m]));
  const changes = changedKinds(kinds, byId, rules, firstLegs);
  const tournamentOf = (matchId: number) => byId.get(matchId)!.tournamentId;

  // Read before the predictions change: these statements find each prediction by the score it has now.
  for (let i = 0; i < changes.length; i += KINDS_PER_STATEMENT) {
    const chunk = changes.slice(i, i + KINDS_PER_STATEMENT);
    await moveStandings(tx, chunk, tournamentOf);
  }
  // Whoever's points changed hears that the rankings moved; a corrected result (another score) notifies again.
  await notifyRankingsUpdated(tx, changes, matches, companies);
  let changed = 0;
  for (const status of new Set(changes.map((c) => c.score.status))) {
    const same = changes.filter((c) => c.score.status === status);
    for (let i = 0; i < same.length; i += KINDS_PER_STATEMENT)
      changed += await rewrite(tx, status, same.slice(i, i + KINDS_PER_STATEMENT));
  }

  const tournamentIds = [...new Set(matches.map((m) => m.tournamentId))];
  // A final or third-place result decides dream-final picks too.
  const dreamChanged = companyId === undefined ? await rescoreDreamFinals(tx, tournamentIds) : 0;
  const standingsChanged = changed > 0 || dreamChanged > 0;
  if (standingsChanged) {
    // Moving a standing needs one: a player's first scored prediction makes it from all they have.
    for (const { tournamentId, userIds } of await usersWithoutStanding(tx, matchIds, companyId))
      await refreshStandings(tx, tournamentId, userIds);
    if (dreamChanged > 0) {
      for (const tournamentId of tournamentIds) {
        const pickers = await tx.dreamFinalPick.findMany({
          where: { setting: { tournamentId } },
          select: { userId: true },
        });
        await refreshStandings(
          tx,
          tournamentId,
          pickers.map((p) => p.userId),
        );
      }
    }
  }
  return { matches: matches.length, predictions: changed, tournamentIds, standingsChanged };
}

/**
 * Standings move by differences read from the predictions as they are, so two rescorings of one match (a result
 * and a company's new rules) must not both read the old scores or results: locking the match rows before reading
 * them makes the second wait for the first to commit (PostgreSQL; SQLite has one writer at a time anyway).
 */
async function lockMatches(tx: Tx, ids: number[]) {
  await tx.$executeRaw`UPDATE "Match" SET "status" = "status" WHERE "id" IN (${Prisma.join(ids)})`;
}

/** The matches' predictions grouped by what scores them and what they scored: one row per kind. */
async function readKinds(tx: Tx, matchIds: number[], companyId?: number): Promise<PredictionKind[]> {
  const company = companyId === undefined ? Prisma.empty : Prisma.sql`AND u."companyId" = ${companyId}`;
  const rows = await tx.$queryRaw<Array<Record<keyof PredictionKind, unknown>>>`
    SELECT u."companyId" AS "companyId", p."matchId" AS "matchId", p."homeTeamGoals" AS "homeTeamGoals",
      p."awayTeamGoals" AS "awayTeamGoals", p."penaltiesWinner" AS "penaltiesWinner", p."isJoker" AS "isJoker",
      p."status" AS "status", p."points" AS "points", p."exactHit" AS "exactHit", p."outcomeHit" AS "outcomeHit",
      CAST(COUNT(*) AS INTEGER) AS "count"
    FROM "Prediction" p JOIN "User" u ON u."id" = p."userId"
    WHERE p."matchId" IN (${Prisma.join(matchIds)}) ${company}
    GROUP BY u."companyId", p."matchId", p."homeTeamGoals", p."awayTeamGoals", p."penaltiesWinner", p."isJoker",
      p."status", p."points", p."exactHit", p."outcomeHit"`;
  return rows.map((r) => ({
    companyId: Number(r.companyId),
    matchId: Number(r.matchId),
    homeTeamGoals: Number(r.homeTeamGoals),
    awayTeamGoals: Number(r.awayTeamGoals),
    penaltiesWinner: (r.penaltiesWinner ?? null) as PredictionKind['penaltiesWinner'],
    // SQLite returns booleans as 0 and 1.
    isJoker: Boolean(r.isJoker),
    status: r.status as PredictionKind['status'],
    points: r.points === null ? null : Number(r.points),
    exactHit: Boolean(r.exactHit),
    outcomeHit: Boolean(r.outcomeHit),
    count: Number(r.count),
  }));
}

/** Gives the predictions of these kinds (all taking `status`) their new score; returns how many changed. */
async function rewrite(tx: Tx, status: string, changes: KindChange[]): Promise<number> {
  // The new values go through a subquery of ids, so SQLite walks the match's predictions once and updates by id.
  return tx.$executeRaw`
    WITH ${kindsAndPredictions(changes)},
    n AS (SELECT pk."id" AS "id", v."newPoints" AS "points", v."newExactHit" AS "exactHit",
        v."newOutcomeHit" AS "outcomeHit"
      FROM pk JOIN v ON ${OF_KIND})
    UPDATE "Prediction" SET "status" = ${status}, "points" = n."points", "exactHit" = (n."exactHit" = 1),
      "outcomeHit" = (n."outcomeHit" = 1), "updatedAt" = ${new Date()}
    FROM n WHERE "Prediction"."id" = n."id"`;
}

/** The decided matches a company's players predicted: what a change of its rules rescores. */
export async function decidedMatchesOf(tx: Tx, companyId: number): Promise<number[]> {
  const decided = await tx.match.findMany({
    where: {
      status: { in: ['FINISHED', 'AWARDED', 'CANCELLED'] },
      predictions: { some: { user: { companyId } } },
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return decided.map((m) => m.id);
}

/** After a company's rules changed: every decided match its players predicted, with its rules, in one step. */
export async function rescoreCompany(tx: Tx, companyId: number): Promise<RescoreReport> {
  return rescoreMatches(tx, await decidedMatchesOf(tx, companyId), companyId);
}
