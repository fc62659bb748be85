// What the company-tournament operations take, and what an import reports.
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { DateTime } from '../scalars.ts';

@InputType({ description: 'A custom tournament. Left out on update: unchanged; name is required to create.' })
export class CustomTournamentInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) logoUrl?: string | null;
  @Field(() => Boolean, { nullable: true }) hasPenalties?: boolean | null;
  @Field(() => Boolean, { nullable: true }) isActive?: boolean | null;
  @Field(() => DateTime, { nullable: true }) endDate?: Date | null;
}

@InputType({ description: 'A round of a custom tournament. Left out on update: unchanged; name and date to create.' })
export class CustomRoundInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'When the round starts.' }) date?: Date | null;
  @Field(() => Boolean, { nullable: true }) hasPenalties?: boolean | null;
}

@InputType()
export class CustomTeamInput {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) logoUrl?: string | null;
}

@InputType({
  description:
    "A match of a custom tournament: the company's own teams or global ones. Left out on update: unchanged; " +
    'roundId, date and both teams to create.',
})
export class CustomMatchInput {
  @Field(() => Int, { nullable: true, description: 'Only when creating.' }) roundId?: number | null;
  @Field(() => DateTime, { nullable: true }) date?: Date | null;
  @Field(() => Int, { nullable: true }) homeTeamId?: number | null;
  @Field(() => Int, { nullable: true }) awayTeamId?: number | null;
  @Field(() => String, { nullable: true }) venue?: string | null;
  @Field(() => String, { nullable: true }) group?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class ImportCount {
  @Field(() => Int) created!: number;
  @Field(() => Int, { nullable: true }) updated?: number;
  @Field(() => Int, { nullable: true }) unchanged?: number;
}

@ObjectType({ simpleResolvers: true, description: 'What an openfootball import wrote.' })
export class ImportReport {
  @Field(() => Int) tournamentId!: number;
  @Field(() => String, { description: 'created, updated or unchanged.' }) tournament!: string;
  @Field(() => ImportCount) rounds!: object;
  @Field(() => ImportCount) teams!: object;
  @Field(() => ImportCount) matches!: object;
  @Field(() => [Int], { description: 'Matches whose result changed (their predictions were rescored).' })
  changedResultMatchIds!: number[];
  @Field(() => Int) rescoredPredictions!: number;
  @Field(() => Int, {
    description:
      'Dates and results (status, score) an operator set by hand since the last import, kept because the file ' +
      'said nothing new about them.',
  })
  keptDecisions!: number;
}
