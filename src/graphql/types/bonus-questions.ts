// Bonus questions (the spec's extra predictions), as src/app/bonus-questions.ts keeps them.
import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { BonusKind } from '../../domain/bonus-questions.ts';
import { DateTime } from '../scalars.ts';

export const BonusQuestionKindEnum = {
  CHAMPION: 'CHAMPION',
  FINALIST: 'FINALIST',
  TOP_SCORER: 'TOP_SCORER',
  NUMBER: 'NUMBER',
  CHOICE: 'CHOICE',
} as const;

registerEnumType(BonusQuestionKindEnum, {
  name: 'BonusQuestionKind',
  description: 'What a bonus question asks for, and so what an answer is (always sent as text).',
  valuesConfig: {
    CHAMPION: { description: "The id of a team of the tournament. Closes at the final's kickoff at the latest." },
    FINALIST: {
      description:
        'The id of a team of the tournament; right if it plays the final. Closes when the round before the final ' +
        'kicks off at the latest.',
    },
    TOP_SCORER: { description: "A player's name; compared without case, accents or extra spaces." },
    NUMBER: { description: 'A whole number from 0 to 100000.' },
    CHOICE: { description: "The index of one of the question's options, from 0." },
  },
});

@ObjectType({ description: "The caller's answer to a bonus question and what it earned." })
export class BonusAnswer {
  @Field(() => String, { description: 'As stored: a team id, a plain name, a number or an option index.' })
  value!: string;
  @Field(() => Int, { nullable: true, description: "The question's points when right, 0 when wrong, null until set." })
  points?: number | null;
}

@ObjectType({
  description:
    "An extra prediction a company's admins ask about a tournament where disableExtraPredictions is off. Each " +
    'player answers once before it closes; the points of right answers count in the general ranking.',
})
export class BonusQuestion {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => Int, { description: 'The tournament the question is about.' }) tournamentId!: number;
  @Field(() => BonusQuestionKindEnum, { description: 'What an answer is (see BonusQuestionKind).' }) kind!: BonusKind;
  @Field(() => String, { description: 'The question as players read it.' }) text!: string;
  @Field(() => [String], { description: 'The options of a CHOICE question, else empty.' }) options!: string[];
  @Field(() => Int, { description: 'Points a right answer earns (0 to 1000).' }) points!: number;
  @Field(() => DateTime, {
    description: 'When answers close: the closing time set, or earlier for CHAMPION and FINALIST (see the kind).',
  })
  closesAt!: Date;
  @Field(() => [String], { nullable: true, description: 'The right answers, once set (after it closes).' })
  correctAnswers?: string[] | null;
  @Field(() => BonusAnswer, { nullable: true, description: "The caller's answer." }) myAnswer?: BonusAnswer | null;
}

@InputType({ description: "A new bonus question about one of the current company's " + 'tournaments.' })
export class CreateBonusQuestionInput {
  @Field(() => Int, { description: 'A tournament the current company plays (another: NOT_FOUND).' })
  tournamentId!: number;
  @Field(() => BonusQuestionKindEnum, { description: 'What answers are; fixed once asked.' }) kind!: BonusKind;
  @Field(() => String, { description: '3 to 300 characters.' }) text!: string;
  @Field(() => [String], { nullable: true, description: 'CHOICE only: 2 to 10 different options.' })
  options?: string[] | null;
  @Field(() => Int, { description: 'For a right answer: 0 to 1000.' }) points!: number;
  @Field(() => DateTime, { description: 'In the future.' }) closesAt!: Date;
}

@InputType({ description: 'Fields left out keep their value. Only while nobody has answered.' })
export class UpdateBonusQuestionInput {
  @Field(() => String, { description: '3 to 300 characters.', nullable: true }) text?: string;
  @Field(() => [String], { description: 'CHOICE only: 2 to 10 different options.', nullable: true }) options?: string[];
  @Field(() => Int, { description: 'For a right answer: 0 to 1000.', nullable: true }) points?: number;
  @Field(() => DateTime, { description: 'A new closing time, in the future.', nullable: true }) closesAt?: Date;
}
