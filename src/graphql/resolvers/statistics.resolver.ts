// Match statistics and round winners. The work is src/app/match-statistics.ts's and src/app/round-winners.ts's.
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import * as statistics from '../../app/match-statistics.ts';
import { roundWinners } from '../../app/round-winners.ts';
import type { MatchRow } from '../../loaders/registry.ts';
import type { Context } from '../context.ts';
import { Match } from '../types/football.ts';
import { MatchStatistics, PredictedScoreCount, RoundWinners } from '../types/statistics.ts';

@Resolver(() => Match)
export class MatchStatisticsFields {
  @FieldResolver(() => MatchStatistics, {
    nullable: true,
    description:
      "How the company the request acts on predicted it, counted over its people's predictions; null before " +
      "kickoff, while others' predictions of it are hidden.",
  })
  statistics(@Root() m: MatchRow, @Ctx() ctx: Context) {
    return statistics.matchStatistics(ctx.scope, m);
  }
}

@Resolver(() => MatchStatistics)
export class MatchStatisticsScoreFields {
  @FieldResolver(() => [PredictedScoreCount], {
    description:
      'The most predicted scores, most first (equal counts: fewer home goals first, then fewer away goals); [] when ' +
      'nobody predicted it.',
  })
  topScores(
    @Root() s: statistics.MatchStatistics,
    @Arg('take', () => Int, {
      description: `How many, 1 to ${statistics.MAX_TOP_SCORES} (default 5).`,
      defaultValue: 5,
    })
    take: number,
  ) {
    return statistics.topScores(s, take);
  }
}

@Resolver()
export class RoundWinnersResolver {
  @Query(() => [RoundWinners], {
    description:
      'Per decided round of a tournament the company plays (every match FINISHED, AWARDED or CANCELLED and every ' +
      'prediction of them scored), in round order: the ranked people with its most points, for prizes. Players see ' +
      'it where the company shows round rankings (featureSettings.rankings.showRoundRankings); admins always.',
  })
  roundWinners(
    @Arg('tournamentId', () => Int, { description: 'A tournament the company plays (another: NOT_FOUND).' })
    tournamentId: number,
    @Ctx() ctx: Context,
  ) {
    return roundWinners(ctx.scope, tournamentId);
  }
}
