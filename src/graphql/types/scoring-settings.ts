// The game's rules a company chooses (src/domain/scoring-settings.ts): read on Company.scoringSettings, changed by
// updateScoringSettings.
import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTime } from '../scalars.ts';
import type { ScoringBasis, TieRule } from '../../domain/scoring-settings.ts';
import { Company } from './company.ts';

export const ScoringBasisEnum = { AFTER_EXTRA_TIME: 'AFTER_EXTRA_TIME', FULL_TIME: 'FULL_TIME' } as const;
export const TieRuleEnum = { HITS: 'HITS', POINTS: 'POINTS', ROUND_WINS: 'ROUND_WINS' } as const;

registerEnumType(ScoringBasisEnum, {
  name: 'ScoringBasis',
  description: 'The score predictions are compared with.',
  valuesConfig: {
    AFTER_EXTRA_TIME: { description: 'The final score: after extra time when it was played (the default).' },
    FULL_TIME: { description: 'The score after 90 minutes, stoppage time included.' },
  },
});
registerEnumType(TieRuleEnum, {
  name: 'TieRule',
  description: 'Who shares a position in rankings; the next position is skipped (1, 2, 2, 4).',
  valuesConfig: {
    HITS: { description: 'Equal points, exact hits and outcome hits (the default; more of each ranks higher).' },
    POINTS: { description: 'Equal points.' },
    ROUND_WINS: {
      description:
        'Equal points and rounds won; more rounds won ranks higher. A round is won by whoever of the ranked ' +
        'people made the most points in it (more than 0); people level on the most points each win it.',
    },
  },
});

@ObjectType({ description: 'A round whose points are multiplied.' })
export class RoundMultiplier {
  @Field(() => Int, { description: 'The round.' }) roundId!: number;
  @Field(() => Float, { description: 'From 0 to 100, in hundredths at most.' }) multiplier!: number;
}

@InputType({ description: 'A round whose points are multiplied.' })
export class RoundMultiplierInput {
  @Field(() => Int, { description: "A round of one of the company's tournaments." }) roundId!: number;
  @Field(() => Float, { description: 'From 0 to 100, in hundredths at most.' }) multiplier!: number;
}

const D = {
  exactScore: 'Points for the exact score. Default 3.',
  goalDifference:
    'Points for the right winner and the right goal difference when not exact. Never for draws: a draw that is ' +
    'not exact earns `outcome`. Default: the same as `outcome`.',
  outcome: 'Points for the right outcome (home win, draw, away win) when not exact. Default 1.',
  penaltiesWinner:
    "Added for a predicted draw naming the shoot-out's winner (in a second leg, any prediction naming it). " +
    'Default 1.',
  advancingTeam:
    'Added for naming the team that goes through in a match that can go to penalties: the predicted winner, or ' +
    'the named shoot-out winner for a predicted draw; over both legs for a second leg. Default 0.',
  basis: 'The score predictions are compared with. Default AFTER_EXTRA_TIME.',
  roundMultipliers:
    "Multiply a round's points (after bonuses); rounds not listed count once. Points may become decimals: they " +
    'are kept in hundredths.',
  predictionDeadlineMinutes: 'Predictions close this many minutes before kickoff. Default 0 (at kickoff).',
  jokersPerRound:
    'How many predictions per round a player may mark as a joker (isJoker), doubling their points. Default 0: no ' +
    'jokers (and jokers placed earlier stop counting). Lowered, jokers already placed stay and count.',
  tieRule: 'Who shares a position in rankings. Default HITS.',
  rankAdmins: "Whether the company's admins (and resellers, managers) appear in rankings. Default true.",
  rankNonPlayers:
    'Whether people who never played in the tournament (no prediction, dream-final pick or bonus answer) appear in ' +
    'its rankings. Default true.',
};

@ObjectType({
  description:
    "The company's game rules: points, the score compared, round multipliers, deadline, jokers, ties and who is " +
    'ranked. Read by anyone in the company; changed by updateScoringSettings.',
})
export class ScoringSettings {
  @Field(() => Float, { description: D.exactScore }) exactScore!: number;
  @Field(() => Float, { description: D.goalDifference }) goalDifference!: number;
  @Field(() => Float, { description: D.outcome }) outcome!: number;
  @Field(() => Float, { description: D.penaltiesWinner }) penaltiesWinner!: number;
  @Field(() => Float, { description: D.advancingTeam }) advancingTeam!: number;
  @Field(() => ScoringBasisEnum, { description: D.basis }) basis!: ScoringBasis;
  @Field(() => [RoundMultiplier], { description: D.roundMultipliers }) roundMultipliers!: RoundMultiplier[];
  @Field(() => Int, { description: D.predictionDeadlineMinutes }) predictionDeadlineMinutes!: number;
  @Field(() => Int, { description: D.jokersPerRound }) jokersPerRound!: number;
  @Field(() => TieRuleEnum, { description: D.tieRule }) tieRule!: TieRule;
  @Field(() => Boolean, { description: D.rankAdmins }) rankAdmins!: boolean;
  @Field(() => Boolean, { description: D.rankNonPlayers }) rankNonPlayers!: boolean;
}

@InputType({ description: 'Fields left out keep their value. Points in hundredths at most, from 0 to 1000.' })
export class ScoringSettingsInput {
  @Field(() => Float, { nullable: true, description: D.exactScore }) exactScore?: number;
  @Field(() => Float, { nullable: true, description: `${D.goalDifference} Null: back to the default.` })
  goalDifference?: number | null;
  @Field(() => Float, { nullable: true, description: D.outcome }) outcome?: number;
  @Field(() => Float, { nullable: true, description: D.penaltiesWinner }) penaltiesWinner?: number;
  @Field(() => Float, { nullable: true, description: D.advancingTeam }) advancingTeam?: number;
  @Field(() => ScoringBasisEnum, { nullable: true, description: D.basis }) basis?: ScoringBasis;
  @Field(() => [RoundMultiplierInput], { nullable: true, description: `${D.roundMultipliers} Replaces the list.` })
  roundMultipliers?: RoundMultiplierInput[];
  @Field(() => Int, { nullable: true, description: D.predictionDeadlineMinutes }) predictionDeadlineMinutes?: number;
  @Field(() => Int, { nullable: true, description: D.jokersPerRound }) jokersPerRound?: number;
  @Field(() => TieRuleEnum, { nullable: true, description: D.tieRule }) tieRule?: TieRule;
  @Field(() => Boolean, { nullable: true, description: D.rankAdmins }) rankAdmins?: boolean;
  @Field(() => Boolean, { nullable: true, description: D.rankNonPlayers }) rankNonPlayers?: boolean;
}

@ObjectType({ description: 'What updateScoringSettings changed.' })
export class ScoringSettingsUpdate {
  @Field(() => Company, { description: 'The company, with its new settings.' }) company!: Company;
  @Field(() => ScoringSettings, { description: 'The game rules now in force.' }) scoringSettings!: ScoringSettings;
  @Field(() => Int, {
    description:
      'Predictions whose points changed under the new rules (rescored in the same step; 0 when rescoreJobsQueued ' +
      'is not).',
  })
  rescoredPredictions!: number;
  @Field(() => Int, {
    description:
      'Decided matches rescored by a job after this response, because the company has more decided predictions than ' +
      'the server rescores in a request (RESCORE_IN_REQUEST_MAX_PREDICTIONS): their points follow within seconds. ' +
      '0 when everything was rescored in the same step.',
  })
  rescoreJobsQueued!: number;
}

@ObjectType({
  description:
    "A company's rescoring in jobs (a change of game rules, or a result on a match with many predictions, past " +
    'RESCORE_IN_REQUEST_MAX_PREDICTIONS): how far it has got.',
})
export class RescoreStatus {
  @Field(() => Int, { description: 'Matches whose predictions of the company wait for their job.' })
  pendingMatches!: number;
  @Field(() => Int, { description: 'Matches rescored since this rescoring started.' }) doneMatches!: number;
  @Field(() => DateTime, { nullable: true, description: 'When it started; null when the company never had one.' })
  startedAt!: Date | null;
  @Field(() => DateTime, {
    nullable: true,
    description: 'When its last match was rescored; null while matches wait (or when it never started).',
  })
  finishedAt!: Date | null;
}
