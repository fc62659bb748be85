// The game's writes: a user's prediction, and a match result (which rescores every prediction it touches).
import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { rescoreMatches } from '../../game/rescore.ts';
import { checkResult, predictionProblem } from '../../game/predictions.ts';
import type { Db } from '../../db/client.ts';
import { requireTenant, type Context } from '../context.ts';
import { badInput, forbidden, notFound } from '../../domain/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { DreamFinalsSetting, Match, Prediction } from '../types/football.ts';
import { SetMatchResultInput, UpsertPredictionInput } from '../types/game-inputs.ts';


@Resolver()
export class GameResolver {
  @Mutation(() => Prediction, {
    description: "The caller's prediction of a match of one of their company's tournaments; allowed until kickoff (server clock, UTC).",
  })
  async upsertPrediction(@Arg('input', () => UpsertPredictionInput) input: UpsertPredictionInput, @Ctx() ctx: Context) {
    const { viewer, tenant } = requireTenant(ctx);
    if (tenant.id !== viewer.companyId) throw forbidden('predictions are made in your own company');
    const match = await ctx.loaders.match.load(input.matchId);
    const tournaments = await ctx.loaders.tournamentsByCompany.load(tenant.id);
    if (!match || !tournaments.some((t) => t.id === match.tournamentId)) throw notFound('match', input.matchId);
    const problem = predictionProblem(match, input, ctx.now);
    if (problem?.kind === 'input') throw badInput(problem.message, problem.argument);
    if (problem?.kind === 'closed') throw forbidden(problem.message);

    const key = { userId_matchId: { userId: viewer.id, matchId: match.id } };
    const values = { homeTeamGoals: input.homeTeamGoals, awayTeamGoals: input.awayTeamGoals, penaltiesWinner: input.penaltiesWinner ?? null };
    const write = () => ctx.prisma.prediction.upsert({ where: key, create: { userId: viewer.id, matchId: match.id, ...values }, update: values });
    let prediction;
    try {
      prediction = await write();
    } catch (err) {
      // Two concurrent first predictions: both tried to insert; the unique index let one win. Update it.
      if (!isUniqueViolation(err)) throw err;
      prediction = await write();
    }
    ctx.loaders.clearAll();
    return prediction;
  }

  @Mutation(() => DreamFinalsSetting, {
    description: "The caller's dream-final picks: teamIds[0] finishes first, and so on, one team per awarded position; allowed until the limit round starts.",
  })
  async setDreamFinalPicks(@Arg('settingId', () => Int) settingId: number, @Arg('teamIds', () => [Int]) teamIds: number[], @Ctx() ctx: Context) {
    const { viewer, tenant } = requireTenant(ctx);
    if (tenant.id !== viewer.companyId) throw forbidden('dream finals are played in your own company');
    const setting = await ctx.prisma.dreamFinalsSetting.findUnique({ where: { id: settingId } });
    if (!setting || setting.companyId !== tenant.id || !setting.isEnabled) throw notFound('dream finals setting', settingId);
    const limitRound = await ctx.loaders.round.load(setting.limitRoundId);
    if (limitRound && ctx.now.getTime() >= limitRound.date.getTime()) throw forbidden(`dream-final picks closed when ${limitRound.name} started (${limitRound.date.toISOString()})`);
    if (teamIds.length !== setting.awardedPositions) throw badInput(`pick exactly ${setting.awardedPositions} teams, in finishing order`, 'teamIds');
    if (new Set(teamIds).size !== teamIds.length) throw badInput('a team can finish in one position only', 'teamIds');
    const playing = await ctx.prisma.match.findMany({
      where: { tournamentId: setting.tournamentId, OR: [{ homeTeamId: { in: teamIds } }, { awayTeamId: { in: teamIds } }] },
      select: { homeTeamId: true, awayTeamId: true },
    });
    const inTournament = new Set(playing.flatMap((m) => [m.homeTeamId, m.awayTeamId]));
    const stranger = teamIds.find((id) => !inTournament.has(id));
    if (stranger !== undefined) throw badInput(`team ${stranger} does not play in this tournament`, 'teamIds');
    await ctx.prisma.$transaction([
      ctx.prisma.dreamFinalPick.deleteMany({ where: { settingId, userId: viewer.id } }),
      ctx.prisma.dreamFinalPick.createMany({ data: teamIds.map((teamId, i) => ({ settingId, userId: viewer.id, position: i + 1, teamId })) }),
    ]);
    ctx.loaders.clearAll();
    return setting;
  }

  @Mutation(() => Match, {
    description: "Sets a match's result and rescores its predictions in one transaction. Managers may set any match; admins only matches of their company's custom tournaments.",
  })
  async setMatchResult(@Arg('input', () => SetMatchResultInput) input: SetMatchResultInput, @Ctx() ctx: Context) {
    const { viewer, tenant } = requireTenant(ctx);
    const match = await ctx.loaders.match.load(input.matchId);
    const tournament = match ? await ctx.loaders.tournament.load(match.tournamentId) : null;
    if (!match || !tournament) throw notFound('match', input.matchId);
    const ownsTournament = tournament.ownerCompanyId === tenant.id && tenant.id === viewer.companyId && viewer.role === 'admin';
    if (viewer.role !== 'manager' && !ownsTournament) {
      // Do not tell a company's admin whether a match of another tenant exists.
      const visible = (await ctx.loaders.tournamentsByCompany.load(tenant.id)).some((t) => t.id === tournament.id);
      if (!visible) throw notFound('match', input.matchId);
      throw forbidden("only managers, and admins of the company owning a custom tournament, set results");
    }
    const checked = checkResult(input);
    if (!checked.ok) throw badInput(checked.message, checked.argument);
    const updated = await ctx.prisma.$transaction(async (tx) => {
      const row = await tx.match.update({ where: { id: match.id }, data: checked.data as never });
      await rescoreMatches(tx as unknown as Db, [match.id]);
      return row;
    });
    ctx.loaders.clearAll();
    return updated;
  }
}
