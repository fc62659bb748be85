// The game's writes. The work is src/app/game.ts's; these map arguments to it.
import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import * as game from '../../app/game.ts';
import type { Context } from '../context.ts';
import { DateTime } from '../scalars.ts';
import { DreamFinalsSetting, Match, Prediction } from '../types/football.ts';
import { SetMatchResultInput, UpsertPredictionInput } from '../types/game-inputs.ts';

@Resolver()
export class GameResolver {
  @Mutation(() => Prediction, {
    description:
      "The caller's prediction of a match of one of their company's tournaments; allowed until kickoff less the " +
      "company's predictionDeadlineMinutes (server clock, UTC), while the match is SCHEDULED or TIMED.",
  })
  upsertPrediction(
    @Arg('input', () => UpsertPredictionInput, { description: 'The match and the predicted score.' })
    input: UpsertPredictionInput,
    @Ctx() ctx: Context,
  ) {
    return game.upsertPrediction(ctx.scope, input);
  }

  @Mutation(() => DreamFinalsSetting, {
    description:
      "The caller's dream-final picks: teamIds[0] finishes first, and so on, one team per awarded position; allowed " +
      'until the limit round starts, and never once the final (or the match for third place) has kicked off.',
  })
  setDreamFinalPicks(
    @Arg('settingId', () => Int, {
      description: "A dream finals game of the caller's company (another: " + 'NOT_FOUND).',
    })
    settingId: number,
    @Arg('teamIds', () => [Int], {
      description: 'Teams of the tournament in finishing order, one per awarded position.',
    })
    teamIds: number[],
    @Ctx() ctx: Context,
  ) {
    return game.setDreamFinalPicks(ctx.scope, settingId, teamIds);
  }

  @Mutation(() => Match, {
    description:
      "Sets a match's result and rescores its predictions in one transaction; on a match with more predictions " +
      'than the server rescores in a request (RESCORE_IN_REQUEST_MAX_PREDICTIONS), the result is committed with a ' +
      'rescoring job that runs right after it, and the points follow within seconds. Managers may set any match; ' +
      "admins only matches of their company's custom tournaments. As a referee would: no FINISHED or AWARDED result " +
      'before kickoff; extra time and a shoot-out only on matches that can go to penalties, after a level score ' +
      '(over both legs for a second leg); a recorded shoot-out is not dropped by a correction that leaves out its ' +
      'penalty scores unless noShootOut is true.',
  })
  setMatchResult(
    @Arg('input', () => SetMatchResultInput, { description: 'The match and its result.' }) input: SetMatchResultInput,
    @Ctx() ctx: Context,
  ) {
    return game.setMatchResult(ctx.scope, { ...input });
  }

  @Mutation(() => Match, {
    description:
      'A new kickoff for a match not played yet (SCHEDULED, TIMED or POSTPONED): it is SCHEDULED again and takes ' +
      'predictions until then; predictions already made stay. Who may: as setMatchResult.',
  })
  rescheduleMatch(
    @Arg('matchId', () => Int, { description: 'A match not played yet.' }) matchId: number,
    @Arg('date', () => DateTime, { description: 'The new kickoff, in the future.' }) date: Date,
    @Ctx() ctx: Context,
  ) {
    return game.rescheduleMatch(ctx.scope, matchId, date);
  }
}
