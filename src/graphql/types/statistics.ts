import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Round } from './football.ts';
import { RankingUser } from './ranking.ts';

@ObjectType({ description: 'A score as the company predicted it, and how many predicted it.', simpleResolvers: true })
export class PredictedScoreCount {
  @Field(() => Int, { description: 'Predicted home goals.' }) homeTeamGoals!: number;
  @Field(() => Int, { description: 'Predicted away goals.' }) awayTeamGoals!: number;
  @Field(() => Int, { description: 'Predictions of this score.' }) count!: number;
}

@ObjectType({
  description:
    'How the company the request acts on predicted a match: the predictions of the people its rankings count ' +
    '(active users; admins only when scoringSettings.rankAdmins).',
})
export class MatchStatistics {
  @Field(() => Int, { description: 'Predictions counted.' }) predictions!: number;
  @Field(() => Int, { description: 'Of them, a home win predicted.' }) home!: number;
  @Field(() => Int, { description: 'Of them, a draw predicted.' }) draw!: number;
  @Field(() => Int, { description: 'Of them, an away win predicted.' }) away!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Average points of the scored predictions, rounded to hundredths; null while none is scored.',
  })
  averagePoints?: number | null;
}

@ObjectType({ description: 'A decided round of a tournament and who won it.', simpleResolvers: true })
export class RoundWinners {
  @Field(() => Round, { description: 'The round.' }) round!: Round;
  @Field(() => Float, {
    description: "The winners' points in the round (decimal where round multipliers make it so); 0 when nobody scored.",
  })
  points!: number;
  @Field(() => [RankingUser], {
    nullable: 'items',
    description:
      'The ranked people with the most points in the round (more than 0), all of them when level, by name; [] when ' +
      'nobody scored. An entry is null where rankings hide names from the caller (disableRankingsUserNames).',
  })
  winners!: Array<RankingUser | null>;
}
