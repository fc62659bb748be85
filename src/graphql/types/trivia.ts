// Trivia: questions as the caller may see them, the caller's own answer, what admins publish, and the trivia
// ranking (src/app/trivia.ts has the rules).
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { TriviaWindow } from '../enums.ts';
import { DateTime } from '../scalars.ts';

@ObjectType({
  simpleResolvers: true,
  description:
    "A company's trivia question. Players see it from startsAt on; its admins, reseller and managers see it always.",
})
export class TriviaQuestion {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'The question.' }) text!: string;
  @Field(() => [String], { description: 'The choices, in order: an answer names one by its index (0 first).' })
  options!: string[];
  @Field(() => Int, { description: 'What a right answer earns (a wrong one earns 0).' }) points!: number;
  @Field(() => DateTime, { description: 'Answers are taken from then on (server clock).' }) startsAt!: Date;
  @Field(() => DateTime, { description: 'Answers are taken until then (excluded).' }) endsAt!: Date;
  @Field(() => TriviaWindow, { description: 'Whether it is upcoming, open or closed now.' }) window!: string;
  @Field(() => Int, {
    nullable: true,
    description:
      "The right option's index: null to players until the window has ended; admins, the reseller and managers " +
      'always see it.',
  })
  correctOption?: number | null;
}

@ObjectType({ simpleResolvers: true, description: "The caller's own answer to a trivia question." })
export class TriviaMyAnswer {
  @Field(() => Int, { description: 'The index of the option chosen (0 first).' }) option!: number;
  @Field(() => DateTime, { description: 'When they answered (UTC).' }) answeredAt!: Date;
  @Field(() => Boolean, { nullable: true, description: 'null until the window has ended.' }) isCorrect?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'null until the window has ended.' }) points?: number | null;
}

@InputType({
  description:
    'A trivia question. Every field but points (default 1) is required to create; left out on update: unchanged.',
})
export class TriviaQuestionInput {
  @Field(() => String, { nullable: true, description: 'At most 500 characters.' }) text?: string | null;
  @Field(() => [String], {
    nullable: true,
    description: '2 to 10 choices, each 1 to 200 characters, no two alike (case aside).',
  })
  options?: string[] | null;
  @Field(() => Int, { nullable: true, description: "The right option's index in options (0 first)." })
  correctOption?: number | null;
  @Field(() => Int, { nullable: true, description: 'What a right answer earns: 0 to 1000.' }) points?: number | null;
  @Field(() => DateTime, { nullable: true, description: 'When answers open (may be now or earlier: open at once).' })
  startsAt?: Date | null;
  @Field(() => DateTime, { nullable: true, description: 'When answers close: after startsAt, in the future.' })
  endsAt?: Date | null;
}

const POINTS = "Points of the questions whose window has ended (the others' answers are not graded in public yet).";
const CORRECT = 'Right answers to the questions whose window has ended.';

@ObjectType({ description: 'One ranked user of a trivia ranking page.', simpleResolvers: true })
export class TriviaRankingEntry {
  @Field(() => Int, { description: 'Ties share a position; the next is skipped (1, 2, 2, 4).' }) position!: number;
  @Field(() => Int, { description: POINTS }) points!: number;
  @Field(() => Int, { description: CORRECT }) correctAnswers!: number;
  userId!: number;
}

@ObjectType({ description: "The caller's own trivia standing.", simpleResolvers: true })
export class TriviaRankingMe {
  @Field(() => Int, { description: 'Ties share a position; the next is skipped (1, 2, 2, 4).' }) position!: number;
  @Field(() => Int, { description: POINTS }) points!: number;
  @Field(() => Int, { description: CORRECT }) correctAnswers!: number;
}

@ObjectType({ description: "A page of the company's trivia ranking.", simpleResolvers: true })
export class TriviaRanking {
  @Field(() => Int, { description: 'Users ranked (the whole ranking, not the page).' }) total!: number;
  @Field(() => [TriviaRankingEntry], { description: 'The page, best first; [] past the end.' })
  entries!: TriviaRankingEntry[];
  @Field(() => TriviaRankingMe, {
    nullable: true,
    description: "The caller's standing; null when the caller is not ranked (or not of this company).",
  })
  me?: TriviaRankingMe | null;
}
