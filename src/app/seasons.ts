// Seasons: several of the company's tournaments ranked together (a league, a cup and a continental competition),
// each person's points the sum of their points in each tournament times its weight. Admins (and the reseller and
// managers acting on the company) write seasons; everyone in the company lists them, and reads a season's ranking
// as the company shows its general ranking (featureSettings.rankings.showGeneralRanking; admins always).
import type { SeasonRow, SeasonTournamentRow } from '../db/rows.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { featureSettings } from '../domain/defaults.ts';
import { badInput, conflict, forbidden, notFound } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import type { RankedStanding } from '../domain/rankings.ts';
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { seasonName, seasonTournaments, type SeasonTournamentInput } from '../domain/seasons.ts';
import { seasonRankingOf, seasonRankingPage, type SeasonScope } from '../game/season-ranking.ts';
import { rescoring } from '../game/rescore-jobs.ts';
import type { Tx } from '../db/client.ts';
import type { RequestScope } from './scope.ts';

export type SeasonWithTournaments = SeasonRow & { tournaments: SeasonTournamentRow[] };

export interface SeasonInput {
  name?: string | null;
  tournamentIds?: number[] | null;
  weights?: number[] | null;
}

const WITH_TOURNAMENTS = { tournaments: { orderBy: { position: 'asc' as const } } };

const requireSeasonAdmin = (scope: RequestScope) =>
  scope.requireRole('admin', "only the company's admins, its reseller and managers write seasons");

/** The tournaments the input names, checked against those the company plays. */
async function chosenTournaments(scope: RequestScope, companyId: number, input: SeasonInput) {
  if (input.tournamentIds == null) {
    if (input.weights != null) throw badInput('weights are given with tournamentIds', 'weights');
    return null;
  }
  const played = await scope.loaders.tournamentsByCompany.load(companyId);
  return seasonTournaments(input.tournamentIds, input.weights, new Set(played.map((t) => t.id)));
}

async function ownSeason(scope: RequestScope, id: number, companyId: number): Promise<SeasonWithTournaments> {
  const season = await scope.db.season.findUnique({ where: { id }, include: WITH_TOURNAMENTS });
  if (!season || season.companyId !== companyId) throw notFound('season', id);
  return season;
}

/** Writes the season's tournaments as chosen, in the order given. */
async function writeTournaments(tx: Tx, seasonId: number, chosen: SeasonTournamentInput[]) {
  await tx.seasonTournament.deleteMany({ where: { seasonId } });
  await tx.seasonTournament.createMany({
    data: chosen.map((t, position) => ({ seasonId, tournamentId: t.tournamentId, weight: t.weight, position })),
  });
}

/** A taken name is a conflict, whether found first or by the unique index. */
async function named<T>(name: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (name !== undefined && isUniqueViolation(err))
      throw conflict(`the company already has a season named "${name}"`, 'name');
    throw err;
  }
}

export async function createSeason(scope: RequestScope, input: SeasonInput): Promise<SeasonWithTournaments> {
  const { tenant } = requireSeasonAdmin(scope);
  const name = seasonName(input.name ?? '');
  const chosen = await chosenTournaments(scope, tenant.id, input);
  if (!chosen) throw badInput('a season has at least one tournament', 'tournamentIds');
  return named(name, () =>
    scope.write(async (tx) => {
      const season = await tx.season.create({ data: { companyId: tenant.id, name } });
      await writeTournaments(tx, season.id, chosen);
      return tx.season.findUniqueOrThrow({ where: { id: season.id }, include: WITH_TOURNAMENTS });
    }),
  );
}

/** Left out: unchanged. tournamentIds given replace the season's tournaments (with weights, or 1 each). */
export async function updateSeason(
  scope: RequestScope,
  id: number,
  input: SeasonInput,
): Promise<SeasonWithTournaments> {
  const { tenant } = requireSeasonAdmin(scope);
  await ownSeason(scope, id, tenant.id);
  const name = input.name != null ? seasonName(input.name) : undefined;
  const chosen = await chosenTournaments(scope, tenant.id, input);
  return named(name, () =>
    scope.write(async (tx) => {
      if (name !== undefined) await tx.season.update({ where: { id }, data: { name } });
      if (chosen) await writeTournaments(tx, id, chosen);
      return tx.season.findUniqueOrThrow({ where: { id }, include: WITH_TOURNAMENTS });
    }),
  );
}

export async function deleteSeason(scope: RequestScope, id: number): Promise<boolean> {
  const { tenant } = requireSeasonAdmin(scope);
  await ownSeason(scope, id, tenant.id);
  await scope.write((tx) => tx.season.deleteMany({ where: { id, companyId: tenant.id } }));
  return true;
}

/** The company's seasons, oldest first. */
export async function seasons(scope: RequestScope): Promise<SeasonWithTournaments[]> {
  const { tenant } = scope.requireTenant();
  return scope.db.season.findMany({
    where: { companyId: tenant.id },
    orderBy: { id: 'asc' },
    include: WITH_TOURNAMENTS,
  });
}

/** A page of the season's ranking, with the caller's own standing when the season ranks them. */
export async function seasonRanking(
  scope: RequestScope,
  args: { seasonId: number; skip?: number | null; take?: number | null },
): Promise<{ total: number; entries: RankedStanding[]; me: RankedStanding | null; recomputing: boolean }> {
  const page = paging(args.skip, args.take);
  const { viewer, tenant } = scope.requireTenant();
  const season = await ownSeason(scope, args.seasonId, tenant.id);
  const privileged = roleAtLeast(viewer.role as RoleName, 'admin');
  if (!privileged && !featureSettings(tenant.featureSettings).rankings.showGeneralRanking)
    throw forbidden('the general ranking is not shown in this company');
  const { tieRule, rankAdmins, rankNonPlayers } = readScoringSettings(tenant.scoringSettings);
  // A tournament the company has left since the season was written does not count.
  const played = new Set((await scope.loaders.tournamentsByCompany.load(tenant.id)).map((t) => t.id));
  const tournamentIds = season.tournaments.map((t) => t.tournamentId).filter((id) => played.has(id));
  if (tournamentIds.length === 0) return { total: 0, entries: [], me: null, recomputing: false };
  const which: SeasonScope = {
    companyId: tenant.id,
    seasonId: season.id,
    tournamentIds,
    rules: { tieRule, rankAdmins, rankNonPlayers },
  };
  const [{ total, entries }, me, recomputing] = await Promise.all([
    seasonRankingPage(scope.db, which, page.skip, page.take),
    viewer.companyId === tenant.id ? seasonRankingOf(scope.db, which, viewer.id) : Promise.resolve(null),
    rescoring(scope.db, tenant.id, tournamentIds),
  ]);
  return { total, entries, me, recomputing };
}
