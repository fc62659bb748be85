// The game's writes: a player's prediction and dream-final picks, and a match result (which rescores every
// prediction it touches, in the same transaction).
import { isUniqueViolation } from '../db/errors.ts';
import { lockRowForCounting, lockRows } from '../db/row-locks.ts';
import type { Tx } from '../db/client.ts';
import type { DreamFinalsSettingRow, MatchRow, PredictionRow } from '../db/rows.ts';
import type { MatchStatus } from '../db/enums.ts';
import { Model } from '../db/typed-sql.ts';
import { badInput, conflict, forbidden, notFound } from '../domain/errors.ts';
import { checkResult, predictionProblem, type PredictionInput, type ResultInput } from '../domain/predictions.ts';
import { decidingRounds } from '../domain/dream-finals.ts';
import { firstLegsOf } from '../game/first-legs.ts';
import { rescoreMatches } from '../game/rescore.ts';
import { queueRescore } from '../game/rescore-jobs.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { auditedResult, recordAudit } from './audit.ts';
import type { RequestScope } from './scope.ts';

/** Until kickoff (server clock, UTC), in the caller's own company, on a match of one of its tournaments. */
export async function upsertPrediction(
  scope: RequestScope,
  input: PredictionInput & { matchId: number },
): Promise<PredictionRow> {
  const { viewer, tenant } = scope.requireOwnCompany('predictions are made in your own company');
  const match = await scope.loaders.match.load(input.matchId);
  const tournaments = await scope.loaders.tournamentsByCompany.load(tenant.id);
  if (!match || !tournaments.some((t) => t.id === match.tournamentId)) throw notFound('match', input.matchId);
  const settings = readScoringSettings(tenant.scoringSettings);
  const problem = predictionProblem(match, input, scope.now, settings.predictionDeadlineMinutes);
  if (problem?.kind === 'input') throw badInput(problem.message, problem.argument);
  if (problem?.kind === 'closed') throw forbidden(problem.message);
  if (input.isJoker && settings.jokersPerRound === 0) throw badInput('your company plays without jokers', 'isJoker');

  const write = () =>
    scope.write((tx) =>
      storePrediction(scope, tx, {
        userId: viewer.id,
        match,
        input,
        jokersPerRound: settings.jokersPerRound,
        enteredById: null,
      }),
    );
  return retriedOnRace(write);
}

/** A prediction as it is stored, by the player or for them by an admin (src/app/corrections.ts). */
export interface PredictionWrite {
  userId: number;
  match: MatchRow;
  input: PredictionInput;
  jokersPerRound: number;
  /** Who entered it for the player; null: the player did (which clears an earlier admin's mark). */
  enteredById: number | null;
}

/** Upserts the prediction in `tx`, its joker counted against the round's allowance. */
export async function storePrediction(scope: RequestScope, tx: Tx, w: PredictionWrite): Promise<PredictionRow> {
  const { userId, match, input } = w;
  const values = {
    homeTeamGoals: input.homeTeamGoals,
    awayTeamGoals: input.awayTeamGoals,
    penaltiesWinner: input.penaltiesWinner ?? null,
    enteredById: w.enteredById,
    // Left out: a joker already placed stays where it is.
    ...(input.isJoker === undefined || input.isJoker === null ? {} : { isJoker: input.isJoker }),
  };
  // The player's jokers are counted one placement at a time: on PostgreSQL two placed at once would each count
  // before the other committed, and both pass (src/db/row-locks.ts). Taken before the write, so every
  // placement takes its locks in the same order.
  if (input.isJoker) await lockRowForCounting(tx, scope.config.database.provider, Model.User, userId);
  const row = await tx.prediction.upsert({
    where: { userId_matchId: { userId, matchId: match.id } },
    create: { userId, matchId: match.id, ...values },
    update: values,
  });
  // Counted after the write, in its transaction, so the refusal undoes it. Only a joker placed now is
  // counted: one placed under a larger allowance stays where it is.
  if (input.isJoker) {
    const jokers = await tx.prediction.count({ where: { userId, isJoker: true, match: { roundId: match.roundId } } });
    const who = w.enteredById === null ? 'you have' : 'the player has';
    if (jokers > w.jokersPerRound) throw forbidden(`${who} played the round's ${w.jokersPerRound} joker(s) already`);
  }
  return row;
}

/**
 * Two concurrent first predictions: both tried to insert; the unique index let one win. The write runs again and
 * updates it (in a transaction of its own: PostgreSQL ends the one whose statement failed).
 */
export async function retriedOnRace<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return write();
  }
}

/** teamIds[0] finishes first, and so on, one team per awarded position; until the limit round starts. */
export async function setDreamFinalPicks(
  scope: RequestScope,
  settingId: number,
  teamIds: number[],
): Promise<DreamFinalsSettingRow> {
  const { viewer, tenant } = scope.requireOwnCompany('dream finals are played in your own company');
  const setting = await scope.db.dreamFinalsSetting.findUnique({ where: { id: settingId } });
  if (!setting || setting.companyId !== tenant.id || !setting.isEnabled)
    throw notFound('dream finals setting', settingId);
  const limitRound = await scope.loaders.round.load(setting.limitRoundId);
  if (limitRound && scope.now.getTime() >= limitRound.date.getTime()) {
    throw forbidden(`dream-final picks closed when ${limitRound.name} started (${limitRound.date.toISOString()})`);
  }
  // A limit round set after the final would leave picks open once the answer is being played.
  const deciding = await decidingKickoff(scope, setting.tournamentId);
  if (deciding && scope.now.getTime() >= deciding.getTime())
    throw forbidden(`dream-final picks closed when the deciding matches kicked off (${deciding.toISOString()})`);
  if (teamIds.length !== setting.awardedPositions)
    throw badInput(`pick exactly ${setting.awardedPositions} teams, in finishing order`, 'teamIds');
  if (new Set(teamIds).size !== teamIds.length) throw badInput('a team can finish in one position only', 'teamIds');
  const playing = await scope.db.match.findMany({
    where: {
      tournamentId: setting.tournamentId,
      OR: [{ homeTeamId: { in: teamIds } }, { awayTeamId: { in: teamIds } }],
    },
    select: { homeTeamId: true, awayTeamId: true },
  });
  const inTournament = new Set(playing.flatMap((m) => [m.homeTeamId, m.awayTeamId]));
  const stranger = teamIds.find((id) => !inTournament.has(id));
  if (stranger !== undefined) throw badInput(`team ${stranger} does not play in this tournament`, 'teamIds');
  await scope.write(async (tx) => {
    // A list replaces the player's list whole: two sent at once would each delete before the other inserted, and
    // the second insert would meet the first's positions (src/db/row-locks.ts).
    await lockRowForCounting(tx, scope.config.database.provider, Model.User, viewer.id);
    await tx.dreamFinalPick.deleteMany({ where: { settingId, userId: viewer.id } });
    await tx.dreamFinalPick.createMany({
      data: teamIds.map((teamId, i) => ({ settingId, userId: viewer.id, position: i + 1, teamId })),
    });
  });
  return setting;
}

/**
 * The match whose result or date the viewer may set: managers any match; admins only the matches of their
 * company's custom tournaments.
 */
async function refereedMatch(scope: RequestScope, matchId: number): Promise<MatchRow> {
  const { viewer, tenant } = scope.requireTenant();
  const match = await scope.loaders.match.load(matchId);
  const tournament = match ? await scope.loaders.tournament.load(match.tournamentId) : null;
  if (!match || !tournament) throw notFound('match', matchId);
  const ownsTournament =
    tournament.ownerCompanyId === tenant.id && tenant.id === viewer.companyId && viewer.role === 'admin';
  if (viewer.role !== 'manager' && !ownsTournament) {
    // Do not tell a company's admin whether a match of another tenant exists.
    const visible = (await scope.loaders.tournamentsByCompany.load(tenant.id)).some((t) => t.id === tournament.id);
    if (!visible) throw notFound('match', matchId);
    throw forbidden('only managers, and admins of the company owning a custom tournament, set results');
  }
  return match;
}

/**
 * A result as a referee would record it (see checkResult). The match's predictions are rescored in the same step,
 * or, past RESCORE_IN_REQUEST_MAX_PREDICTIONS of them, by a job committed with the result and run right after it
 * (src/game/rescore-jobs.ts): the response then comes before the points, which follow within seconds.
 */
export async function setMatchResult(scope: RequestScope, input: ResultInput & { matchId: number }): Promise<MatchRow> {
  const match = await refereedMatch(scope, input.matchId);
  const { viewer } = scope.requireTenant();
  const tournament = await scope.loaders.tournament.load(match.tournamentId);
  const { row, rescored } = await scope.write(async (tx) => {
    // The tournament first, as every writer and the rescoring runner take it (src/game/rescore-jobs.ts): a run
    // under way on this match finishes before this result is written and a fresh job queued.
    await lockRows(tx, scope.config.database.provider, Model.Tournament, [match.tournamentId]);
    const predictions = await tx.prediction.count({ where: { matchId: match.id } });
    const later = predictions > scope.config.rescoreInRequestMaxPredictions;
    if (later) await queueRescore(tx, [match.id], scope.now);
    // Checked against the match as this transaction sees it: a shoot-out recorded meanwhile counts.
    const current = await tx.match.findUniqueOrThrow({ where: { id: match.id } });
    const firstLeg = (await firstLegsOf(tx, [current])).get(current.id) ?? null;
    const checked = checkResult(input, current, scope.now, firstLeg);
    if (!checked.ok) throw badInput(checked.message, checked.argument);
    const data = { ...checked.data, status: checked.data.status as MatchStatus };
    const row = await tx.match.update({ where: { id: match.id }, data });
    await recordAudit(tx, scope.now, {
      kind: 'RESULT_SET',
      // A custom tournament's result is its company's; a global one's, every company's that plays it.
      companyId: tournament?.ownerCompanyId ?? null,
      tournamentId: match.tournamentId,
      actorId: viewer.id,
      before: auditedResult(current),
      after: auditedResult(row),
    });
    return { row, rescored: later ? null : await rescoreMatches(tx, [match.id]) };
  });
  scope.live.publish({ kind: 'match', tournamentId: row.tournamentId, matchId: row.id });
  if (!rescored) scope.rescoring.wake();
  else if (rescored.standingsChanged)
    for (const tournamentId of rescored.tournamentIds) scope.live.publish({ kind: 'ranking', tournamentId });
  return row;
}

/**
 * A new kickoff for a match not played yet (a postponed one, say): it is SCHEDULED again and takes predictions
 * until then. Predictions already made stay.
 */
export async function rescheduleMatch(scope: RequestScope, matchId: number, date: Date): Promise<MatchRow> {
  const match = await refereedMatch(scope, matchId);
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw badInput('date must be a date-time', 'date');
  if (date.getTime() <= scope.now.getTime()) throw badInput('the new kickoff must be in the future', 'date');
  const row = await scope.write(async (tx) => {
    const current = await tx.match.findUniqueOrThrow({ where: { id: match.id } });
    if (!RESCHEDULABLE.has(current.status))
      throw conflict(`the match is ${current.status.toLowerCase()}: only a match not played yet gets a new date`);
    // Past its kickoff a match counts as played (its predictions are shown) unless it was postponed.
    if (current.status !== 'POSTPONED' && current.date <= scope.now)
      throw conflict('the match has kicked off: postpone it (setMatchResult status POSTPONED) before moving it');
    return tx.match.update({ where: { id: match.id }, data: { date, status: 'SCHEDULED', elapsedTime: null } });
  });
  scope.live.publish({ kind: 'match', tournamentId: row.tournamentId, matchId: row.id });
  return row;
}

const RESCHEDULABLE = new Set(['SCHEDULED', 'TIMED', 'POSTPONED']);

/** The first kickoff of the matches that decide dream-final positions (the final, the match for third place). */
async function decidingKickoff(scope: RequestScope, tournamentId: number): Promise<Date | null> {
  const rounds = await scope.db.round.findMany({ where: { tournamentId } });
  const ids = decidingRounds(rounds).map((r) => r.id);
  if (ids.length === 0) return null;
  const first = await scope.db.match.findFirst({ where: { roundId: { in: ids } }, orderBy: { date: 'asc' } });
  return first?.date ?? null;
}
