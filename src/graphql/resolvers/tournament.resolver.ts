import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../context.ts';
import { badInput, notFound } from '../../domain/errors.ts';
import { Match, Tournament } from '../types/football.ts';

/** The tenant's tournaments: the ones it takes part in and its own custom ones. */
async function tenantTournaments(ctx: Context) {
  const { tenant } = ctx.scope.requireTenant();
  return ctx.scope.loaders.tournamentsByCompany.load(tenant.id);
}

async function tenantTournament(ctx: Context, id: number, what: string) {
  const tournaments = await tenantTournaments(ctx);
  const t = tournaments.find((x) => x.id === id);
  if (!t) throw notFound(what, id);
  return t;
}

@Resolver()
export class TournamentResolver {
  @Query(() => [Tournament], { description: "The current company's tournaments (GET /tournaments/me)." })
  myTournaments(@Ctx() ctx: Context) {
    return tenantTournaments(ctx);
  }

  @Query(() => Tournament, { description: 'A tournament the current company takes part in or owns.' })
  async tournament(
    @Arg('id', () => Int, { description: 'A tournament the company plays (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
  ) {
    if (id < 1) throw badInput('id must be a positive integer', 'id');
    return tenantTournament(ctx, id, 'tournament');
  }

  @Query(() => Match, { description: "A match of one of the current company's tournaments." })
  async match(
    @Arg('id', () => Int, { description: "A match of one of the company's tournaments (another: " + 'NOT_FOUND).' })
    id: number,
    @Ctx() ctx: Context,
  ) {
    if (id < 1) throw badInput('id must be a positive integer', 'id');
    ctx.scope.requireTenant();
    const match = await ctx.scope.loaders.match.load(id);
    if (!match) throw notFound('match', id);
    await tenantTournament(ctx, match.tournamentId, 'match').catch(() => {
      throw notFound('match', id);
    });
    return match;
  }
}
