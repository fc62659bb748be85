import { Field, Float, Int, ObjectType } from 'type-graphql';

const POINTS = 'Decimal where round multipliers make it so.';
const ROUND_WINS =
  'Rounds won (most points of the round among the ranked people); given only under the ROUND_WINS tie rule.';

/**
 * A user as a ranking shows them: who is in which place, nothing more. Rankings are read by every player of
 * the company, so no e-mail, extra fields, role, areas or activity (the spec's User forms carry those).
 */
@ObjectType({
  simpleResolvers: true,
  description:
    'A user as rankings and private leagues show them to colleagues: id, name and picture. Nothing personal (no ' +
    "e-mail, extra fields, role or activity): read a user's full form through the operations that show it.",
})
export class RankingUser {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'Their name.' }) name!: string;
  @Field(() => String, { description: 'Profile picture URL; null when none.', nullable: true }) profilePictureUrl?:
    string | null;
}

@ObjectType({ description: 'One ranked user of a ranking page.', simpleResolvers: true })
export class RankingEntry {
  @Field(() => Int, { description: 'Ties share a position; the next is skipped (1, 2, 2, 4).' }) position!: number;
  @Field(() => Float, { description: POINTS }) points!: number;
  @Field(() => Int, { description: 'Predictions with the exact score.' }) exactHits!: number;
  @Field(() => Int, {
    description: 'Predictions with the right outcome (win, draw, loss) but not the exact score.',
  })
  outcomeHits!: number;
  @Field(() => Int, { nullable: true, description: ROUND_WINS }) roundWins?: number | null;
  userId!: number;
}

@ObjectType({ description: "The caller's own standing in a ranking.", simpleResolvers: true })
export class RankingMe {
  @Field(() => Int, { description: 'Ties share a position; the next is skipped (1, 2, 2, 4).' }) position!: number;
  @Field(() => Float, { description: POINTS }) points!: number;
  @Field(() => Int, { description: 'Predictions with the exact score.' }) exactHits!: number;
  @Field(() => Int, {
    description: 'Predictions with the right outcome (win, draw, loss) but not the exact score.',
  })
  outcomeHits!: number;
  @Field(() => Int, { nullable: true, description: ROUND_WINS }) roundWins?: number | null;
}

@ObjectType({
  description: 'A page of a ranking: general, of a round, of an area or of a private league.',
  simpleResolvers: true,
})
export class Ranking {
  @Field(() => Int, { description: 'Users ranked (the whole ranking, not the page).' }) total!: number;
  @Field(() => [RankingEntry], { description: 'The page, best first; [] past the end.' }) entries!: RankingEntry[];
  @Field(() => RankingMe, {
    nullable: true,
    description: "The caller's standing; null when the caller is not in this ranking.",
  })
  me?: RankingMe | null;
  @Field(() => Boolean, {
    description:
      "A rescoring job has yet to rescore some of this ranking's predictions (a change of game rules, a corrected " +
      'result): positions may still move. rescoreStatus says how far it has got.',
  })
  recomputing!: boolean;
}
