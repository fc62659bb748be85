// Tournament, Country, Team, Round, Match, Prediction, DreamFinalsSetting (spec 2.9).
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { MatchStatus, PenaltiesWinner, PredictionStatus } from '../enums.ts';
import { DateTime } from '../scalars.ts';

@ObjectType({
  description: 'A tournament: global (imported, companies enter it) or a ' + "company's custom one.",
  simpleResolvers: true,
})
export class Tournament {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'Its name.' }) name!: string;
  @Field(() => String, { description: 'Logo image URL; null when none.', nullable: true }) logoUrl?: string | null;
  @Field(() => Boolean, { description: 'Shown as being played; null when unset.', nullable: true }) isActive?:
    boolean | null;
  @Field(() => DateTime, { description: 'When it ends (UTC); null when open-ended.', nullable: true })
  endDate?: Date | null;
  @Field(() => Boolean, { description: 'Its matches can go to penalties by default; null when unset.', nullable: true })
  hasPenalties?: boolean | null;
  @Field(() => Boolean, { description: 'Knockout ties are played over two legs.' }) hasTwoWayMatches!: boolean;
  @Field(() => Boolean, { description: 'Imported matches can go to penalties.' })
  importNewMatchesWithPenalties!: boolean;
  @Field(() => Boolean, { description: 'Clients warn that no more rounds are scheduled.' })
  showNoMoreRoundsWarning!: boolean;
  @Field(() => String, { description: 'The season, e.g. 2026; null when none.', nullable: true }) season?:
    string | null;
  @Field(() => String, {
    description: 'Id in the source it was imported from; null for custom tournaments.',
    nullable: true,
  })
  externalId?: string | null;
}

@ObjectType({ description: 'A country, for tournaments and teams.', simpleResolvers: true })
export class Country {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'Its name.' }) name!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2 code; null when unknown.', nullable: true }) alpha2Code?:
    string | null;
  @Field(() => String, { description: 'Flag image URL; null when none.', nullable: true }) flagUrl?: string | null;
}

@ObjectType({ description: "A team: global, or a company's own.", simpleResolvers: true })
export class Team {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'Its name.' }) name!: string;
  @Field(() => String, { description: 'Logo image URL; null when none.', nullable: true }) logoUrl?: string | null;
  @Field(() => String, { description: 'Id in the source it was imported from; null when none.', nullable: true })
  externalId?: string | null;
}

@ObjectType({ description: 'A round (matchday or stage) of a tournament.', simpleResolvers: true })
export class Round {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'e.g. "Matchday 1", "Final".' }) name!: string;
  @Field(() => DateTime, { description: 'When it starts (UTC).' }) date!: Date;
  @Field(() => Boolean, { description: 'Its matches can go to penalties.' }) hasPenalties!: boolean;
  @Field(() => Int, { description: 'Order in the tournament, from 1.' }) position!: number;
  @Field(() => String, { description: 'Id in the source it was imported from; null when none.', nullable: true })
  externalId?: string | null;
}

const FINAL_SCORE = 'The final score: after extra time when extra time was played, else after 90 minutes.';
const FULL_TIME_SCORE = 'The score after 90 minutes (stoppage time included).';
const EXTRA_TIME_SCORE = 'The score after extra time; null when no extra time was played.';

@ObjectType({ description: 'A match of a round.', simpleResolvers: true })
export class Match {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => DateTime, { description: 'Kickoff, UTC.' }) date!: Date;
  @Field(() => String, { description: 'Where it is played.' }) venue!: string;
  @Field(() => String, { description: 'The referee; empty when unknown.' }) referee!: string;
  @Field(() => Int, { nullable: true, description: FINAL_SCORE }) homeTeamGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FINAL_SCORE }) awayTeamGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FULL_TIME_SCORE }) homeTeamFullTimeGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FULL_TIME_SCORE }) awayTeamFullTimeGoals?: number | null;
  @Field(() => Int, { nullable: true, description: EXTRA_TIME_SCORE }) homeTeamExtraTimeGoals?: number | null;
  @Field(() => Int, { nullable: true, description: EXTRA_TIME_SCORE }) awayTeamExtraTimeGoals?: number | null;
  @Field(() => Int, { description: 'Home shoot-out goals; null when there was no shoot-out.', nullable: true })
  homeTeamPenaltyGoals?: number | null;
  @Field(() => Int, { description: 'Away shoot-out goals; null when there was no shoot-out.', nullable: true })
  awayTeamPenaltyGoals?: number | null;
  @Field(() => Int, { description: 'Minutes played, while IN_PLAY or PAUSED; else null.', nullable: true })
  elapsedTime?: number | null;
  @Field(() => MatchStatus, { description: 'Where the match stands.' }) status!: string;
  @Field(() => PenaltiesWinner, { description: 'Who won the shoot-out; null when there was none.', nullable: true })
  penaltiesWinner?: string | null;
  @Field(() => String, { description: 'Id in the source it was imported from; null when none.', nullable: true })
  externalId?: string | null;
  @Field(() => Boolean, {
    description:
      'A reminder to predict it (pendingMatchesPredictions) went out to someone for a closing time; false or ' +
      'null: not yet.',
    nullable: true,
  })
  alreadySentOpenNotification?: boolean | null;
  @Field(() => Boolean, { description: 'It can go to penalties (a knockout match).', nullable: true }) hasPenalties?:
    boolean | null;
  @Field(() => Boolean, { description: 'It is the second leg of a two-legged tie.', nullable: true })
  isTwoWaysSecondMatch?: boolean | null;
  @Field(() => Boolean, { description: 'It was suspended at some point.', nullable: true }) wasSuspended?:
    boolean | null;
}

@ObjectType({ description: "A user's predicted score of a match.", simpleResolvers: true })
export class Prediction {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => Int, { description: 'Predicted home goals (0 to 99).' }) homeTeamGoals!: number;
  @Field(() => Int, { description: 'Predicted away goals (0 to 99).' }) awayTeamGoals!: number;
  @Field(() => PenaltiesWinner, {
    description: 'Predicted shoot-out winner, for a predicted draw; null when none.',
    nullable: true,
  })
  penaltiesWinner?: string | null;
  @Field(() => PredictionStatus, { description: 'Whether it has been scored.' }) status!: string;
  @Field(() => Float, {
    nullable: true,
    description: "Points earned under the company's scoring settings; decimal where round multipliers make it so.",
  })
  points?: number | null;
  @Field(() => Boolean, { description: "One of the round's jokers (scoringSettings.jokersPerRound): points doubled." })
  isJoker!: boolean;
}

@ObjectType({
  description: "A company's dream finals game: players pick the tournament's " + 'final standings.',
  simpleResolvers: true,
})
export class DreamFinalsSetting {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => Int, { description: 'How many top positions are picked (1 = champion only).' })
  awardedPositions!: number;
  @Field(() => Int, { description: 'Points for each right pick.' }) awardedPoints!: number;
  @Field(() => Boolean, { description: 'Players may pick.' }) isEnabled!: boolean;
  @Field(() => String, { description: 'Id in an external system; null when none.', nullable: true }) externalId?:
    string | null;
}

@ObjectType({
  simpleResolvers: true,
  description: "A user's pick of the team that finishes in a position (1 = champion).",
})
export class DreamFinalPick {
  @Field(() => Int, { description: 'The finishing position picked (1 = champion).' }) position!: number;
  @Field(() => Int, { nullable: true, description: 'awardedPoints when right, 0 when wrong, null until decided.' })
  points?: number | null;
}
