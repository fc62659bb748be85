import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { enteredBy } from '../../app/corrections.ts';
import { mayIdentifyPlayer } from '../../app/rankings.ts';
import type { Context } from '../context.ts';
import type { CountryRow, MatchRow, PredictionRow, RoundRow, TeamRow, TournamentRow } from '../../loaders/registry.ts';
import { stringArray } from '../../domain/defaults.ts';
import { closingTime } from '../../domain/predictions.ts';
import { readScoringSettings } from '../../domain/scoring-settings.ts';
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
import { RankingUser } from '../types/ranking.ts';
import { UserCompact } from '../types/user.ts';

const required = <T>(value: T | null, what: string): T => {
  // A dangling foreign key is a data bug, not a client error.
  if (value == null) throw new Error(`${what} is missing`);
  return value;
};

// The hot fields below chain on the loader's promise instead of awaiting in an async method: a deep response resolves
// them thousands of times, and each async call allocates a frame and a promise of its own (docs/performance.md).
const requiredTeam = (team: TeamRow | null) => required(team, 'team');
const requiredCountry = (country: CountryRow | null) => required(country, 'country');
const requiredUser = <T>(user: T | null) => required(user, 'user');

/** Names of a loaded list, computed once per list: the same country's teams are asked for by every match. */
const namesOfList = new WeakMap<readonly { name: string }[], string[]>();
function namesOf(rows: readonly { name: string }[]): string[] {
  let names = namesOfList.get(rows);
  if (!names) {
    names = rows.map((row) => row.name);
    namesOfList.set(rows, names);
  }
  return names;
}

// Fields named in ../types/caller-independent.ts are executed once for every live subscriber of one visibility:
// they must read nothing of the caller's own (id, predictions, areas); a field that does stays off that list.
@Resolver(() => Tournament)
export class TournamentFields {
  @FieldResolver(() => Country, { description: 'The country it belongs to.' }) async country(
    @Root() t: TournamentRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.scope.loaders.country.load(t.countryId), 'country');
  }
  @FieldResolver(() => [Round], { description: 'Its rounds, in order; [] when none.' }) rounds(
    @Root() t: TournamentRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.roundsByTournament.load(t.id);
  }
  @FieldResolver(() => [String], { description: 'RSS feed URLs suggested for it; null when none.', nullable: true })
  defaultRssFeeds(@Root() t: TournamentRow) {
    return t.defaultRssFeeds == null ? null : stringArray(t.defaultRssFeeds);
  }
}

@Resolver(() => Country)
export class CountryFields {
  @FieldResolver(() => [String], { description: 'Names of the global teams of this country.' })
  teams(@Root() c: CountryRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.teamsByCountry.load(c.id).then(namesOf);
  }
  @FieldResolver(() => [String], { description: 'Names of the global tournaments of this country.' })
  tournaments(@Root() c: CountryRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.tournamentsByCountry.load(c.id).then(namesOf);
  }
}

@Resolver(() => Team)
export class TeamFields {
  @FieldResolver(() => Country, { description: 'The country it belongs to.' }) country(
    @Root() t: TeamRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.country.load(t.countryId).then(requiredCountry);
  }
}

@Resolver(() => Round)
export class RoundFields {
  @FieldResolver(() => [Match], { description: 'Its matches by kickoff; [] when none.' }) matches(
    @Root() r: RoundRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.matchesByRound.load(r.id);
  }
  @FieldResolver(() => Tournament, { description: 'The tournament it belongs to.', nullable: true }) tournament(
    @Root() r: RoundRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.tournament.load(r.tournamentId);
  }
}

@Resolver(() => Match)
export class MatchFields {
  @FieldResolver(() => Team, { description: 'The home team.' }) homeTeam(@Root() m: MatchRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.team.load(m.homeTeamId).then(requiredTeam);
  }
  @FieldResolver(() => Team, { description: 'The away team.' }) awayTeam(@Root() m: MatchRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.team.load(m.awayTeamId).then(requiredTeam);
  }
  @FieldResolver(() => Round, { description: 'Its round.' }) async round(@Root() m: MatchRow, @Ctx() ctx: Context) {
    return required(await ctx.scope.loaders.round.load(m.roundId), 'round');
  }
  @FieldResolver(() => DateTime, {
    description:
      'When predictions on it close in the company the request acts on: kickoff less its predictionDeadlineMinutes.',
  })
  predictionsCloseAt(@Root() m: MatchRow, @Ctx() ctx: Context) {
    return closingTime(m, readScoringSettings(ctx.scope.auth.tenant?.scoringSettings).predictionDeadlineMinutes);
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
    return onlyMine
      ? ctx.scope.loaders.ownPredictionsByMatch.load(m.id)
      : ctx.scope.loaders.visiblePredictionsByMatch.load(m.id);
  }
}

@Resolver(() => Prediction)
export class PredictionFields {
  @FieldResolver(() => Match, { description: 'The match predicted.' }) async match(
    @Root() p: PredictionRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.scope.loaders.match.load(p.matchId), 'match');
  }
  @FieldResolver(() => UserCompact, {
    nullable: true,
    description:
      "Who predicted. null on every prediction but the caller's own when the company sets disableRankingsUserNames " +
      "and the caller is a player, as in RankingEntry.user (admins, the company's reseller and managers still see " +
      'who predicted).',
  })
  user(@Root() p: PredictionRow, @Ctx() ctx: Context) {
    // Nothing of the user, not even the id: an id beside points would join with the names posts show.
    if (!mayIdentifyPlayer(ctx.scope, p.userId)) return null;
    return ctx.scope.loaders.user.load(p.userId).then(requiredUser);
  }
  @FieldResolver(() => RankingUser, {
    nullable: true,
    description:
      'Who entered it for the player (setPredictionFor): shown to the player and to admins and above; null when the ' +
      'player entered it, and to everyone else.',
  })
  enteredBy(@Root() p: PredictionRow, @Ctx() ctx: Context) {
    return enteredBy(ctx.scope, p);
  }
}

type DreamRow = { id: number; tournamentId: number; limitRoundId: number; companyId: number };

@Resolver(() => DreamFinalsSetting)
export class DreamFinalsSettingFields {
  @FieldResolver(() => Tournament, { description: 'The tournament whose standings are picked.' }) async tournament(
    @Root() d: DreamRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.scope.loaders.tournament.load(d.tournamentId), 'tournament');
  }
  @FieldResolver(() => Round, { description: 'Picks close when this round starts.' }) async limitRound(
    @Root() d: DreamRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.scope.loaders.round.load(d.limitRoundId), 'round');
  }
  @FieldResolver(() => Company, { description: 'The company playing it.' }) async company(
    @Root() d: DreamRow,
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.scope.loaders.company.load(d.companyId), 'company');
  }
  @FieldResolver(() => [DreamFinalPick], { description: "The caller's picks, by position." })
  myPicks(@Root() d: DreamRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.ownDreamPicksBySetting.load(d.id);
  }
}

@Resolver(() => DreamFinalPick)
export class DreamFinalPickFields {
  @FieldResolver(() => Team, { description: 'The team picked.' }) async team(
    @Root() p: { teamId: number },
    @Ctx() ctx: Context,
  ) {
    return required(await ctx.scope.loaders.team.load(p.teamId), 'team');
  }
}
