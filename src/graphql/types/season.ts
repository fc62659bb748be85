import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One tournament of a season and the weight its points count with.', simpleResolvers: true })
export class SeasonTournament {
  @Field(() => Float, { description: "Multiplies the tournament's points in the season's ranking (positive)." })
  weight!: number;
  tournamentId!: number;
}

@ObjectType({
  description: "Several of the company's tournaments ranked together (seasonRanking).",
  simpleResolvers: true,
})
export class Season {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'Its name, unique in the company.' }) name!: string;
  @Field(() => [SeasonTournament], { description: 'Its tournaments, in the order they were given.' })
  tournaments!: SeasonTournament[];
}

@InputType({ description: 'A season: its name, tournaments and their weights.' })
export class SeasonInput {
  @Field(() => String, { description: '1 to 100 characters, unique in the company.' }) name!: string;
  @Field(() => [Int], {
    description: 'Tournaments the company plays, 1 to 20 (one listed twice counts once).',
  })
  tournamentIds!: number[];
  @Field(() => [Float], {
    nullable: true,
    description:
      "One per tournament, in tournamentIds' order: more than 0, at most 100, in hundredths; left out, 1 each.",
  })
  weights?: number[] | null;
}

@InputType({ description: 'A season changed: what is left out keeps its value.' })
export class SeasonUpdateInput {
  @Field(() => String, { nullable: true, description: '1 to 100 characters, unique in the company.' })
  name?: string | null;
  @Field(() => [Int], {
    nullable: true,
    description: "Replaces the season's tournaments (1 to 20 the company plays), with weights or 1 each.",
  })
  tournamentIds?: number[] | null;
  @Field(() => [Float], {
    nullable: true,
    description: 'One per tournament of tournamentIds (given with them): more than 0, at most 100, in hundredths.',
  })
  weights?: number[] | null;
}
