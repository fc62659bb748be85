// Recomputes dream-final pick points of the given tournaments from their final and third-place results.
import type { Tx } from '../db/client.ts';
import { finalStandings, pickPoints } from '../domain/dream-finals.ts';

export async function rescoreDreamFinals(tx: Tx, tournamentIds: number[]): Promise<number> {
  if (tournamentIds.length === 0) return 0;
  const settings = await tx.dreamFinalsSetting.findMany({ where: { tournamentId: { in: tournamentIds } } });
  if (settings.length === 0) return 0;
  const rounds = await tx.round.findMany({ where: { tournamentId: { in: tournamentIds } } });
  const matches = await tx.match.findMany({ where: { tournamentId: { in: tournamentIds } } });
  let changed = 0;
  for (const setting of settings) {
    const standings = finalStandings(
      rounds.filter((r) => r.tournamentId === setting.tournamentId),
      matches.filter((m) => m.tournamentId === setting.tournamentId),
    );
    const picks = await tx.dreamFinalPick.findMany({ where: { settingId: setting.id } });
    const groups = new Map<number | null, number[]>();
    for (const pick of picks) {
      const points = pickPoints(standings, pick.position, pick.teamId, setting.awardedPoints);
      if (points === pick.points) continue;
      groups.set(points, [...(groups.get(points) ?? []), pick.id]);
    }
    for (const [points, ids] of groups)
      changed += (await tx.dreamFinalPick.updateMany({ where: { id: { in: ids } }, data: { points } })).count;
  }
  return changed;
}
