// Tournaments for a company. The work is src/app/company-tournaments.ts's; these map arguments to it.
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as tournaments from '../../app/company-tournaments.ts';
import type { Context } from '../context.ts';
import {
  CustomMatchInput,
  CustomRoundInput,
  CustomTeamInput,
  CustomTournamentInput,
  ImportReport,
} from '../types/company-tournaments.ts';
import { Match, Round, Team, Tournament } from '../types/football.ts';

const ADMINS = 'Admins of the current company, its reseller and managers.';
const CUSTOM = `Only the current company's custom tournaments (another's: NOT_FOUND). ${ADMINS}`;

@Resolver()
export class CompanyTournamentsResolver {
  @Query(() => [Tournament], { description: `Global tournaments a company may enter, newest first. ${ADMINS}` })
  availableTournaments(
    @Ctx() ctx: Context,
    @Arg('skip', () => Int, { description: 'Items to pass over, >= 0 (default 0).', nullable: true }) skip?: number,
    @Arg('take', () => Int, { description: 'Items to return, 1 to 100 (default 20).', nullable: true }) take?: number,
  ) {
    return tournaments.availableTournaments(ctx.scope, { skip, take });
  }

  @Mutation(() => Tournament, { description: `The current company plays a global tournament (idempotent). ${ADMINS}` })
  enterTournament(
    @Arg('tournamentId', () => Int, { description: 'A global tournament.' }) tournamentId: number,
    @Ctx() ctx: Context,
  ) {
    return tournaments.enterTournament(ctx.scope, tournamentId);
  }

  @Mutation(() => Boolean, {
    description: `The current company stops playing a tournament; predictions and standings stay. ${ADMINS}`,
  })
  leaveTournament(
    @Arg('tournamentId', () => Int, { description: 'A tournament the company plays.' }) tournamentId: number,
    @Ctx() ctx: Context,
  ) {
    return tournaments.leaveTournament(ctx.scope, tournamentId);
  }

  @Mutation(() => Tournament, { description: `A tournament of the current company's own. ${ADMINS}` })
  createCustomTournament(
    @Arg('input', () => CustomTournamentInput, { description: 'The tournament; name is required.' })
    input: CustomTournamentInput,
    @Ctx() ctx: Context,
  ) {
    return tournaments.createCustomTournament(ctx.scope, input);
  }

  @Mutation(() => Tournament, { description: CUSTOM })
  updateCustomTournament(
    @Arg('tournamentId', () => Int, { description: "One of the company's custom tournaments." }) tournamentId: number,
    @Arg('input', () => CustomTournamentInput, { description: 'What to change.' }) input: CustomTournamentInput,
    @Ctx() ctx: Context,
  ) {
    return tournaments.updateCustomTournament(ctx.scope, tournamentId, input);
  }

  @Mutation(() => Round, { description: `A round, last in order. ${CUSTOM}` })
  createCustomRound(
    @Arg('tournamentId', () => Int, { description: "One of the company's custom tournaments." }) tournamentId: number,
    @Arg('input', () => CustomRoundInput, { description: 'The round; name and date are required.' })
    input: CustomRoundInput,
    @Ctx() ctx: Context,
  ) {
    return tournaments.createCustomRound(ctx.scope, tournamentId, input);
  }

  @Mutation(() => Round, { description: CUSTOM })
  updateCustomRound(
    @Arg('roundId', () => Int, { description: "A round of one of the company's custom tournaments." }) roundId: number,
    @Arg('input', () => CustomRoundInput, { description: 'What to change.' }) input: CustomRoundInput,
    @Ctx() ctx: Context,
  ) {
    return tournaments.updateCustomRound(ctx.scope, roundId, input);
  }

  @Mutation(() => Team, { description: `A team of the current company's own (customTeams), named once. ${ADMINS}` })
  createCustomTeam(
    @Arg('input', () => CustomTeamInput, { description: 'The team.' }) input: CustomTeamInput,
    @Ctx() ctx: Context,
  ) {
    return tournaments.createCustomTeam(ctx.scope, input);
  }

  @Mutation(() => Match, { description: `A match in a round. ${CUSTOM} Results: setMatchResult.` })
  createCustomMatch(
    @Arg('input', () => CustomMatchInput, { description: 'The match; roundId, date and both teams are required.' })
    input: CustomMatchInput,
    @Ctx() ctx: Context,
  ) {
    return tournaments.createCustomMatch(ctx.scope, input);
  }

  @Mutation(() => Match, { description: `Teams, date, venue, group and hasPenalties, until kickoff. ${CUSTOM}` })
  updateCustomMatch(
    @Arg('matchId', () => Int, { description: "A match of one of the company's custom tournaments." }) matchId: number,
    @Arg('input', () => CustomMatchInput, { description: 'What to change.' }) input: CustomMatchInput,
    @Ctx() ctx: Context,
  ) {
    return tournaments.updateCustomMatch(ctx.scope, matchId, input);
  }

  @Mutation(() => ImportReport, {
    description:
      'Managers only. Imports an openfootball worldcup.json (the file as a string) idempotently under externalId, ' +
      'as npm run import:openfootball does; changed results rescore their predictions. Companies then enter it. ' +
      'Without externalId the tournament is known by the name in the file: openfootball:world-cup-2026 for ' +
      '"World Cup 2026".',
  })
  importOpenfootball(
    @Arg('json', () => String, { description: 'The content of an openfootball worldcup.json file.' }) json: string,
    @Arg('externalId', () => String, {
      description: 'Identifies the tournament across imports; a re-import with the same one updates it.',
      nullable: true,
    })
    externalId: string | null | undefined,
    @Arg('allowFutureResults', () => Boolean, {
      description:
        'Take the results the file gives for matches whose kickoff is still ahead (a replay of a past season). ' +
        'Default false: such a match is imported as scheduled, as a referee would.',
      defaultValue: false,
    })
    allowFutureResults: boolean,
    @Ctx() ctx: Context,
  ) {
    return tournaments.importOpenfootball(ctx.scope, json, externalId, { allowFutureResults });
  }
}
