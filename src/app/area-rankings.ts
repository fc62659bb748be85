// Team rankings: the areas of one level of the company against each other in a tournament, by the average points
// of their ranked members (who is ranked: the company's scoringSettings, as in ranking), areas with fewer ranked
// members than featureSettings.areas.minUsersForAreaRanking left out. Who sees it follows
// featureSettings.rankings.visibleAreaRankings: none refuses players, own shows a player the areas they are placed
// in (at their positions among all), all shows every area; admins, the reseller and managers see every area. A
// company with disableAreas has no area rankings at all.
import { featureSettings } from '../domain/defaults.ts';
import { rankAreas, type RankedArea } from '../domain/area-ranking.ts';
import { badInput, forbidden, notFound } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { areaRankingScores } from '../game/area-ranking.ts';
import type { RequestScope } from './scope.ts';

export interface AreaRankingArgs {
  tournamentId: number;
  level: number;
  skip?: number | null;
  take?: number | null;
}

export async function areaRanking(
  scope: RequestScope,
  args: AreaRankingArgs,
): Promise<{ total: number; entries: RankedArea[] }> {
  const page = paging(args.skip, args.take);
  const { viewer, tenant } = scope.requireTenant();
  const level = args.level;
  if (level !== 1 && level !== 2 && level !== 3) throw badInput('level must be 1, 2 or 3', 'level');
  if (tenant.disableAreas) throw forbidden('areas are turned off in this company (disableAreas)');
  const tournaments = await scope.loaders.tournamentsByCompany.load(tenant.id);
  if (!tournaments.some((t) => t.id === args.tournamentId)) throw notFound('tournament', args.tournamentId);
  const settings = featureSettings(tenant.featureSettings);
  const privileged = roleAtLeast(viewer.role as RoleName, 'admin');
  const visible = privileged ? 'all' : settings.rankings.visibleAreaRankings;
  if (visible === 'none') throw forbidden('area rankings are not shown in this company');
  const { tieRule, rankAdmins, rankNonPlayers } = readScoringSettings(tenant.scoringSettings);
  const ranked = rankAreas(
    await areaRankingScores(scope.db, {
      companyId: tenant.id,
      tournamentId: args.tournamentId,
      level,
      minMembers: settings.areas.minUsersForAreaRanking,
      rules: { tieRule, rankAdmins, rankNonPlayers },
    }),
  );
  const own = [viewer.areaLevel1Id, viewer.areaLevel2Id, viewer.areaLevel3Id];
  const shown =
    visible === 'all' ? ranked : ranked.filter((a) => viewer.companyId === tenant.id && own.includes(a.areaId));
  return { total: shown.length, entries: shown.slice(page.skip, page.skip + page.take) };
}
