// Corrections: an admin (or the company's reseller, or a manager) enters or corrects a player's prediction after the
// fact, past the deadline and kickoff too, with a reason. In one transaction: the prediction (marked with who
// entered it), its points if the match has a result, the audit entry and the player's notification.
import type { PredictionRow, UserRow } from '../db/rows.ts';
import { Model } from '../db/typed-sql.ts';
import { lockRows } from '../db/row-locks.ts';
import { auditReason } from '../domain/audit.ts';
import { badInput, forbidden, notFound } from '../domain/errors.ts';
import { predictionInputProblem, type PredictionInput } from '../domain/predictions.ts';
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { rescoreMatches } from '../game/rescore.ts';
import { queueRescore } from '../game/rescore-jobs.ts';
import { enqueue } from '../notifications/outbox.ts';
import { recordAudit } from './audit.ts';
import { retriedOnRace, storePrediction } from './game.ts';
import type { RequestScope } from './scope.ts';

const shown = (p: PredictionRow | null) =>
  p && {
    matchId: p.matchId,
    homeTeamGoals: p.homeTeamGoals,
    awayTeamGoals: p.awayTeamGoals,
    penaltiesWinner: p.penaltiesWinner,
    isJoker: p.isJoker,
  };

export async function setPredictionFor(
  scope: RequestScope,
  userId: number,
  input: PredictionInput & { matchId: number },
  reason: string,
): Promise<PredictionRow> {
  const { viewer, tenant } = scope.requireRole(
    'admin',
    "only the company's admins, its reseller and managers enter predictions for its players",
  );
  const why = auditReason(reason);
  const user = await scope.loaders.user.load(userId);
  if (!user || user.companyId !== tenant.id || user.deletedAt !== null) throw notFound('user', userId);
  // Past the deadline nobody predicts for themselves, admins included.
  if (user.id === viewer.id) throw forbidden('nobody enters a prediction for themselves after the fact');
  if (!roleAtLeast(viewer.role as RoleName, user.role as RoleName))
    throw forbidden(`a ${viewer.role} does not enter predictions for a ${user.role}`);
  const match = await scope.loaders.match.load(input.matchId);
  const tournaments = await scope.loaders.tournamentsByCompany.load(tenant.id);
  if (!match || !tournaments.some((t) => t.id === match.tournamentId)) throw notFound('match', input.matchId);
  const problem = predictionInputProblem(match, input);
  if (problem?.kind === 'input') throw badInput(problem.message, problem.argument);
  const settings = readScoringSettings(tenant.scoringSettings);
  const [home, away] = await Promise.all([
    scope.loaders.team.load(match.homeTeamId),
    scope.loaders.team.load(match.awayTeamId),
  ]);
  if (input.isJoker && settings.jokersPerRound === 0) throw badInput('the company plays without jokers', 'isJoker');

  const write = () =>
    scope.write(async (tx) => {
      // The tournament first, then the job, then the match, before the predictions, as setMatchResult takes them
      // (src/game/rescore-jobs.ts): a result recorded at the same time waits for this correction (or this one for
      // it), and the points follow the later result.
      await lockRows(tx, scope.config.database.provider, Model.Tournament, [match.tournamentId]);
      // The company's predictions of the match once this one is stored: the others, and this one.
      const others = await tx.prediction.count({
        where: { matchId: match.id, userId: { not: userId }, user: { companyId: tenant.id } },
      });
      const later = others + 1 > scope.config.rescoreInRequestMaxPredictions;
      if (later) await queueRescore(tx, [match.id], scope.now);
      await lockRows(tx, scope.config.database.provider, Model.Match, [match.id]);
      const before = await tx.prediction.findUnique({ where: { userId_matchId: { userId, matchId: match.id } } });
      const stored = await storePrediction(scope, tx, {
        userId,
        match,
        input,
        jokersPerRound: settings.jokersPerRound,
        enteredById: viewer.id,
      });
      const entry = { companyId: tenant.id, actorId: viewer.id, targetUserId: userId, reason: why };
      await recordAudit(tx, scope.now, {
        kind: 'PREDICTION_ENTERED',
        ...entry,
        before: shown(before),
        after: shown(stored),
      });
      await enqueue(tx, [
        {
          userId,
          type: 'predictionEnteredForYou',
          dedupeKey: `predictionEnteredForYou:prediction:${stored.id}:at:${scope.now.getTime()}`,
          payload: {
            matchId: match.id,
            homeTeam: home?.name ?? null,
            awayTeam: away?.name ?? null,
            homeTeamGoals: stored.homeTeamGoals,
            awayTeamGoals: stored.awayTeamGoals,
            enteredBy: viewer.name,
            reason: why,
          },
        },
      ]);
      // Scored at once where the match has a result; past the in-request limit by a job, as setMatchResult does.
      if (later) return { stored, rescored: null };
      const rescored = await rescoreMatches(tx, [match.id], tenant.id);
      return { stored: await tx.prediction.findUniqueOrThrow({ where: { id: stored.id } }), rescored };
    });
  const { stored, rescored } = await retriedOnRace(write);
  if (!rescored) scope.rescoring.wake();
  else if (rescored.standingsChanged)
    for (const tournamentId of rescored.tournamentIds)
      scope.live.publish({ kind: 'ranking', tournamentId, companyId: tenant.id });
  return stored;
}

/**
 * Who entered the prediction for its player, for the player and for admins and above acting on the company; null
 * when the player entered it, and for other players (a correction is between the player and the organisers).
 */
export async function enteredBy(scope: RequestScope, p: PredictionRow): Promise<UserRow | null> {
  if (p.enteredById == null) return null;
  const acting = scope.acting;
  const mayKnow = scope.caller?.id === p.userId || (acting && roleAtLeast(acting.viewer.role as RoleName, 'admin'));
  return mayKnow ? scope.loaders.user.load(p.enteredById) : null;
}
