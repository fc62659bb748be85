// The game's writes: a player's prediction and dream-final picks, and a match result (which rescores every
// prediction it touches, in the same transaction).
import { isUniqueViolation } from '../db/errors.ts';
import type { DreamFinalsSettingRow, MatchRow, PredictionRow } from '../db/rows.ts';
import { badInput, forbidden, notFound } from '../domain/errors.ts';
import { checkResult, predictionProblem, type PredictionInput, type ResultInput } from '../game/predictions.ts';
import { rescoreMatches } from '../game/rescore.ts';
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
  const problem = predictionProblem(match, input, scope.now);
  if (problem?.kind === 'input') throw badInput(problem.message, problem.argument);
  if (problem?.kind === 'closed') throw forbidden(problem.message);

  const key = { userId_matchId: { userId: viewer.id, matchId: match.id } };
  const values = {
    homeTeamGoals: input.homeTeamGoals,
    awayTeamGoals: input.awayTeamGoals,
    penaltiesWinner: input.penaltiesWinner ?? null,
  };
  const write = () =>
    scope.write((tx) =>
      tx.prediction.upsert({ where: key, create: { userId: viewer.id, matchId: match.id, ...values }, update: values }),
    );
  try {
    return await write();
  } catch (err) {
    // Two concurrent first predictions: both tried to insert; the unique index let one win. Update it (in a
    // transaction of its own: PostgreSQL ends the one whose statement failed).
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
    await tx.dreamFinalPick.deleteMany({ where: { settingId, userId: viewer.id } });
    await tx.dreamFinalPick.createMany({
      data: teamIds.map((teamId, i) => ({ settingId, userId: viewer.id, position: i + 1, teamId })),
    });
  });
  return setting;
}

/** Managers set any match; admins only matches of their company's custom tournaments. */
export async function setMatchResult(scope: RequestScope, input: ResultInput & { matchId: number }): Promise<MatchRow> {
  const { viewer, tenant } = scope.requireTenant();
  const match = await scope.loaders.match.load(input.matchId);
  const tournament = match ? await scope.loaders.tournament.load(match.tournamentId) : null;
  if (!match || !tournament) throw notFound('match', input.matchId);
  const ownsTournament =
    tournament.ownerCompanyId === tenant.id && tenant.id === viewer.companyId && viewer.role === 'admin';
  if (viewer.role !== 'manager' && !ownsTournament) {
    // Do not tell a company's admin whether a match of another tenant exists.
    const visible = (await scope.loaders.tournamentsByCompany.load(tenant.id)).some((t) => t.id === tournament.id);
    if (!visible) throw notFound('match', input.matchId);
    throw forbidden('only managers, and admins of the company owning a custom tournament, set results');
  }
  const checked = checkResult(input);
  if (!checked.ok) throw badInput(checked.message, checked.argument);
  return scope.write(async (tx) => {
    const row = await tx.match.update({ where: { id: match.id }, data: checked.data as never });
    await rescoreMatches(tx, [match.id]);
    return row;
  });
}
