import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../context.ts';
import type { CountryRow, MatchRow, PredictionRow, RoundRow, TeamRow, TournamentRow } from '../../loaders/registry.ts';
import { stringArray } from '../../domain/defaults.ts';
import { closingTime } from '../../game/predictions.ts';
import { readScoringSettings } from '../../game/scoring-settings.ts';
import { DateTime } from '../scalars.ts';
import { Company } from '../types/company.ts';
import {
  Country,
  DreamFinalPick,
  DreamFinalsSetting,
  Match,
  Prediction,
  Round,
  Team,
  Tournament,
} from '../types/football.ts';
import { UserCompact } from '../types/user.ts';

const required = <T>(value: T | null, what: string): T => {
  // A dangling foreign key is a data bug, not a client error.
  if (value == null) throw new Error(`${what} is missing`);
  return value;
};

@Resolver(() => Tournament)
export class TournamentFields {
  @FieldResolver(() => Country, { description: 'The country it belongs to.' }) async country(
    @Root() t: TournamentRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.country.load(t.countryId), 'country');
  }
  @FieldResolver(() => [Round], { description: 'Its rounds, in order; [] when none.' }) rounds(
    @Root() t: TournamentRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.roundsByTournament.load(t.id);
  }
  @FieldResolver(() => [String], { description: 'RSS feed URLs suggested for it; null when none.', nullable: true })
  defaultRssFeeds(@Root() t: TournamentRow) {
    return t.defaultRssFeeds == null ? null : stringArray(t.defaultRssFeeds);
  }
}

@Resolver(() => Country)
export class CountryFields {
  @FieldResolver(() => [String], { description: 'Names of the global teams of this country.' })
  async teams(@Root() c: CountryRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.teamsByCountry.load(c.id)).map((t) => t.name);
  }
  @FieldResolver(() => [String], { description: 'Names of the global tournaments of this country.' })
  async tournaments(@Root() c: CountryRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.tournamentsByCountry.load(c.id)).map((t) => t.name);
  }
}

@Resolver(() => Team)
export class TeamFields {
  @FieldResolver(() => Country, { description: 'The country it belongs to.' }) async country(
    @Root() t: TeamRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.country.load(t.countryId), 'country');
  }
}

@Resolver(() => Round)
export class RoundFields {
  @FieldResolver(() => [Match], { description: 'Its matches by kickoff; [] when none.' }) matches(
    @Root() r: RoundRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.matchesByRound.load(r.id);
  }
  @FieldResolver(() => Tournament, { description: 'The tournament it belongs to.', nullable: true }) tournament(
    @Root() r: RoundRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.tournament.load(r.tournamentId);
  }
}

@Resolver(() => Match)
export class MatchFields {
  @FieldResolver(() => Team, { description: 'The home team.' }) async homeTeam(
    @Root() m: MatchRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.team.load(m.homeTeamId), 'team');
  }
  @FieldResolver(() => Team, { description: 'The away team.' }) async awayTeam(
    @Root() m: MatchRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.team.load(m.awayTeamId), 'team');
  }
  @FieldResolver(() => Round, { description: 'Its round.' }) async round(@Root() m: MatchRow, @Ctx() ctx: Context) {
    return required(await ctx.loaders.round.load(m.roundId), 'round');
  }
  @FieldResolver(() => DateTime, {
    description:
      'When predictions on it close in the company the request acts on: kickoff less its predictionDeadlineMinutes.',
  })
  predictionsCloseAt(@Root() m: MatchRow, @Ctx() ctx: Context) {
    return closingTime(m, readScoringSettings(ctx.auth.tenant?.scoringSettings).predictionDeadlineMinutes);
  }
  @FieldResolver(() => [Prediction], {
    description:
      "Predictions of the tenant's users: before kickoff only the caller's own. onlyMine: only the caller's own, " +
      'always.',
  })
  predictions(
    @Root() m: MatchRow,
    @Ctx() ctx: Context,
    @Arg('onlyMine', () => Boolean, {
      description: "true: only the caller's own prediction (or []).",
      defaultValue: false,
    })
    onlyMine: boolean,
  ) {
    return onlyMine ? ctx.loaders.ownPredictionsByMatch.load(m.id) : ctx.loaders.visiblePredictionsByMatch.load(m.id);
  }
}

@Resolver(() => Prediction)
export class PredictionFields {
  @FieldResolver(() => Match, { description: 'The match predicted.' }) async match(
    @Root() p: PredictionRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.match.load(p.matchId), 'match');
  }
  @FieldResolver(() => UserCompact, { description: 'Who predicted.' }) async user(
    @Root() p: PredictionRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.user.load(p.userId), 'user');
  }
}

type DreamRow = { id: number; tournamentId: number; limitRoundId: number; companyId: number };

@Resolver(() => DreamFinalsSetting)
export class DreamFinalsSettingFields {
  @FieldResolver(() => Tournament, { description: 'The tournament whose standings are picked.' }) async tournament(
    @Root() d: DreamRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.tournament.load(d.tournamentId), 'tournament');
  }
  @FieldResolver(() => Round, { description: 'Picks close when this round starts.' }) async limitRound(
    @Root() d: DreamRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.round.load(d.limitRoundId), 'round');
  }
  @FieldResolver(() => Company, { description: 'The company playing it.' }) async company(
    @Root() d: DreamRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.company.load(d.companyId), 'company');
  }
  @FieldResolver(() => [DreamFinalPick], { description: "The caller's picks, by position." })
  myPicks(@Root() d: DreamRow, @Ctx() ctx: Context) {
    return ctx.loaders.ownDreamPicksBySetting.load(d.id);
  }
}

@Resolver(() => DreamFinalPick)
export class DreamFinalPickFields {
  @FieldResolver(() => Team, { description: 'The team picked.' }) async team(
    @Root() p: { teamId: number },
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.loaders.team.load(p.teamId), 'team');
  }
}
