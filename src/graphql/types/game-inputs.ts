import { Field, InputType, Int } from 'type-graphql';
import { MatchStatus, PenaltiesWinner } from '../enums.ts';

@InputType({ description: "The caller's predicted score of one match." })
export class UpsertPredictionInput {
  @Field(() => Int, { description: "A match of one of the company's tournaments (another: " + 'NOT_FOUND).' })
  matchId!: number;
  @Field(() => Int, { description: '0 to 99.' }) homeTeamGoals!: number;
  @Field(() => Int, { description: '0 to 99.' }) awayTeamGoals!: number;
  @Field(() => PenaltiesWinner, {
    nullable: true,
    description: 'Only on matches that can go to penalties, and only with a predicted draw.',
  })
  penaltiesWinner?: 'home' | 'away' | null;
  @Field(() => Boolean, {
    nullable: true,
    description:
      "Marks the prediction as one of the round's jokers (doubled points), up to the company's jokersPerRound; " +
      'false takes the joker back. Left out: unchanged.',
  })
  isJoker?: boolean | null;
}

const FINAL = 'The final score: after extra time when extra time was played.';
const FULL_TIME =
  'The score after 90 minutes, given only when extra time was played (the final score is then the score after ' +
  'extra time); left out, the final score is the 90-minute score.';

@InputType({ description: "A match's result, as a referee records it." })
export class SetMatchResultInput {
  @Field(() => Int, { description: 'The match.' }) matchId!: number;
  @Field(() => Int, { nullable: true, description: FINAL }) homeTeamGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FINAL }) awayTeamGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FULL_TIME }) homeTeamFullTimeGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FULL_TIME }) awayTeamFullTimeGoals?: number | null;
  @Field(() => Int, { nullable: true, description: 'The shoot-out: both or neither.' }) homeTeamPenaltyGoals?:
    number | null;
  @Field(() => Int, { nullable: true, description: 'The shoot-out: both or neither.' }) awayTeamPenaltyGoals?:
    number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Removes a recorded shoot-out: a correction without penalty scores is refused otherwise.',
  })
  noShootOut?: boolean | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Removes recorded extra time: a correction without the 90-minute score is refused otherwise.',
  })
  noExtraTime?: boolean | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'Minutes played (0 to 150), while the match is IN_PLAY or PAUSED; omitted keeps the clock shown so far. ' +
      'Other statuses clear it.',
  })
  elapsedTime?: number | null;
  @Field(() => MatchStatus, { description: 'Its new status.' }) status!: string;
}
