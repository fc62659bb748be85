import { Field, InputType, Int } from 'type-graphql';
import { MatchStatus, PenaltiesWinner } from '../enums.ts';

@InputType()
export class UpsertPredictionInput {
  @Field(() => Int) matchId!: number;
  @Field(() => Int, { description: '0 to 99.' }) homeTeamGoals!: number;
  @Field(() => Int, { description: '0 to 99.' }) awayTeamGoals!: number;
  @Field(() => PenaltiesWinner, {
    nullable: true,
    description: 'Only on matches that can go to penalties, and only with a predicted draw.',
  })
  penaltiesWinner?: 'home' | 'away' | null;
}

@InputType()
export class SetMatchResultInput {
  @Field(() => Int) matchId!: number;
  @Field(() => Int, { nullable: true, description: 'After extra time when extra time was played.' }) homeTeamGoals?:
    number | null;
  @Field(() => Int, { nullable: true, description: 'After extra time when extra time was played.' }) awayTeamGoals?:
    number | null;
  @Field(() => Int, { nullable: true }) homeTeamPenaltyGoals?: number | null;
  @Field(() => Int, { nullable: true }) awayTeamPenaltyGoals?: number | null;
  @Field(() => MatchStatus) status!: string;
}
