// The winners of each decided round of a tournament in the company the request acts on, for prizes: who is ranked
// and who may see round rankings as `ranking` decides (scoringSettings, featureSettings.rankings), the winners'
// names as rankings show them (disableRankingsUserNames). The work is src/game/round-winners.ts's.
import { featureSettings } from '../domain/defaults.ts';
import { forbidden, notFound } from '../domain/errors.ts';
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { roundWinners as decidedRoundWinners } from '../game/round-winners.ts';
import type { RoundRow, UserRow } from '../db/rows.ts';
import { rankedUser } from './rankings.ts';
import type { RequestScope } from './scope.ts';

export interface RoundWinnersEntry {
  round: RoundRow;
  points: number;
  /** null where the caller may not know who won (rankedUser). */
  winners: Array<UserRow | null>;
}

export async function roundWinners(scope: RequestScope, tournamentId: number): Promise<RoundWinnersEntry[]> {
  const { viewer, tenant } = scope.requireTenant();
  const tournaments = await scope.loaders.tournamentsByCompany.load(tenant.id);
  if (!tournaments.some((t) => t.id === tournamentId)) throw notFound('tournament', tournamentId);
  const privileged = roleAtLeast(viewer.role as RoleName, 'admin');
  if (!privileged && !featureSettings(tenant.featureSettings).rankings.showRoundRankings)
    throw forbidden('round rankings are not shown in this company');
  const { tieRule, rankAdmins, rankNonPlayers } = readScoringSettings(tenant.scoringSettings);
  const rounds = await decidedRoundWinners(scope.db, {
    companyId: tenant.id,
    tournamentId,
    rules: { tieRule, rankAdmins, rankNonPlayers },
  });
  return Promise.all(
    rounds.map(async ({ roundId, points, winnerIds }) => ({
      round: (await scope.loaders.round.load(roundId))!,
      points,
      winners: await Promise.all(winnerIds.map((id) => rankedUser(scope, id))),
    })),
  );
}
