// Trivia. The work is src/app/trivia.ts's; these map arguments to it.
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { rankedUser } from '../../app/rankings.ts';
import * as trivia from '../../app/trivia.ts';
import type { Context } from '../context.ts';
import { RankingUser } from '../types/ranking.ts';
import {
  TriviaMyAnswer,
  TriviaQuestion,
  TriviaQuestionInput,
  TriviaRanking,
  TriviaRankingEntry,
} from '../types/trivia.ts';

const WHERE =
  'Where the company purchased trivia (purchasedGames.trivia; otherwise FORBIDDEN to everyone) and has not set ' +
  'disableTrivias';
const ADMINS =
  'Admins of the current company, its reseller and managers, where the company purchased trivia (else ' +
  'FORBIDDEN); disableTrivias does not stop them.';

@Resolver()
export class TriviaResolver {
  @Query(() => [TriviaQuestion], {
    description:
      `The current company's trivia questions, latest start first. ${WHERE} (else FORBIDDEN to players): players ` +
      'see the questions whose window has started, the right option only once it has ended; admins, the reseller ' +
      'and managers see every question with its right option.',
  })
  triviaQuestions(
    @Ctx() ctx: Context,
    @Arg('skip', () => Int, { description: 'Items to pass over, >= 0 (default 0).', nullable: true }) skip?: number,
    @Arg('take', () => Int, { description: 'Items to return, 1 to 100 (default 20).', nullable: true }) take?: number,
  ) {
    return trivia.triviaQuestions(ctx.scope, { skip, take });
  }

  @Mutation(() => TriviaQuestion, {
    description: `Publishes a trivia question: players see it from startsAt on and answer it until endsAt. ${ADMINS}`,
  })
  createTriviaQuestion(
    @Arg('input', () => TriviaQuestionInput, { description: 'The question.' }) input: TriviaQuestionInput,
    @Ctx() ctx: Context,
  ) {
    return trivia.createTriviaQuestion(ctx.scope, input);
  }

  @Mutation(() => TriviaQuestion, {
    description:
      'Changes a trivia question before its window starts; from startsAt on it no longer changes (CONFLICT: ' +
      `delete it instead). ${ADMINS}`,
  })
  updateTriviaQuestion(
    @Arg('id', () => Int, { description: 'A trivia question of the current company (another: NOT_FOUND).' }) id: number,
    @Arg('input', () => TriviaQuestionInput, { description: 'What to change.' }) input: TriviaQuestionInput,
    @Ctx() ctx: Context,
  ) {
    return trivia.updateTriviaQuestion(ctx.scope, id, input);
  }

  @Mutation(() => Boolean, {
    description: `Deletes a trivia question at any time, with its answers and their points. ${ADMINS}`,
  })
  deleteTriviaQuestion(
    @Arg('id', () => Int, { description: 'A trivia question of the current company (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
  ) {
    return trivia.deleteTriviaQuestion(ctx.scope, id);
  }

  @Mutation(() => TriviaQuestion, {
    description:
      `The caller's answer (the index of an option), in their own company. ${WHERE} (else FORBIDDEN). Once per ` +
      'question (again: CONFLICT), inside its window by the server clock (before startsAt or from endsAt on: ' +
      'FORBIDDEN). Graded at once, but whether it was right shows only once the window has ended.',
  })
  answerTrivia(
    @Arg('questionId', () => Int, { description: "A trivia question of the caller's company (another: NOT_FOUND)." })
    questionId: number,
    @Arg('option', () => Int, { description: 'The index of the chosen option (0 first).' }) option: number,
    @Ctx() ctx: Context,
  ) {
    return trivia.answerTrivia(ctx.scope, questionId, option);
  }

  @Query(() => TriviaRanking, {
    description:
      `A page of the current company's trivia ranking. ${WHERE} (else FORBIDDEN to players; admins, the reseller ` +
      'and managers still see it). Points and right answers of the questions whose window has ended; ties under ' +
      "the company's tieRule (HITS and ROUND_WINS: points, then right answers; POINTS: points alone) share a " +
      'position; rankAdmins and rankNonPlayers (people who answered nothing) as in the prediction ranking.',
  })
  triviaRanking(
    @Ctx() ctx: Context,
    @Arg('skip', () => Int, { description: 'Items to pass over, >= 0 (default 0).', nullable: true }) skip?: number,
    @Arg('take', () => Int, { description: 'Items to return, 1 to 100 (default 20).', nullable: true }) take?: number,
  ) {
    return trivia.triviaRanking(ctx.scope, { skip, take });
  }
}

@Resolver(() => TriviaQuestion)
export class TriviaQuestionFields {
  @FieldResolver(() => TriviaMyAnswer, { nullable: true, description: "The caller's own answer; null if none." })
  myAnswer(@Root() question: trivia.TriviaQuestionView, @Ctx() ctx: Context) {
    return trivia.myTriviaAnswer(ctx.scope, question);
  }
}

@Resolver(() => TriviaRankingEntry)
export class TriviaRankingEntryFields {
  @FieldResolver(() => RankingUser, {
    nullable: true,
    description: 'The ranked user; null as in RankingEntry.user (disableRankingsUserNames).',
  })
  user(@Root() entry: TriviaRankingEntry, @Ctx() ctx: Context) {
    return rankedUser(ctx.scope, entry.userId);
  }
}
