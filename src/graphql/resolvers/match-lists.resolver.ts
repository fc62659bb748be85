// Upcoming matches and the caller's predictions. The work is src/app/match-lists.ts's; these map arguments to it.
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import * as lists from '../../app/match-lists.ts';
import type { Context } from '../context.ts';
import { MatchStatus, PredictionStatus } from '../enums.ts';
import { DateTime } from '../scalars.ts';
import { Match, Prediction } from '../types/football.ts';

const SKIP = 'Items to pass over, >= 0 (default 0).';
const TAKE = 'Items to return, 1 to 100 (default 20); the client pages with skip.';
const TOURNAMENT =
  "Only this tournament's; one the company does not play: NOT_FOUND. Left out: all of the company's tournaments.";

@Resolver()
export class MatchListsResolver {
  @Query(() => [Match], {
    description:
      'Any signed-in caller: matches of the tournaments of the company the request acts on, by kickoff then id; [] ' +
      'when none. Instead of reading whole tournaments for the next match.',
  })
  matches(
    @Ctx() ctx: Context,
    @Arg('from', () => DateTime, {
      nullable: true,
      description: 'Kickoff at or after this instant (UTC). Left out: now, by the server clock.',
    })
    from?: Date | null,
    @Arg('to', () => DateTime, {
      nullable: true,
      description:
        'Kickoff at or before this instant (UTC), not before from and at most ' +
        `${lists.MAX_WINDOW_DAYS} days after it. Left out: no end.`,
    })
    to?: Date | null,
    @Arg('tournamentId', () => Int, { nullable: true, description: TOURNAMENT }) tournamentId?: number | null,
    @Arg('status', () => [MatchStatus], {
      nullable: true,
      description: 'Only matches in one of these statuses (one value is accepted as a list of one). Left out: any.',
    })
    status?: string[] | null,
    @Arg('skip', () => Int, { nullable: true, description: SKIP }) skip?: number | null,
    @Arg('take', () => Int, { nullable: true, description: TAKE }) take?: number | null,
  ) {
    return lists.matches(ctx.scope, { from, to, tournamentId, status, skip, take });
  }

  @Query(() => [Prediction], {
    description:
      "Any signed-in caller: their own predictions on matches of the company's tournaments, by the match's kickoff " +
      'then id; [] when none, and when the request acts on a company other than their own.',
  })
  myPredictions(
    @Ctx() ctx: Context,
    @Arg('tournamentId', () => Int, { nullable: true, description: TOURNAMENT }) tournamentId?: number | null,
    @Arg('status', () => [PredictionStatus], {
      nullable: true,
      description: 'Only predictions in one of these statuses. Left out: any.',
    })
    status?: string[] | null,
    @Arg('skip', () => Int, { nullable: true, description: SKIP }) skip?: number | null,
    @Arg('take', () => Int, { nullable: true, description: TAKE }) take?: number | null,
  ) {
    return lists.myPredictions(ctx.scope, { tournamentId, status, skip, take });
  }
}
