// Tournament, Country, Team, Round, Match, Prediction, DreamFinalsSetting (spec 2.9).
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { MatchStatus, PenaltiesWinner, PredictionStatus } from '../enums.ts';
import { DateTime } from '../scalars.ts';

@ObjectType({ simpleResolvers: true })
export class Tournament {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) logoUrl?: string | null;
  @Field(() => Boolean, { nullable: true }) isActive?: boolean | null;
  @Field(() => DateTime, { nullable: true }) endDate?: Date | null;
  @Field(() => Boolean, { nullable: true }) hasPenalties?: boolean | null;
  @Field(() => Boolean) hasTwoWayMatches!: boolean;
  @Field(() => Boolean) importNewMatchesWithPenalties!: boolean;
  @Field(() => Boolean) showNoMoreRoundsWarning!: boolean;
  @Field(() => String, { nullable: true }) season?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class Country {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) alpha2Code?: string | null;
  @Field(() => String, { nullable: true }) flagUrl?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class Team {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) logoUrl?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class Round {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => DateTime) date!: Date;
  @Field(() => Boolean) hasPenalties!: boolean;
  @Field(() => Int) position!: number;
  @Field(() => String, { nullable: true }) externalId?: string | null;
}

const FINAL_SCORE = 'The final score: after extra time when extra time was played, else after 90 minutes.';
const FULL_TIME_SCORE = 'The score after 90 minutes (stoppage time included).';
const EXTRA_TIME_SCORE = 'The score after extra time; null when no extra time was played.';

@ObjectType({ simpleResolvers: true })
export class Match {
  @Field(() => Int) id!: number;
  @Field(() => DateTime, { description: 'Kickoff, UTC.' }) date!: Date;
  @Field(() => String) venue!: string;
  @Field(() => String) referee!: string;
  @Field(() => Int, { nullable: true, description: FINAL_SCORE }) homeTeamGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FINAL_SCORE }) awayTeamGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FULL_TIME_SCORE }) homeTeamFullTimeGoals?: number | null;
  @Field(() => Int, { nullable: true, description: FULL_TIME_SCORE }) awayTeamFullTimeGoals?: number | null;
  @Field(() => Int, { nullable: true, description: EXTRA_TIME_SCORE }) homeTeamExtraTimeGoals?: number | null;
  @Field(() => Int, { nullable: true, description: EXTRA_TIME_SCORE }) awayTeamExtraTimeGoals?: number | null;
  @Field(() => Int, { nullable: true }) homeTeamPenaltyGoals?: number | null;
  @Field(() => Int, { nullable: true }) awayTeamPenaltyGoals?: number | null;
  @Field(() => Int, { nullable: true }) elapsedTime?: number | null;
  @Field(() => MatchStatus) status!: string;
  @Field(() => PenaltiesWinner, { nullable: true }) penaltiesWinner?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
  @Field(() => Boolean, { nullable: true }) alreadySentOpenNotification?: boolean | null;
  @Field(() => Boolean, { nullable: true }) hasPenalties?: boolean | null;
  @Field(() => Boolean, { nullable: true }) isTwoWaysSecondMatch?: boolean | null;
  @Field(() => Boolean, { nullable: true }) wasSuspended?: boolean | null;
}

@ObjectType({ simpleResolvers: true })
export class Prediction {
  @Field(() => Int) id!: number;
  @Field(() => Int) homeTeamGoals!: number;
  @Field(() => Int) awayTeamGoals!: number;
  @Field(() => PenaltiesWinner, { nullable: true }) penaltiesWinner?: string | null;
  @Field(() => PredictionStatus) status!: string;
  @Field(() => Float, {
    nullable: true,
    description: "Points earned under the company's scoring settings; decimal where round multipliers make it so.",
  })
  points?: number | null;
  @Field(() => Boolean, { description: "One of the round's jokers (scoringSettings.jokersPerRound): points doubled." })
  isJoker!: boolean;
}

@ObjectType({ simpleResolvers: true })
export class DreamFinalsSetting {
  @Field(() => Int) id!: number;
  @Field(() => Int) awardedPositions!: number;
  @Field(() => Int) awardedPoints!: number;
  @Field(() => Boolean) isEnabled!: boolean;
  @Field(() => String, { nullable: true }) externalId?: string | null;
}

@ObjectType({
  simpleResolvers: true,
  description: "A user's pick of the team that finishes in a position (1 = champion).",
})
export class DreamFinalPick {
  @Field(() => Int) position!: number;
  @Field(() => Int, { nullable: true, description: 'awardedPoints when right, 0 when wrong, null until decided.' })
  points?: number | null;
}
