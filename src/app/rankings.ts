// A page of a tournament's ranking in the company the request acts on: general, per round, combined rounds, per
// area (any level) or per private league, as the company's featureSettings.rankings allow (admins see every one),
// under the company's tie rule and with the people its scoringSettings rank.
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import { featureSettings, stringArray } from '../domain/defaults.ts';
import { badInput, forbidden, notFound } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import { rankingOf, rankingPage, type RankingScope } from '../game/ranking-query.ts';
import { rescoring } from '../game/rescore-jobs.ts';
import type { RankedStanding } from '../domain/rankings.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import type { UserRow } from '../db/rows.ts';
import type { RequestScope } from './scope.ts';

export interface RankingArgs {
  tournamentId: number;
  roundId?: number | null;
  roundIds?: number[] | null;
  combinedRoundsDefinition?: number | null;
  areaId?: number | null;
  internalRankingId?: number | null;
  skip?: number | null;
  take?: number | null;
}

/** The round ids of one of the company's combined-rounds definitions ("<label>:<id>,<id>,..."). */
function combinedRounds(definitions: unknown, index: number): number[] {
  const list = stringArray(definitions);
  const definition = list[index];
  if (definition === undefined)
    throw badInput(
      `the company has ${list.length} combined-rounds definitions; ${index} is not one of them`,
      'combinedRoundsDefinition',
    );
  const ids = definition
    .slice(definition.lastIndexOf(':') + 1)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (ids.length === 0 || ids.some((x) => !/^\d+$/.test(x)))
    throw badInput(
      `combined-rounds definition ${index} ("${definition}") is not "<label>:<roundId>,..."`,
      'combinedRoundsDefinition',
    );
  return ids.map(Number);
}

export async function ranking(
  scope: RequestScope,
  args: RankingArgs,
): Promise<{ total: number; entries: RankedStanding[]; me: RankedStanding | null; recomputing: boolean }> {
  const page = paging(args.skip, args.take);
  const { which, callerIncluded, viewerId } = await rankingShown(scope, args);
  const [{ total, entries }, me, recomputing] = await Promise.all([
    rankingPage(scope.db, which, page.skip, page.take),
    callerIncluded ? rankingOf(scope.db, which, viewerId) : Promise.resolve(null),
    rescoring(scope.db, which.companyId, [which.tournamentId]),
  ]);
  return { total, entries, me, recomputing };
}

/**
 * The caller's standing in a tournament's general ranking, under the same rules as `ranking`: null when the
 * caller is not ranked there (live updates read it on every change, so no page is read).
 */
export async function myStanding(scope: RequestScope, tournamentId: number): Promise<RankedStanding | null> {
  const { which, callerIncluded, viewerId } = await rankingShown(scope, { tournamentId });
  return callerIncluded ? rankingOf(scope.db, which, viewerId) : null;
}

/** Which ranking the arguments name, once the caller is allowed to see it (else the refusal). */
export async function rankingShown(
  scope: RequestScope,
  args: Omit<RankingArgs, 'skip' | 'take'>,
): Promise<{ which: RankingScope; callerIncluded: boolean; viewerId: number }> {
  const { tournamentId, roundId, areaId, internalRankingId, combinedRoundsDefinition } = args;
  let { roundIds } = args;
  const { viewer, tenant } = scope.requireTenant();
  const tournaments = await scope.loaders.tournamentsByCompany.load(tenant.id);
  if (!tournaments.some((t) => t.id === tournamentId)) throw notFound('tournament', tournamentId);
  if ([roundId, roundIds, combinedRoundsDefinition].filter((x) => x != null).length > 1)
    throw badInput('give one of roundId, roundIds and combinedRoundsDefinition', 'roundIds');
  if (combinedRoundsDefinition != null)
    roundIds = combinedRounds(tenant.combinedRoundsRankingDefinitions, combinedRoundsDefinition);
  const rounds = roundId != null ? [roundId] : (roundIds ?? []);
  if (rounds.length > 50) throw badInput('at most 50 rounds', 'roundIds');
  for (const id of rounds) {
    const round = await scope.loaders.round.load(id);
    if (!round || round.tournamentId !== tournamentId)
      throw badInput(
        `round ${id} is not a round of tournament ${tournamentId}`,
        roundId != null ? 'roundId' : 'roundIds',
      );
  }
  if (internalRankingId != null) {
    const league = await scope.db.internalRanking.findUnique({
      where: { id: internalRankingId },
      include: { memberships: { where: { userId: viewer.id } } },
    });
    if (
      !league ||
      league.companyId !== tenant.id ||
      league.tournamentId !== tournamentId ||
      league.memberships.length === 0
    )
      throw notFound('internal ranking', internalRankingId);
  }
  const settings = featureSettings(tenant.featureSettings).rankings;
  const privileged = roleAtLeast(viewer.role as RoleName, 'admin');
  const inArea = (id: number) =>
    [viewer.areaLevel1Id, viewer.areaLevel2Id, viewer.areaLevel3Id].includes(id) && viewer.companyId === tenant.id;
  if (areaId != null) {
    if (tenant.disableAreas) throw forbidden('areas are turned off in this company (disableAreas)');
    const area = await scope.loaders.area.load(areaId);
    if (!area || area.companyId !== tenant.id) throw notFound('area', areaId);
    if (!privileged) {
      if (settings.visibleAreaRankings === 'none') throw forbidden('area rankings are not shown in this company');
      if (settings.visibleAreaRankings === 'own' && !inArea(areaId))
        throw forbidden('only the rankings of your own areas are shown');
      if (rounds.length > 0 && !settings.showRoundRankingsForAreas)
        throw forbidden('round rankings of areas are not shown in this company');
    }
    const min = featureSettings(tenant.featureSettings).areas.minUsersForAreaRanking;
    const members = await scope.db.user.count({
      where: {
        companyId: tenant.id,
        deletedAt: null,
        OR: [{ areaLevel1Id: areaId }, { areaLevel2Id: areaId }, { areaLevel3Id: areaId }],
      },
    });
    if (members < min) throw forbidden(`area ${areaId} has ${members} users; area rankings need at least ${min}`);
  } else if (!privileged) {
    if (rounds.length > 0 && !settings.showRoundRankings)
      throw forbidden('round rankings are not shown in this company');
    if (rounds.length === 0 && internalRankingId == null && !settings.showGeneralRanking)
      throw forbidden('the general ranking is not shown in this company');
  }

  const { tieRule, rankAdmins, rankNonPlayers } = readScoringSettings(tenant.scoringSettings);
  const which: RankingScope = {
    companyId: tenant.id,
    tournamentId,
    roundIds: rounds,
    areaId,
    internalRankingId,
    rules: { tieRule, rankAdmins, rankNonPlayers },
  };
  const callerIncluded = viewer.companyId === tenant.id && (areaId == null || inArea(areaId));
  return { which, callerIncluded, viewerId: viewer.id };
}

/**
 * Whether the caller may see who `userId` is beside points or predictions (a ranking entry, a prediction, a user's
 * predictions): their own always; anyone else unless the company the request acts on sets disableRankingsUserNames
 * and the caller is a player (admins, the reseller and managers still see who is ranked). Without a company to act
 * on, nobody else: the rule fails closed.
 */
export function mayIdentifyPlayer(scope: RequestScope, userId: number): boolean {
  if (scope.caller?.id === userId) return true;
  const acting = scope.acting;
  if (!acting) return false;
  return !acting.tenant.disableRankingsUserNames || roleAtLeast(acting.viewer.role as RoleName, 'admin');
}

/**
 * The user a ranking entry names, as the caller may see them (mayIdentifyPlayer): null where the caller may not know
 * who it is. The prediction and trivia rankings both show their users through it.
 */
export async function rankedUser(scope: RequestScope, userId: number): Promise<UserRow | null> {
  scope.requireTenant();
  if (!mayIdentifyPlayer(scope, userId)) return null;
  const user = await scope.loaders.user.load(userId);
  if (!user) throw new Error('ranked user is missing');
  return user;
}
