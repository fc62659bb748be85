// Recomputes the points of every prediction (and the dream-final picks) of the given matches from their current
// results, with each predicting user's company rules. Idempotent: run it after any result change (API, importer,
// correction) or a company's change of rules. Writes are grouped by outcome (one UPDATE per distinct score).
import type { Tx } from '../db/client.ts';
import { enqueue } from '../notifications/outbox.ts';
import { rescoreDreamFinals } from './dream-finals-rescore.ts';
import { refreshStandings } from './standings.ts';
import { firstLegsOf, secondLegsOf } from './first-legs.ts';
import { scorePrediction, type Score } from './scoring.ts';
import { readScoringSettings } from './scoring-settings.ts';

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
  const given = await tx.match.findMany({ where: { id: { in: matchIds } } });
  // A first leg's result is part of its second leg's aggregate: that one is rescored too.
  const seconds = (await secondLegsOf(tx, given)).filter((id) => !matchIds.includes(id));
  const matches = seconds.length ? [...given, ...(await tx.match.findMany({ where: { id: { in: seconds } } }))] : given;
  matchIds = matches.map((m) => m.id);
  const firstLegs = await firstLegsOf(tx, matches);
  const predictions = await tx.prediction.findMany({
    where: { matchId: { in: matchIds }, ...(companyId === undefined ? {} : { user: { companyId } }) },
    select: {
      id: true,
      userId: true,
      matchId: true,
      homeTeamGoals: true,
      awayTeamGoals: true,
      penaltiesWinner: true,
      isJoker: true,
      status: true,
      points: true,
      exactHit: true,
      outcomeHit: true,
      user: { select: { companyId: true } },
    },
  });
  const companyIds = [...new Set(predictions.map((p) => p.user.companyId))];
  const companies = await tx.company.findMany({
    where: { id: { in: companyIds } },
    select: { id: true, scoringSettings: true },
  });
  const rules = new Map(companies.map((c) => [c.id, readScoringSettings(c.scoringSettings)]));
  const byId = new Map(matches.map((m) => [m.id, m]));

  // Group prediction ids by the score they should now have; skip the ones already right.
  const groups = new Map<string, { score: Score; ids: number[] }>();
  const notify = new Map<string, { userId: number; matchId: number }>();
  for (const p of predictions) {
    const match = byId.get(p.matchId)!;
    const score = scorePrediction(p, match, rules.get(p.user.companyId)!, firstLegs.get(match.id) ?? null);
    if (
      p.status === score.status &&
      p.points === score.points &&
      p.exactHit === score.exactHit &&
      p.outcomeHit === score.outcomeHit
    )
      continue;
    if (score.status !== 'PENDING') notify.set(`${p.userId}:${p.matchId}`, { userId: p.userId, matchId: p.matchId });
    const key = JSON.stringify(score);
    const group = groups.get(key) ?? { score, ids: [] };
    group.ids.push(p.id);
    groups.set(key, group);
  }
  let changed = 0;
  for (const { score, ids } of groups.values()) {
    for (let i = 0; i < ids.length; i += 5000) {
      const r = await tx.prediction.updateMany({ where: { id: { in: ids.slice(i, i + 5000) } }, data: score });
      changed += r.count;
    }
  }
  const tournamentIds = [...new Set(matches.map((m) => m.tournamentId))];
  // Whoever's points changed hears that the rankings moved; a corrected result (another score) notifies again.
  await enqueue(
    tx,
    [...notify.values()].map(({ userId, matchId }) => {
      const match = byId.get(matchId)!;
      const result = [
        match.status,
        match.homeTeamGoals,
        match.awayTeamGoals,
        match.homeTeamFullTimeGoals,
        match.awayTeamFullTimeGoals,
        match.penaltiesWinner,
      ].join('-');
      return {
        userId,
        type: 'rankingsUpdated' as const,
        dedupeKey: `rankingsUpdated:match:${matchId}:result:${result}:user:${userId}`,
        payload: { matchId, tournamentId: match.tournamentId },
      };
    }),
  );
  // A final or third-place result decides dream-final picks too.
  const dreamChanged = companyId === undefined ? await rescoreDreamFinals(tx, tournamentIds) : 0;
  // The general ranking reads TournamentStanding: refresh it for everyone whose points may have moved.
  const standingsChanged = changed > 0 || dreamChanged > 0;
  if (standingsChanged) {
    for (const tournamentId of tournamentIds) {
      const here = new Set(matches.filter((m) => m.tournamentId === tournamentId).map((m) => m.id));
      const users = predictions.filter((p) => here.has(p.matchId)).map((p) => p.userId);
      if (dreamChanged > 0) {
        const pickers = await tx.dreamFinalPick.findMany({
          where: { setting: { tournamentId } },
          select: { userId: true },
        });
        users.push(...pickers.map((p) => p.userId));
      }
      await refreshStandings(tx, tournamentId, users);
    }
  }
  return { matches: matches.length, predictions: changed, tournamentIds, standingsChanged };
}

/** After a company's rules changed: every decided match its players predicted, with its rules, in one step. */
export async function rescoreCompany(tx: Tx, companyId: number): Promise<RescoreReport> {
  const decided = await tx.match.findMany({
    where: {
      status: { in: ['FINISHED', 'AWARDED', 'CANCELLED'] },
      predictions: { some: { user: { companyId } } },
    },
    select: { id: true },
  });
  return rescoreMatches(
    tx,
    decided.map((m) => m.id),
    companyId,
  );
}
