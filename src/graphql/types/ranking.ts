import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true })
export class RankingEntry {
  @Field(() => Int, { description: 'Ties share a position; the next is skipped (1, 2, 2, 4).' }) position!: number;
  @Field(() => Int) points!: number;
  @Field(() => Int) exactHits!: number;
  @Field(() => Int) outcomeHits!: number;
  userId!: number;
}

@ObjectType({ simpleResolvers: true })
export class RankingMe {
  @Field(() => Int) position!: number;
  @Field(() => Int) points!: number;
  @Field(() => Int) exactHits!: number;
  @Field(() => Int) outcomeHits!: number;
}

@ObjectType({ simpleResolvers: true })
export class Ranking {
  @Field(() => Int, { description: 'Users ranked (the whole ranking, not the page).' }) total!: number;
  @Field(() => [RankingEntry]) entries!: RankingEntry[];
  @Field(() => RankingMe, { nullable: true, description: "The caller's standing; null when the caller is not in this ranking." }) me?: RankingMe | null;
}
