// Rankings. The work is src/app/rankings.ts's; these map arguments to it.
import { Args, ArgsType, Ctx, Field, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import * as rankings from '../../app/rankings.ts';
import type { Context } from '../context.ts';
import { Ranking, RankingEntry, RankingUser } from '../types/ranking.ts';

@ArgsType()
class RankingArgs implements rankings.RankingArgs {
  // In the order the arguments had as @Arg parameters, so introspection lists them as before.
  @Field(() => Int, {
    nullable: true,
    description:
      "Index into the company's combinedRoundsRankingDefinitions; each definition is " +
      '"<label>:<roundId>,<roundId>,..." (the label is optional).',
  })
  combinedRoundsDefinition?: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Only the members of this internal ranking (the caller must be one).',
  })
  internalRankingId?: number;
  @Field(() => [Int], {
    nullable: true,
    description: 'A combined-rounds ranking: the points of these rounds together.',
  })
  roundIds?: number[];
  @Field(() => Int, { description: 'Entries per page, 1 to 100 (default 20).', nullable: true }) take?: number;
  @Field(() => Int, { description: 'Entries to pass over, >= 0 (default 0).', nullable: true }) skip?: number;
  @Field(() => Int, {
    description: 'Only people placed in this area of the company (another: NOT_FOUND).',
    nullable: true,
  })
  areaId?: number;
  @Field(() => Int, { description: 'Points of this round only.', nullable: true }) roundId?: number;
  @Field(() => Int, { description: 'A tournament the company plays (another: NOT_FOUND).' }) tournamentId!: number;
}

@Resolver()
export class RankingResolver {
  @Query(() => Ranking, {
    description:
      "A page of a tournament's ranking in the current company: general, per round, per area (any level), as the " +
      "company's featureSettings.rankings allow (admins see every ranking).",
  })
  ranking(@Args(() => RankingArgs) args: RankingArgs, @Ctx() ctx: Context) {
    return rankings.ranking(ctx.scope, args);
  }
}

@Resolver(() => RankingEntry)
export class RankingEntryFields {
  @FieldResolver(() => RankingUser, {
    nullable: true,
    description:
      "The ranked user. null for every entry but the caller's own when the company sets disableRankingsUserNames and " +
      "the caller is a player (admins, the company's reseller and managers still see who is ranked).",
  })
  user(@Root() entry: RankingEntry, @Ctx() ctx: Context) {
    return rankings.rankedUser(ctx.scope, entry.userId);
  }
}
