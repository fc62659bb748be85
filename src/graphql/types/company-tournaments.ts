// What the company-tournament operations take, and what an import reports.
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { DateTime } from '../scalars.ts';

@InputType({ description: 'A custom tournament. Left out on update: unchanged; name is required to create.' })
export class CustomTournamentInput {
  @Field(() => String, { description: '1 to 120 characters.', nullable: true }) name?: string | null;
  @Field(() => String, { description: 'An image URL; null removes it.', nullable: true }) logoUrl?: string | null;
  @Field(() => Boolean, { description: 'Whether its matches can go to penalties by default.', nullable: true })
  hasPenalties?: boolean | null;
  @Field(() => Boolean, { description: 'Whether it is shown as being played.', nullable: true }) isActive?:
    boolean | null;
  @Field(() => DateTime, { description: 'When it ends (UTC); null: open-ended.', nullable: true })
  endDate?: Date | null;
}

@InputType({ description: 'A round of a custom tournament. Left out on update: unchanged; name and date to create.' })
export class CustomRoundInput {
  @Field(() => String, { description: '1 to 120 characters.', nullable: true }) name?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'When the round starts.' }) date?: Date | null;
  @Field(() => Boolean, { description: 'Whether its matches can go to penalties.', nullable: true }) hasPenalties?:
    boolean | null;
}

@InputType({ description: "A team of the company's own." })
export class CustomTeamInput {
  @Field(() => String, { description: "1 to 120 characters, unique among the company's teams." }) name!: string;
  @Field(() => String, { description: 'An image URL.', nullable: true }) logoUrl?: string | null;
}

@InputType({
  description:
    "A match of a custom tournament: the company's own teams or global ones. Left out on update: unchanged; " +
    'roundId, date and both teams to create.',
})
export class CustomMatchInput {
  @Field(() => Int, { nullable: true, description: 'Only when creating.' }) roundId?: number | null;
  @Field(() => DateTime, { description: 'Kickoff (UTC).', nullable: true }) date?: Date | null;
  @Field(() => Int, { description: "A team of the company's own or a global one.", nullable: true }) homeTeamId?:
    number | null;
  @Field(() => Int, { description: "A team of the company's own or a global one; not the home team.", nullable: true })
  awayTeamId?: number | null;
  @Field(() => String, { description: 'Where it is played.', nullable: true }) venue?: string | null;
  @Field(() => String, { description: 'The group it belongs to, e.g. "Group A".', nullable: true }) group?:
    string | null;
  @Field(() => Boolean, {
    nullable: true,
    description:
      "Whether a draw goes to extra time and a shoot-out. A new match without it takes its round's hasPenalties; " +
      'set false before kickoff, predicted shoot-out winners are cleared.',
  })
  hasPenalties?: boolean | null;
}

@ObjectType({
  description: 'How many rows of one kind an import created, updated and left as they were.',
  simpleResolvers: true,
})
export class ImportCount {
  @Field(() => Int, { description: 'Rows created.' }) created!: number;
  @Field(() => Int, { description: 'Rows changed.', nullable: true }) updated?: number;
  @Field(() => Int, { description: 'Rows already as the file says.', nullable: true }) unchanged?: number;
}

@ObjectType({ simpleResolvers: true, description: 'What an openfootball import wrote.' })
export class ImportReport {
  @Field(() => Int, { description: 'The tournament written.' }) tournamentId!: number;
  @Field(() => String, { description: 'created, updated or unchanged.' }) tournament!: string;
  @Field(() => ImportCount, { description: 'Rounds written.' }) rounds!: object;
  @Field(() => ImportCount, { description: 'Teams written.' }) teams!: object;
  @Field(() => ImportCount, { description: 'Matches written.' }) matches!: object;
  @Field(() => [Int], { description: 'Matches whose result changed (their predictions are rescored).' })
  changedResultMatchIds!: number[];
  @Field(() => Int, {
    description: 'Predictions rescored because a result changed (in the same step; 0 when rescoreJobsQueued is not).',
  })
  rescoredPredictions!: number;
  @Field(() => Int, {
    description:
      'Matches whose predictions were more than the server rescores in a request ' +
      '(RESCORE_IN_REQUEST_MAX_PREDICTIONS), left to rescoring jobs committed with the import: their points follow ' +
      'within seconds. 0 when everything was rescored in the same step.',
  })
  rescoreJobsQueued!: number;
  @Field(() => Int, {
    description:
      'Dates and results (status, score) an operator set by hand since the last import, kept because the file ' +
      'said nothing new about them.',
  })
  keptDecisions!: number;
  @Field(() => Int, {
    description:
      'Results the file gave for matches whose kickoff is still ahead, left out as a referee would: those matches ' +
      'are imported as scheduled, and their result is taken by an import after kickoff.',
  })
  futureResultsIgnored!: number;
}
