// Bonus questions. The work is src/app/bonus-questions.ts's; these map arguments to it.
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as bonus from '../../app/bonus-questions.ts';
import type { Context } from '../context.ts';
import { BonusQuestion, CreateBonusQuestionInput, UpdateBonusQuestionInput } from '../types/bonus-questions.ts';

/** GraphQL gives left-out input fields as undefined and its own classes: plain objects reach the rules. */
const plain = <T extends object>(input: T) => Object.fromEntries(Object.entries(input).filter(([, v]) => v != null));

@Resolver()
export class BonusQuestionResolver {
  @Query(() => [BonusQuestion], {
    description:
      "The company's bonus questions about one of its tournaments, soonest to close first, with the caller's " +
      'answer. Empty where disableExtraPredictions is on.',
  })
  bonusQuestions(
    @Arg('tournamentId', () => Int, { description: 'A tournament the company plays (another: NOT_FOUND).' })
    tournamentId: number,
    @Ctx() ctx: Context,
  ) {
    return bonus.bonusQuestions(ctx.scope, tournamentId);
  }

  @Mutation(() => BonusQuestion, {
    description: "Admins: asks a bonus question about one of the company's tournaments.",
  })
  createBonusQuestion(
    @Arg('input', () => CreateBonusQuestionInput, { description: 'The question.' }) input: CreateBonusQuestionInput,
    @Ctx() ctx: Context,
  ) {
    return bonus.createBonusQuestion(ctx.scope, { ...input });
  }

  @Mutation(() => BonusQuestion, {
    description: 'Admins: changes a bonus question while nobody has answered it (CONFLICT after).',
  })
  updateBonusQuestion(
    @Arg('id', () => Int, { description: 'A bonus question of the current company (another: NOT_FOUND).' }) id: number,
    @Arg('input', () => UpdateBonusQuestionInput, { description: 'What to change.' }) input: UpdateBonusQuestionInput,
    @Ctx() ctx: Context,
  ) {
    return bonus.updateBonusQuestion(ctx.scope, id, plain(input));
  }

  @Mutation(() => Boolean, {
    description: 'Admins: deletes a bonus question and its answers; their points leave the ranking at once.',
  })
  deleteBonusQuestion(
    @Arg('id', () => Int, { description: 'A bonus question of the current company (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
  ) {
    return bonus.deleteBonusQuestion(ctx.scope, id);
  }

  @Mutation(() => BonusQuestion, {
    description:
      'Admins: the right answers (one champion, one or two finalists, every joint top scorer, one number, the ' +
      'right options), once the question has closed: every answer is scored and the general ranking moves in the ' +
      'same step. May be set again to correct it.',
  })
  setBonusQuestionAnswers(
    @Arg('id', () => Int, { description: 'A closed bonus question of the current company (another: NOT_FOUND).' })
    id: number,
    @Arg('correctAnswers', () => [String], {
      description: "The right answers, each as an answer of the question's kind is " + 'written.',
    })
    correctAnswers: string[],
    @Ctx() ctx: Context,
  ) {
    return bonus.setBonusAnswers(ctx.scope, id, correctAnswers);
  }

  @Mutation(() => BonusQuestion, {
    description:
      "The caller's answer (as the question's kind says), once, before the question closes, in their own company. " +
      'A second answer is CONFLICT.',
  })
  answerBonusQuestion(
    @Arg('id', () => Int, { description: "A bonus question of the caller's company (another: NOT_FOUND)." }) id: number,
    @Arg('answer', () => String, {
      description: "As the question's kind says: a team id, a name, a number or an " + 'option index.',
    })
    answer: string,
    @Ctx() ctx: Context,
  ) {
    return bonus.answerBonusQuestion(ctx.scope, id, answer);
  }
}
