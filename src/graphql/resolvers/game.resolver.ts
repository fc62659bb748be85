// The game's writes. The work is src/app/game.ts's; these map arguments to it.
import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import * as game from '../../app/game.ts';
import type { Context } from '../context.ts';
import { DreamFinalsSetting, Match, Prediction } from '../types/football.ts';
import { SetMatchResultInput, UpsertPredictionInput } from '../types/game-inputs.ts';

@Resolver()
export class GameResolver {
  @Mutation(() => Prediction, {
    description:
      "The caller's prediction of a match of one of their company's tournaments; allowed until kickoff (server " +
      'clock, UTC).',
  })
  upsertPrediction(@Arg('input', () => UpsertPredictionInput) input: UpsertPredictionInput, @Ctx() ctx: Context) {
    return game.upsertPrediction(ctx.scope, input);
  }

  @Mutation(() => DreamFinalsSetting, {
    description:
      "The caller's dream-final picks: teamIds[0] finishes first, and so on, one team per awarded position; allowed " +
      'until the limit round starts.',
  })
  setDreamFinalPicks(
    @Arg('settingId', () => Int) settingId: number,
    @Arg('teamIds', () => [Int]) teamIds: number[],
    @Ctx() ctx: Context,
  ) {
    return game.setDreamFinalPicks(ctx.scope, settingId, teamIds);
  }

  @Mutation(() => Match, {
    description:
      "Sets a match's result and rescores its predictions in one transaction. Managers may set any match; admins " +
      "only matches of their company's custom tournaments.",
  })
  setMatchResult(@Arg('input', () => SetMatchResultInput) input: SetMatchResultInput, @Ctx() ctx: Context) {
    return game.setMatchResult(ctx.scope, input);
  }
}
