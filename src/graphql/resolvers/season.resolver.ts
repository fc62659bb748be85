// Seasons and team (area) rankings. The work is src/app/seasons.ts's and src/app/area-rankings.ts's; these map
// arguments to it.
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import * as areaRankings from '../../app/area-rankings.ts';
import * as seasons from '../../app/seasons.ts';
import type { Context } from '../context.ts';
import { Area } from '../types/area.ts';
import { AreaRanking, AreaRankingEntry } from '../types/area-ranking.ts';
import { Tournament } from '../types/football.ts';
import { Ranking } from '../types/ranking.ts';
import { Season, SeasonInput, SeasonTournament, SeasonUpdateInput } from '../types/season.ts';

@ArgsType()
class SeasonRankingArgs {
  @Field(() => Int, { description: 'A season of the company (another: NOT_FOUND).' }) seasonId!: number;
  @Field(() => Int, { description: 'Entries to pass over, >= 0 (default 0).', nullable: true }) skip?: number;
  @Field(() => Int, { description: 'Entries per page, 1 to 100 (default 20).', nullable: true }) take?: number;
}

@ArgsType()
class AreaRankingArgs {
  @Field(() => Int, { description: 'A tournament the company plays (another: NOT_FOUND).' }) tournamentId!: number;
  @Field(() => Int, { description: 'The level of the areas ranked: 1, 2 or 3.' }) level!: number;
  @Field(() => Int, { description: 'Entries to pass over, >= 0 (default 0).', nullable: true }) skip?: number;
  @Field(() => Int, { description: 'Entries per page, 1 to 100 (default 20).', nullable: true }) take?: number;
}

@Resolver()
export class SeasonResolver {
  @Query(() => [Season], { description: "The company's seasons, oldest first." })
  seasons(@Ctx() ctx: Context) {
    return seasons.seasons(ctx.scope);
  }

  @Query(() => Ranking, {
    description:
      "A page of a season's ranking: each person's points are the sum over the season's tournaments of their " +
      "points there times the tournament's weight; entries, ties and paging as ranking's. Shown as the company " +
      'shows its general ranking (admins always).',
  })
  seasonRanking(@Args(() => SeasonRankingArgs) args: SeasonRankingArgs, @Ctx() ctx: Context) {
    return seasons.seasonRanking(ctx.scope, args);
  }

  @Query(() => AreaRanking, {
    description:
      'The areas of one level against each other in a tournament, by the average points of their ranked members; ' +
      'areas with fewer than featureSettings.areas.minUsersForAreaRanking ranked members are left out. Players see ' +
      'it as featureSettings.rankings.visibleAreaRankings says (own: only their areas); refused under disableAreas.',
  })
  areaRanking(@Args(() => AreaRankingArgs) args: AreaRankingArgs, @Ctx() ctx: Context) {
    return areaRankings.areaRanking(ctx.scope, args);
  }

  @Mutation(() => Season, { description: 'Creates a season of the company (admins, its reseller and managers).' })
  createSeason(
    @Arg('input', () => SeasonInput, { description: 'The season.' }) input: SeasonInput,
    @Ctx() ctx: Context,
  ) {
    return seasons.createSeason(ctx.scope, input);
  }

  @Mutation(() => Season, { description: 'Changes a season of the company (admins, its reseller and managers).' })
  updateSeason(
    @Arg('id', () => Int, { description: 'A season of the company.' }) id: number,
    @Arg('input', () => SeasonUpdateInput, { description: 'What changes.' }) input: SeasonUpdateInput,
    @Ctx() ctx: Context,
  ) {
    return seasons.updateSeason(ctx.scope, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes a season of the company (admins, its reseller and managers).' })
  deleteSeason(@Arg('id', () => Int, { description: 'A season of the company.' }) id: number, @Ctx() ctx: Context) {
    return seasons.deleteSeason(ctx.scope, id);
  }
}

@Resolver(() => SeasonTournament)
export class SeasonTournamentFields {
  @FieldResolver(() => Tournament, { description: 'The tournament.' })
  tournament(@Root() row: SeasonTournament, @Ctx() ctx: Context) {
    return ctx.scope.loaders.tournament.load(row.tournamentId);
  }
}

@Resolver(() => AreaRankingEntry)
export class AreaRankingEntryFields {
  @FieldResolver(() => Area, { description: 'The area.' })
  area(@Root() entry: AreaRankingEntry, @Ctx() ctx: Context) {
    return ctx.scope.loaders.area.load(entry.areaId);
  }
}
