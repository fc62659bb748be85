import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One area of an area ranking.', simpleResolvers: true })
export class AreaRankingEntry {
  @Field(() => Int, {
    description: 'Areas with equal points share a position; the next is skipped (1, 2, 2, 4).',
  })
  position!: number;
  @Field(() => Float, { description: "The average of its ranked members' points, rounded to hundredths." })
  points!: number;
  @Field(() => Int, { description: 'Its ranked members (placed in it at this level).' }) members!: number;
  areaId!: number;
}

@ObjectType({ description: 'A page of an area ranking: the areas of one level against each other.' })
export class AreaRanking {
  @Field(() => Int, { description: 'Areas shown (the whole ranking, not the page).' }) total!: number;
  @Field(() => [AreaRankingEntry], { description: 'The page, best first; [] past the end.' })
  entries!: AreaRankingEntry[];
}
